"""Deposit addresses from extended public keys: why no process that serves HTTP can spend.

Each chain family has one account-level extended public key (depth 3: ``m/purpose'/coin'/0'``). A
user's address is its receive child ``<xpub>/0/<index>``, where the index comes from the family's
counter (``store/deposits.py``). Non-hardened derivation needs only the public key, so the API and
the watchers can hand out and recognise addresses while the private keys stay with the Signer.

| family | scheme | mainnet coin, address | regtest (development, test) coin, address |
|---|---|---|---|
| BTC  | BIP84 | 0', ``bc1q…``                | 1', ``bcrt1q…`` (Bitcoin Core -regtest) |
| LTC  | BIP84 | 2', ``ltc1q…``               | 1', ``rltc1q…`` (litecoind -regtest) |
| DOGE | BIP44 | 3', ``D…``                   | 1', ``m…``/``n…`` (dogecoind -regtest, version 0x6f) |
| BCH  | BIP44 | 145', ``bitcoincash:q…``     | 1', ``bchreg:q…`` (Bitcoin Cash Node -regtest) |
| EVM  | BIP44 | 60', ``0x…`` EIP-55          | 60', the same (EVM dev chains share mainnet's encoding) |
| TRON | BIP44 | 195', ``T…``                 | 195', the same (TRON's test networks do too) |

DOGE and BCH have no segwit, so BIP84 (P2WPKH) would give addresses their nodes reject. EVM chains
(ETH and its ERC20 tokens, ETC, BEP20) share one address space; TRON's tokens share TRON's.
All derivation and encoding is bip-utils'; this module only chooses coins, paths and encodings.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from bip_utils import (
    BchP2PKHAddrEncoder,
    Bip44,
    Bip44Changes,
    Bip44Coins,
    Bip44Levels,
    Bip84,
    Bip84Coins,
    EthAddrEncoder,
    P2PKHAddrEncoder,
    P2WPKHAddrEncoder,
    TrxAddrEncoder,
)

from config.settings import CHAIN_FAMILIES, Settings

Network = Literal["mainnet", "regtest"]
Family = str  # one of config.settings.CHAIN_FAMILIES

# Which family each currency protocol's chain belongs to. A chain missing here has no adapter yet.
FAMILY_OF_CHAIN: dict[str, Family] = {
    "BTC": "BTC",
    "LTC": "LTC",
    "DOGE": "DOGE",
    "BCH": "BCH",
    "ERC20": "EVM",
    "ETC": "EVM",
    "BEP20": "EVM",
    "TRC20": "TRON",
}


class KeysUnavailable(Exception):
    """No usable xpub for a family: not configured, unreadable, private, or not account-level."""


@dataclass(frozen=True)
class Spec:
    """How one family derives and encodes on one network."""

    scheme: type[Bip44] | type[Bip84]
    coin: Bip44Coins | Bip84Coins
    encode: Callable[[Any], str]


def _p2wpkh(hrp: str) -> Callable[[Any], str]:
    return lambda key: P2WPKHAddrEncoder.EncodeKey(key, hrp=hrp, wit_ver=0)


def _p2pkh(version: bytes) -> Callable[[Any], str]:
    return lambda key: P2PKHAddrEncoder.EncodeKey(key, net_ver=version)


def _cashaddr(hrp: str) -> Callable[[Any], str]:
    return lambda key: BchP2PKHAddrEncoder.EncodeKey(key, hrp=hrp, net_ver=b"\x00")


SPECS: dict[Network, dict[Family, Spec]] = {
    "mainnet": {
        "BTC": Spec(Bip84, Bip84Coins.BITCOIN, _p2wpkh("bc")),
        "LTC": Spec(Bip84, Bip84Coins.LITECOIN, _p2wpkh("ltc")),
        "DOGE": Spec(Bip44, Bip44Coins.DOGECOIN, _p2pkh(b"\x1e")),
        "BCH": Spec(Bip44, Bip44Coins.BITCOIN_CASH, _cashaddr("bitcoincash")),
        "EVM": Spec(Bip44, Bip44Coins.ETHEREUM, EthAddrEncoder.EncodeKey),
        "TRON": Spec(Bip44, Bip44Coins.TRON, TrxAddrEncoder.EncodeKey),
    },
    "regtest": {
        "BTC": Spec(Bip84, Bip84Coins.BITCOIN_TESTNET, _p2wpkh("bcrt")),
        "LTC": Spec(Bip84, Bip84Coins.LITECOIN_TESTNET, _p2wpkh("rltc")),
        "DOGE": Spec(Bip44, Bip44Coins.DOGECOIN_TESTNET, _p2pkh(b"\x6f")),
        "BCH": Spec(Bip44, Bip44Coins.BITCOIN_CASH_TESTNET, _cashaddr("bchreg")),
        "EVM": Spec(Bip44, Bip44Coins.ETHEREUM, EthAddrEncoder.EncodeKey),
        "TRON": Spec(Bip44, Bip44Coins.TRON, TrxAddrEncoder.EncodeKey),
    },
}


def family_of(chain_protocol: str) -> Family | None:
    """The family a currency protocol's chain derives its addresses in; None: no adapter yet."""
    return FAMILY_OF_CHAIN.get(chain_protocol)


class AccountKey:
    """One family's account-level public key on one network: addresses by index, nothing to spend."""

    def __init__(self, family: Family, network: Network, xpub: str) -> None:
        spec = SPECS[network][family]
        try:
            account = spec.scheme.FromExtendedKey(xpub.strip(), spec.coin)
        except Exception as exc:  # bip-utils raises several kinds for a malformed or foreign key
            raise KeysUnavailable(f"{family}: not an extended key of {spec.coin.name}: {exc}") from exc
        if not account.IsPublicOnly():
            raise KeysUnavailable(f"{family}: an extended private key; give the API the public one")
        if account.Level() != Bip44Levels.ACCOUNT:
            raise KeysUnavailable(f"{family}: the key is not account-level (m/purpose'/coin'/account')")
        self.family, self.network = family, network
        self._spec = spec
        self._receive = account.Change(Bip44Changes.CHAIN_EXT)
        self.key_id = account.PublicKey().Bip32Key().KeyIdentifier().hex()[:16]
        purpose = 84 if spec.scheme is Bip84 else 44
        number = account.Bip32Object().Index().ToInt() & 0x7FFFFFFF  # the account's hardened index
        self._account_path = f"m/{purpose}'/{account.CoinConf().CoinIndex()}'/{number}'"

    def address(self, index: int) -> str:
        """The receive address at ``index`` (0 <= index < 2**31), in the network's encoding."""
        if not 0 <= index < 2**31:
            raise ValueError(f"address index {index} out of range")
        return self._spec.encode(self._receive.AddressIndex(index).PublicKey().Bip32Key().KeyObject())

    def path(self, index: int) -> str:
        """The full derivation path of ``address(index)``, the one the Signer derives its key at."""
        return f"{self._account_path}/0/{index}"


class DepositKeys:
    """The account keys of every configured family (the API's and the watchers' whole key material)."""

    def __init__(self, network: Network, xpubs: Mapping[Family, str]) -> None:
        self.network = network
        self._accounts = {family: AccountKey(family, network, xpub) for family, xpub in xpubs.items()}

    def account(self, family: Family) -> AccountKey:
        found = self._accounts.get(family)
        if found is None:
            raise KeysUnavailable(f"no xpub configured for {family}")
        return found

    @property
    def families(self) -> list[Family]:
        return sorted(self._accounts)


def read_xpub_file(path: Path) -> dict[Family, str]:
    """The ``{"BTC": "vpub…", …}`` object of an xpub file; raises KeysUnavailable when unreadable."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise KeysUnavailable(f"cannot read the xpub file {path}: {exc}") from exc
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise KeysUnavailable(f"the xpub file {path} must hold one JSON object of family: xpub")
    unknown = sorted(set(data) - set(CHAIN_FAMILIES))
    if unknown:
        raise KeysUnavailable(f"the xpub file {path} names unknown families {unknown}")
    return data


def configured_xpubs(settings: Settings) -> dict[Family, str]:
    """The xpubs settings name: the file's, overridden family by family by EXCHANGE_XPUBS."""
    path = settings.xpub_path
    from_file = read_xpub_file(path) if path is not None and not set(CHAIN_FAMILIES) <= set(settings.xpubs) else {}
    return {**from_file, **settings.xpubs}


def load(settings: Settings, *, complete: bool = False) -> DepositKeys:
    """The deposit keys settings name. ``complete``: every family must have one (production start)."""
    xpubs = configured_xpubs(settings)
    missing = [family for family in CHAIN_FAMILIES if family not in xpubs]
    if complete and missing:
        raise KeysUnavailable(f"no deposit xpub for {missing} (EXCHANGE_XPUBS or EXCHANGE_XPUB_FILE)")
    return DepositKeys(settings.chain_network, xpubs)


@lru_cache(maxsize=8)
def _cached(network: Network, xpubs: tuple[tuple[Family, str], ...]) -> DepositKeys:
    return DepositKeys(network, dict(xpubs))


def deposit_keys(settings: Settings) -> DepositKeys:
    """``load`` for a long-lived process: parsed once per distinct set of keys (the file is re-read,
    so keys written after the process started are found)."""
    return _cached(settings.chain_network, tuple(sorted(configured_xpubs(settings).items())))
