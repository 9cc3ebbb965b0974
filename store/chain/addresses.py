"""Whether a string is an address a withdrawal on a chain family can be sent to, on the network this
exchange runs on: the checksum and the network's prefixes checked by bip-utils' decoders, never a
pattern alone (a typo in a pattern-shaped address would send coins nowhere).

What each family accepts, as wallets users paste from produce them:

| family | mainnet | regtest (development, test) |
|---|---|---|
| BTC  | ``1…`` P2PKH, ``3…`` P2SH, ``bc1q…`` v0 (20, 32 bytes), ``bc1p…`` taproot | ``m…``/``n…``, ``2…``, ``bcrt1…`` |
| LTC  | ``L…`` P2PKH, ``M…`` (and the old ``3…``) P2SH, ``ltc1…`` | ``m…``/``n…``, ``Q…`` (and ``2…``), ``rltc1…`` |
| DOGE | ``D…`` P2PKH, ``9…``/``A…`` P2SH | ``m…``/``n…``, ``2…`` |
| BCH  | ``bitcoincash:q…``/``p…`` (the prefix may be left out) | ``bchreg:q…``/``p…`` |
| EVM  | ``0x`` + 40 hex: EIP-55 when mixed case, any when one case | the same |
| TRON | ``T…`` base58check | the same |
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from bip_utils import (
    Base58ChecksumError,
    BchP2PKHAddrDecoder,
    BchP2SHAddrDecoder,
    Bech32ChecksumError,
    EthAddrDecoder,
    P2PKHAddrDecoder,
    P2SHAddrDecoder,
    SegwitBech32Decoder,
    TrxAddrDecoder,
)

from store.chain.keys import Family, Network, family_of

MAX_LENGTH = 128  # longer than any address above; refused before any decoding
# What bip-utils' decoders raise for malformed input (the checksum errors are not ValueErrors).
MALFORMED = (ValueError, TypeError, Bech32ChecksumError, Base58ChecksumError)


@dataclass(frozen=True)
class Base58Versions:
    """A UTXO family's legacy encodings on one network, and its segwit prefix (None: no segwit)."""

    p2pkh: tuple[bytes, ...]
    p2sh: tuple[bytes, ...]
    hrp: str | None


UTXO: dict[Network, dict[Family, Base58Versions]] = {
    "mainnet": {
        "BTC": Base58Versions((b"\x00",), (b"\x05",), "bc"),
        "LTC": Base58Versions((b"\x30",), (b"\x32", b"\x05"), "ltc"),
        "DOGE": Base58Versions((b"\x1e",), (b"\x16",), None),
    },
    "regtest": {
        "BTC": Base58Versions((b"\x6f",), (b"\xc4",), "bcrt"),
        "LTC": Base58Versions((b"\x6f",), (b"\x3a", b"\xc4"), "rltc"),
        "DOGE": Base58Versions((b"\x6f",), (b"\xc4",), None),
    },
}
CASHADDR_PREFIX: dict[Network, str] = {"mainnet": "bitcoincash", "regtest": "bchreg"}


def _decodes(decode: Callable[[], object]) -> bool:
    try:
        decode()
        return True
    except MALFORMED:
        return False


def _segwit(hrp: str, address: str) -> bool:
    """A segwit address of ``hrp``: v0 with a 20-byte (P2WPKH) or 32-byte (P2WSH) program, v1 (taproot)
    with 32 bytes; the decoder checks bech32 for v0 and bech32m for later versions."""
    try:
        version, program = SegwitBech32Decoder.Decode(hrp, address)
    except MALFORMED:
        return False
    return (version == 0 and len(program) in (20, 32)) or (version == 1 and len(program) == 32)


def _utxo(versions: Base58Versions, address: str) -> bool:
    if versions.hrp is not None and address.lower().startswith(versions.hrp + "1"):
        return _segwit(versions.hrp, address)
    return any(_decodes(partial(P2PKHAddrDecoder.DecodeAddr, address, net_ver=v)) for v in versions.p2pkh) or any(
        _decodes(partial(P2SHAddrDecoder.DecodeAddr, address, net_ver=v)) for v in versions.p2sh
    )


def _cashaddr(prefix: str, address: str) -> bool:
    full = address if ":" in address else f"{prefix}:{address}"
    if full.split(":", 1)[0].lower() != prefix:
        return False
    return _decodes(lambda: BchP2PKHAddrDecoder.DecodeAddr(full, hrp=prefix, net_ver=b"\x00")) or _decodes(
        lambda: BchP2SHAddrDecoder.DecodeAddr(full, hrp=prefix, net_ver=b"\x08")
    )


def _evm(address: str) -> bool:
    digits = address[2:]
    one_case = digits == digits.lower() or digits == digits.upper()  # EIP-55: no checksum to check
    return _decodes(lambda: EthAddrDecoder.DecodeAddr(address, skip_chksum_enc=one_case))


def withdrawable(chain_protocol: str, address: str, network: Network) -> bool:
    """Whether ``address`` is one a withdrawal on ``chain_protocol`` (a currency protocol's chain, such as
    ERC20 or LTC) can be sent to on ``network``. False for a chain with no adapter."""
    family = family_of(chain_protocol)
    if family is None or not address or len(address) > MAX_LENGTH or not address.isascii():
        return False
    if family == "EVM":
        return _evm(address)
    if family == "TRON":
        return _decodes(lambda: TrxAddrDecoder.DecodeAddr(address))
    if family == "BCH":
        return _cashaddr(CASHADDR_PREFIX[network], address)
    return _utxo(UTXO[network][family], address)
