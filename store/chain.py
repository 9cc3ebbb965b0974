"""The chain gateway: where deposit addresses come from (and, later, where withdrawals go).

There is no blockchain in this build. ``DevChainGateway`` derives addresses deterministically from the
secret key, the chain and the user, so one install always hands a user the same address; deposits are
reported by the operator (``exchange chain-deposit``) instead of a chain watcher.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import NamedTuple, Protocol

from config.settings import Settings

BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
PREFIXES = {"BTC": "bc1q", "LTC": "ltc1q", "BCH": "bitcoincash:q", "DOGE": "D", "ADA": "addr1", "DOT": "1",
            "FIL": "f1", "XRP": "r", "EOS": "eos"}  # fmt: skip
HEX_CHAINS = ("ERC20", "ETC", "BEP20")


class Deposit(NamedTuple):
    address: str
    memo: str


class ChainGateway(Protocol):
    def deposit_address(self, *, uid: int, protocol_id: int, chain: str, uses_memo: bool) -> Deposit:
        """A deposit address (and memo on memo chains) for a user on one currency protocol; the caller
        stores it, so the answer only has to be unique, not reproducible."""
        ...


def _base58(digest: bytes) -> str:
    number, out = int.from_bytes(digest, "big"), ""
    while number:
        number, rest = divmod(number, 58)
        out = BASE58[rest] + out
    return out


class DevChainGateway:
    """Deterministic development addresses: HMAC(secret, chain:protocol:user) shaped like the chain's own."""

    def __init__(self, secret: str) -> None:
        self._secret = secret.encode()

    def _digest(self, text: str) -> bytes:
        return hmac.new(self._secret, text.encode(), hashlib.sha256).digest()

    def _shape(self, chain: str, digest: bytes) -> str:
        if chain in HEX_CHAINS:
            return "0x" + digest.hex()[:40]
        if chain == "TRC20":
            return "T" + _base58(digest)[:33]
        prefix = PREFIXES.get(chain, chain.lower())
        if prefix.endswith("q") or prefix == "addr1":
            return prefix + "".join(BECH32[b % 32] for b in digest)[:38]
        return prefix + _base58(digest)[:33]

    def deposit_address(self, *, uid: int, protocol_id: int, chain: str, uses_memo: bool) -> Deposit:
        if uses_memo:  # one shared address per chain; the memo names the user
            return Deposit(self._shape(chain, self._digest(f"hot:{chain}")), str(10_000_000 + uid))
        return Deposit(self._shape(chain, self._digest(f"{chain}:{protocol_id}:{uid}")), "")


def gateway(settings: Settings) -> ChainGateway:
    return DevChainGateway(settings.secret_key)
