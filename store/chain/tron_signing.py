"""TRON transactions signed by a key the signing code never sees, after checking what the node built.

A TRON node builds the unsigned transaction (store/chain_rpc/tron.py) and answers its protobuf bytes;
the signature covers exactly those bytes, so they are read here before anything is signed: one
contract, of the expected type, from the hot wallet, to the expected token or recipient, with the
expected call data or amount and fee limit, and nothing else (no memo, no other permission, no extra
contract). A node that built anything else is not trusted with the signature.

The transaction id is ``sha256(raw bytes)``; the hot wallet's ``KeySource`` (store/chain/custody.py)
signs that digest (secp256k1, low-s, with its recovery id: 65 bytes ``r‖s‖v``), and the signature must
recover the hot wallet's address (a key source answering for another key is refused here, not by the
node after broadcast). What is stored and broadcast is the signed ``Transaction`` protobuf (its
``raw_data``: the node's bytes, its ``signature``: the one signature), known before the broadcast with
its id.

The protobuf library reads and writes the wire format, with TRON's message layout
(store/chain/tron_proto.py). The id covers the node's bytes as they came, never bytes written again
here, and the signed ``Transaction`` must hold exactly those bytes, yet it is written by the library
from a parsed ``Transaction.raw``. So the node's bytes are accepted only if the library writes the
parsed message back to the very same bytes (each field once, in number order, no zero written out:
what protobuf writes, a TRON node's Java included), and the signed bytes are read back to check that
their ``raw_data`` is the node's bytes. That also means what is checked is all the bytes say: a field
written twice (which a parser merges or takes the last of) or a varint padded out is refused rather
than interpreted. A wrapper layout with ``raw_data`` as plain bytes would have embedded any bytes
as they are, and it would have let those through.

The hot wallet is account 1' of TRON's coin (``m/44'/195'/1'/0/0``); account 0' holds the users'
deposit addresses, as on the EVM chain (store/chain/evm_signing.py).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any

import coincurve
from bip_utils import Base58Decoder, Base58Encoder, TrxAddrEncoder
from google.protobuf import empty_pb2
from google.protobuf.message import DecodeError, Message
from google.protobuf.unknown_fields import UnknownFieldSet

from store.chain.custody import KeySource
from store.chain.evm_signing import SigningError
from store.chain.tron_proto import CONTRACT_TYPES, Raw, Transaction, TransferContract, TriggerSmartContract, type_url
from store.chain_rpc.evm import transfer_data

HOT_ACCOUNT = 1
TRX_DECIMALS = 6  # 1 TRX = 1,000,000 SUN
ADDRESS_PREFIX = 0x41
TRANSFER = CONTRACT_TYPES["TransferContract"]  # 1
TRIGGER = CONTRACT_TYPES["TriggerSmartContract"]  # 31
BODY: dict[int, type[Message]] = {TRANSFER: TransferContract, TRIGGER: TriggerSmartContract}
TYPE_URL = {kind: type_url(body) for kind, body in BODY.items()}  # type.googleapis.com/protocol.…
# Transaction.raw fields a transfer may carry (not auths, the memo data, scripts or any unknown one).
RAW_FIELDS = {"ref_block_bytes", "ref_block_num", "ref_block_hash", "expiration", "contract", "timestamp", "fee_limit"}
MAX_EXPIRY_MS = 24 * 3600 * 1000  # TRON refuses a transaction that expires later than a day ahead


def hot_path(index: int = 0) -> str:
    """The BIP32 path of the TRON hot wallet's ``index``-th address."""
    return f"m/44'/195'/{HOT_ACCOUNT}'/0/{index}"


def address_of(keys: KeySource, path: str) -> str:
    """The base58check ``T…`` address of the key at ``path``."""
    return TrxAddrEncoder.EncodeKey(keys.public_key(path))


def raw_address(address: str) -> bytes:
    """The 21 bytes (0x41 + 20) of a base58check TRON address; ``ValueError`` when it is not one."""
    try:
        raw = Base58Decoder.CheckDecode(address)
    except Exception as exc:  # bip-utils raises its own errors for a bad checksum or alphabet
        raise ValueError(f"{address!r} is not a TRON address") from exc
    if len(raw) != 21 or raw[0] != ADDRESS_PREFIX:
        raise ValueError(f"{address!r} is not a TRON address")
    return raw


def evm_hex(address: str) -> str:
    """A ``T…`` address as 0x and its 20 bytes after the 0x41 prefix: how a contract call (an ABI word)
    and TRON's Ethereum-style JSON-RPC name it."""
    return "0x" + raw_address(address)[1:].hex()


def base58(raw: bytes) -> str:
    return Base58Encoder.CheckEncode(raw)


def transfer_call(to: str, units: int) -> tuple[str, bytes]:
    """TRC20 ``transfer(to, units)``: its ABI parameters (hex, what ``triggersmartcontract`` takes with
    the function's signature) and the call data the node must build from them. TRON's ABI words
    carry the 20 address bytes without the 0x41 prefix, as on EVM chains."""
    data = transfer_data(evm_hex(to), units)  # 0x + selector + words
    return data[10:], bytes.fromhex(data[2:])


# -- what is signed --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expected:
    """What the transaction must do: ``kind`` TRANSFER (TRX ``amount`` SUN to ``to``) or TRIGGER (call
    ``to``, a token contract, with ``data`` and at most ``fee_limit`` SUN of fee), from ``owner``."""

    kind: int
    owner: str
    to: str
    amount: int = 0
    data: bytes = b""
    fee_limit: int = 0


def _parse(kind: type[Message], data: bytes) -> Any:
    try:
        return kind.FromString(data)
    except DecodeError as exc:
        raise ValueError(f"the bytes are not a {kind.DESCRIPTOR.full_name}") from exc


def _read(kind: type[Message], data: bytes) -> Any:
    """``data`` as a ``kind``, only if the library writes that message back to the same bytes (see the
    module's docstring): then what is checked is all ``data`` says, and it can be embedded as written.
    Any: the fields are TRON's layout, built at run time (store/chain/tron_proto.py), unknown to mypy."""
    message = _parse(kind, data)
    if message.SerializeToString() != data:
        raise ValueError(f"the {kind.DESCRIPTOR.full_name} is not written as protobuf writes it")
    return message


def _unknown(message: Message) -> list[Any]:
    """The fields of ``message`` its layout does not name (the protobuf library keeps them aside)."""
    found = UnknownFieldSet(message)
    return [found[i] for i in range(len(found))]


def _only(message: Message, allowed: set[str], what: str) -> None:
    """``ValueError`` if ``message`` carries a field not in ``allowed``, or one its layout does not name."""
    extra = [field.name for field, _ in message.ListFields() if field.name not in allowed]
    extra += [f"#{field.field_number}" for field in _unknown(message)]
    if extra:
        raise ValueError(f"the {what} carries fields {sorted(set(extra))}")


def expiration_of(raw: bytes) -> int:
    """A transaction's expiration (ms since the epoch) from its raw bytes, or those of the signed
    ``Transaction`` (whose ``raw_data`` they are)."""
    message = _parse(Raw, raw)
    if not message.contract:  # a signed Transaction: its raw data first
        message = _parse(Transaction, raw).raw_data
    if not message.expiration:
        raise ValueError("the transaction has no expiration")
    return message.expiration


def check_raw(raw: bytes, expect: Expected) -> Any:
    """``ValueError`` unless ``raw`` (a ``Transaction.raw``) does exactly what ``expect`` says; the
    parsed ``Transaction.raw`` when it does."""
    message = _read(Raw, raw)
    _only(message, RAW_FIELDS, "transaction")
    if expiration_of(raw) > time.time() * 1000 + MAX_EXPIRY_MS:  # a node would refuse it: it could never expire
        raise ValueError("the transaction expires more than a day from now")
    if len(message.contract) != 1:
        raise ValueError(f"the transaction holds {len(message.contract)} contracts, not one")
    (contract,) = message.contract
    _only(contract, {"type", "parameter"}, "transaction's contract")  # no provider, name or permission id
    _only(contract.parameter, {"type_url", "value"}, "transaction's contract parameter")
    if contract.type != expect.kind or not contract.HasField("parameter"):
        raise ValueError("the transaction's contract is not the one asked for")
    if contract.parameter.type_url != TYPE_URL[expect.kind]:
        raise ValueError("the transaction's contract has another type")
    body = _read(BODY[expect.kind], contract.parameter.value)
    owner, to = raw_address(expect.owner), raw_address(expect.to)
    wanted: Any
    if expect.kind == TRANSFER:
        wanted = TransferContract(owner_address=owner, to_address=to, amount=expect.amount)
    else:  # call_value, call_token_value and token_id 0 (absent)
        wanted = TriggerSmartContract(owner_address=owner, contract_address=to, data=expect.data)
        if not message.fee_limit:
            raise ValueError("the transaction's contract call has no fee limit")
    if len(UnknownFieldSet(body)) or body != wanted:
        raise ValueError("the transaction pays another address or amount than asked")
    if message.fee_limit != expect.fee_limit:
        raise ValueError(f"the transaction's fee limit is {message.fee_limit}, not {expect.fee_limit}")
    return message


@dataclass(frozen=True)
class SignedTron:
    raw: str  # hex of the signed Transaction protobuf: stored, then broadcast (again if need be)
    txid: str  # sha256 of the raw data: the id the chain knows it by
    expiration: int


def sign_raw(keys: KeySource, path: str, raw: bytes, expect: Expected) -> SignedTron:
    """Check ``raw`` against ``expect`` (``ValueError``), sign its id with the key at ``path`` and check
    that the signature recovers that key's address (``SigningError``)."""
    message = check_raw(raw, expect)
    digest = hashlib.sha256(raw).digest()
    signature = keys.sign_digest(path, digest)
    packed = signature.r.to_bytes(32, "big") + signature.s.to_bytes(32, "big") + bytes([signature.recovery_id])
    signer = address_of(keys, path)
    try:
        recovered = coincurve.PublicKey.from_signature_and_message(packed, digest, hasher=None)
    except Exception as exc:  # an unrecoverable signature
        raise SigningError(f"the signature from the key source does not recover {signer}") from exc
    if TrxAddrEncoder.EncodeKey(recovered.format()) != signer or signer != expect.owner:
        raise SigningError(f"the signature from the key source does not recover {expect.owner}")
    signed = Transaction(raw_data=message, signature=[packed]).SerializeToString()
    embedded = [field.data for field in _unknown(empty_pb2.Empty.FromString(signed)) if field.field_number == 1]
    if embedded != [raw]:  # the library wrote raw_data as other bytes than the node's, which the id covers
        raise ValueError("the signed transaction does not hold the node's bytes")
    return SignedTron(raw=signed.hex(), txid=digest.hex(), expiration=expiration_of(raw))
