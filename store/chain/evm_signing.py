"""EVM transactions signed by a key the signing code never sees: the hot wallet's ``KeySource``
(store/chain/custody.py: a mnemonic today, a KMS or HSM tomorrow) signs the EIP-1559 signing hash;
eth-account builds, checks and encodes the typed transaction around that signature.

The hot wallet is account 1' of the EVM coin (``m/44'/60'/1'/0/0``), apart from account 0', whose
receive children are the users' deposit addresses: a deposit address never pays a withdrawal, and
the hot wallet's address is never handed out.

What is signed is checked before it leaves: the signature must recover the hot wallet's address
(a signer answering for another key, or a corrupted signature, is refused here rather than by the
node after broadcast), and the transaction's id is the keccak of its bytes, known before broadcast,
so the bytes and the id can be stored first and the same bytes broadcast again after any failure
(an EVM node answers the second broadcast of a transaction it has with its hash, or "already known").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from bip_utils import EthAddrEncoder
from eth_account import Account
from eth_account.typed_transactions import TypedTransaction
from eth_utils import is_checksum_address, keccak, to_checksum_address

from store.chain.custody import KeySource
from store.chain_rpc.evm import transfer_data

HOT_ACCOUNT = 1  # the hot wallet's BIP44 account on coin 60 (deposit addresses are account 0)
ETH_DECIMALS = 18
NATIVE_GAS = 21_000  # a plain transfer to an address without code
ERC20_GAS = 100_000  # an ERC20 transfer to a fresh holder costs ~52,000; unused gas is not paid


class SigningError(Exception):
    """What the key source answered does not sign this transaction for the hot wallet."""


def hot_path(index: int = 0) -> str:
    """The BIP32 path of the hot wallet's ``index``-th address."""
    return f"m/44'/60'/{HOT_ACCOUNT}'/0/{index}"


GAS_STATION_PATH = hot_path(1)  # pays deposit addresses' gas for token sweeps (store/chain/sweeps.py)


def address_of(keys: KeySource, path: str) -> str:
    """The EIP-55 address of the key at ``path``."""
    return EthAddrEncoder.EncodeKey(keys.public_key(path))


def to_base_units(amount: Decimal, decimals: int) -> int:
    """``amount`` in the currency's smallest unit (wei, a token's unit); ``ValueError`` unless it is
    positive with at most ``decimals`` places (never rounded: a withdrawal sends exactly its amount)."""
    units = amount.scaleb(decimals)
    if amount <= 0 or units != units.to_integral_value():
        raise ValueError(f"{amount} is not a positive amount with at most {decimals} decimal places")
    return int(units)


def transfer_call(to: str, amount: Decimal, *, token: str | None, decimals: int) -> dict[str, Any]:
    """The ``to``/``value``/``data``/``gas`` of sending ``amount`` to ``to``: native coin when ``token``
    is None, else an ERC20 ``transfer`` on the token contract. ``ValueError`` for a mixed-case address
    whose EIP-55 checksum fails (one case carries none) or an amount the currency cannot hold."""
    digits = to[2:]
    mixed_case = digits not in (digits.lower(), digits.upper())
    if not (to.startswith("0x") and len(to) == 42) or (mixed_case and not is_checksum_address(to)):
        raise ValueError(f"{to!r} is not an EVM address (or its EIP-55 checksum fails)")
    recipient = to_checksum_address(to)  # raises ValueError for a character that is not hex
    units = to_base_units(amount, decimals)
    if token is None:
        return {"to": recipient, "value": units, "data": "0x", "gas": NATIVE_GAS}
    return {"to": to_checksum_address(token), "value": 0, "data": transfer_data(recipient, units), "gas": ERC20_GAS}


@dataclass(frozen=True)
class SignedTx:
    raw: str  # 0x-hex of the EIP-2718 bytes: what is stored, then broadcast (again and again if need be)
    txid: str  # keccak of those bytes: the hash the chain will know it by
    sender: str
    nonce: int


def sign_eip1559(keys: KeySource, path: str, tx: Mapping[str, Any]) -> SignedTx:
    """Sign a type-2 transaction (chainId, nonce, maxFeePerGas, maxPriorityFeePerGas, gas, to, value,
    data) with the key at ``path``. Raises ``SigningError`` when the signature does not recover the
    key's address, and ``TypeError``/``ValueError`` (eth-account's checks) for a malformed transaction."""
    fields = {"type": 2, "accessList": [], **tx}
    unsigned = TypedTransaction.from_dict(dict(fields))
    signature = keys.sign_digest(path, unsigned.hash())
    signed = TypedTransaction.from_dict({**fields, "v": signature.recovery_id, "r": signature.r, "s": signature.s})
    raw = signed.encode()
    sender = address_of(keys, path)
    if Account.recover_transaction(raw) != sender:
        raise SigningError(f"the signature from the key source does not recover {sender}")
    return SignedTx(raw="0x" + raw.hex(), txid="0x" + keccak(raw).hex(), sender=sender, nonce=int(fields["nonce"]))
