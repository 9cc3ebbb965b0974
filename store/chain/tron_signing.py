"""TRON transactions signed by a key the signing code never sees, after checking what the node built.

A TRON node builds the unsigned transaction (store/chain_rpc/tron.py) and answers its protobuf bytes;
the signature covers exactly those bytes, so they are read here before anything is signed: one
contract, of the expected type, from the hot wallet, to the expected token or recipient, with the
expected call data or amount and fee limit, and nothing else (no memo, no other permission, no extra
contract). A node that built anything else is not trusted with the signature.

The transaction id is ``sha256(raw bytes)``; the hot wallet's ``KeySource`` (store/chain/custody.py)
signs that digest (secp256k1, low-s, with its recovery id: 65 bytes ``r‖s‖v``), and the signature must
recover the hot wallet's address (a key source answering for another key is refused here, not by the
node after broadcast). What is stored and broadcast is the signed ``Transaction`` protobuf (field 1:
the raw bytes, field 2: the signature), known before the broadcast with its id.

The hot wallet is account 1' of TRON's coin (``m/44'/195'/1'/0/0``); account 0' holds the users'
deposit addresses, as on the EVM chain (store/chain/evm_signing.py). The protobuf wire format is read
and written by the few lines below (varints and length-delimited fields): TRON's own protobuf
definitions come with tronpy, whose eth-abi pin (< 6) conflicts with the one this project's EVM
libraries need.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

import coincurve
from bip_utils import Base58Decoder, Base58Encoder, TrxAddrEncoder

from store.chain.custody import KeySource
from store.chain.evm_signing import SigningError
from store.chain_rpc.evm import transfer_data

HOT_ACCOUNT = 1
TRX_DECIMALS = 6  # 1 TRX = 1,000,000 SUN
ADDRESS_PREFIX = 0x41
TRANSFER = 1  # ContractType.TransferContract
TRIGGER = 31  # ContractType.TriggerSmartContract
TYPE_URL = {TRANSFER: "type.googleapis.com/protocol.TransferContract",
            TRIGGER: "type.googleapis.com/protocol.TriggerSmartContract"}  # fmt: skip
# Transaction.raw fields a transfer may carry: ref_block_bytes 1, ref_block_num 3, ref_block_hash 4,
# expiration 8, contract 11, timestamp 14, fee_limit 18 (not auths 9, memo data 10, scripts 12).
RAW_FIELDS = {1, 3, 4, 8, 11, 14, 18}
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


def base58(raw: bytes) -> str:
    return Base58Encoder.CheckEncode(raw)


def transfer_call(to: str, units: int) -> tuple[str, bytes]:
    """TRC20 ``transfer(to, units)``: its ABI parameters (hex, what ``triggersmartcontract`` takes with
    the function's signature) and the call data the node must build from them. TRON's ABI words
    carry the 20 address bytes without the 0x41 prefix, as on EVM chains."""
    data = transfer_data("0x" + raw_address(to)[1:].hex(), units)  # 0x + selector + words
    return data[10:], bytes.fromhex(data[2:])


# -- protobuf wire format --------------------------------------------------------------------------


def varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(data) or shift > 63:
            raise ValueError("a truncated varint")
        byte = data[at]
        value, at, shift = value | (byte & 0x7F) << shift, at + 1, shift + 7
        if not byte & 0x80:
            return value, at


def fields(data: bytes) -> dict[int, list[int | bytes]]:
    """One protobuf message's fields by number: varints as ints, length-delimited ones as bytes
    (other wire types are refused: no field read here uses them)."""
    found: dict[int, list[int | bytes]] = {}
    at = 0
    while at < len(data):
        key, at = _read_varint(data, at)
        value: int | bytes
        if key & 7 == 0:
            value, at = _read_varint(data, at)
        elif key & 7 == 2:
            size, at = _read_varint(data, at)
            value, at = data[at : at + size], at + size
            if at > len(data):
                raise ValueError("a truncated field")
        else:
            raise ValueError(f"wire type {key & 7} of field {key >> 3} is not expected here")
        found.setdefault(key >> 3, []).append(value)
    return found


def _one(message: dict[int, list[int | bytes]], number: int, default: int | bytes | None = None) -> int | bytes:
    values = message.get(number, [])
    if len(values) > 1 or (not values and default is None):
        raise ValueError(f"field {number} is not there once")
    return values[0] if values else default  # type: ignore[return-value]


def _inner(message: dict[int, list[int | bytes]], number: int) -> dict[int, list[int | bytes]]:
    """The fields of the message nested once at ``number``."""
    value = _one(message, number)
    if not isinstance(value, bytes):
        raise ValueError(f"field {number} is not a message")
    return fields(value)


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


def expiration_of(raw: bytes) -> int:
    """A transaction's expiration (ms since the epoch) from its raw bytes, or those of the signed
    ``Transaction`` (whose field 1 they are)."""
    message = fields(raw)
    if 11 not in message:  # a signed Transaction: its raw data first
        message = _inner(message, 1)
    expiration = _one(message, 8)
    if not isinstance(expiration, int):
        raise ValueError("the expiration is not a number")
    return expiration


def check_raw(raw: bytes, expect: Expected) -> None:
    """``ValueError`` unless ``raw`` (a ``Transaction.raw``) does exactly what ``expect`` says."""
    message = fields(raw)
    if not set(message) <= RAW_FIELDS:
        raise ValueError(f"the transaction carries fields {sorted(set(message) - RAW_FIELDS)}")
    if expiration_of(raw) > time.time() * 1000 + MAX_EXPIRY_MS:  # a node would refuse it: it could never expire
        raise ValueError("the transaction expires more than a day from now")
    contract = _inner(message, 11)
    if set(contract) - {1, 2, 5} or _one(contract, 1) != expect.kind or _one(contract, 5, 0) != 0:
        raise ValueError("the transaction's contract is not the one asked for")
    parameter = _inner(contract, 2)
    if _one(parameter, 1) != TYPE_URL[expect.kind].encode():
        raise ValueError("the transaction's contract has another type")
    body = _inner(parameter, 2)
    owner, to = raw_address(expect.owner), raw_address(expect.to)
    if expect.kind == TRANSFER:
        wanted: dict[int, int | bytes] = {1: owner, 2: to, 3: expect.amount}
        fee_limit = _one(message, 18, 0)
    else:  # call_value, call_token_value and token_id absent or 0
        wanted = {1: owner, 2: to, 4: expect.data, 3: 0, 5: 0, 6: 0}
        fee_limit = _one(message, 18)
    defaults = {n: 0 if value == 0 else None for n, value in wanted.items()}  # a zero is absent in protobuf
    if set(body) - set(wanted) or any(_one(body, n, defaults[n]) != value for n, value in wanted.items()):
        raise ValueError("the transaction pays another address or amount than asked")
    if fee_limit != expect.fee_limit:
        raise ValueError(f"the transaction's fee limit is {fee_limit}, not {expect.fee_limit}")


@dataclass(frozen=True)
class SignedTron:
    raw: str  # hex of the signed Transaction protobuf: stored, then broadcast (again if need be)
    txid: str  # sha256 of the raw data: the id the chain knows it by
    expiration: int


def sign_raw(keys: KeySource, path: str, raw: bytes, expect: Expected) -> SignedTron:
    """Check ``raw`` against ``expect`` (``ValueError``), sign its id with the key at ``path`` and check
    that the signature recovers that key's address (``SigningError``)."""
    check_raw(raw, expect)
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
    signed = b"\x0a" + varint(len(raw)) + raw + b"\x12" + varint(len(packed)) + packed
    return SignedTron(raw=signed.hex(), txid=digest.hex(), expiration=expiration_of(raw))
