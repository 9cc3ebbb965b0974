"""The hot wallet's private keys: where they come from, and the one interface that uses them.

Only the Signer (and, outside production, the key generator run by ``exchange up``) imports this
module; the API and the watchers import ``store.chain.keys`` and hold account xpubs alone. A
``KeySource`` answers by derivation path, so a KMS or HSM holding the seed can replace
``MnemonicKeySource`` without the Signer changing: it never sees a private key, only public keys and
signatures.

Development and test keys (``ensure_dev_keys``): on first start a BIP39 mnemonic is written to
``<data_dir>/keys/mnemonic`` (mode 0600; development generates a fresh one, test uses the fixed
BIP39 test mnemonic so addresses are the same every run) and the account xpubs derived from it to
``<data_dir>/keys/xpubs.json``, the file the API reads. Production never generates keys.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import coincurve
from bip_utils import Bip32Secp256k1, Bip39MnemonicGenerator, Bip39MnemonicValidator, Bip39SeedGenerator, Bip39WordsNum

from config.settings import CHAIN_FAMILIES, Settings
from store.chain.keys import SPECS, Family, Network

log = logging.getLogger(__name__)

# The BIP39 test mnemonic (all its published vectors use it): test mode's keys, never funded on mainnet.
TEST_MNEMONIC = " ".join(["abandon"] * 11 + ["about"])


class CustodyError(Exception):
    """The hot wallet's secret is missing or not a valid mnemonic."""


@dataclass(frozen=True)
class Signature:
    """A secp256k1 ECDSA signature of a 32-byte digest, low-s, with its recovery id (EVM and TRON need
    it; Bitcoin-family chains DER-encode ``r`` and ``s``)."""

    r: int
    s: int
    recovery_id: int


class KeySource(Protocol):
    """What the Signer asks of whatever holds the seed: a file, an environment variable, a KMS, an HSM."""

    def public_key(self, path: str) -> bytes:
        """The compressed SEC1 public key at a BIP32 path such as ``m/84'/1'/0'/0/7``."""
        ...

    def sign_digest(self, path: str, digest: bytes) -> Signature:
        """Sign a 32-byte digest with the key at ``path``; the key itself never leaves the source."""
        ...


class MnemonicKeySource:
    """A ``KeySource`` over a BIP39 mnemonic (no passphrase) read from a file or an environment variable."""

    def __init__(self, mnemonic: str) -> None:
        words = " ".join(mnemonic.split())
        if not Bip39MnemonicValidator().IsValid(words):
            raise CustodyError("the hot wallet's mnemonic is not a valid BIP39 mnemonic")
        self._seed = Bip39SeedGenerator(words).Generate()
        self._root = Bip32Secp256k1.FromSeed(self._seed)

    @classmethod
    def from_settings(cls, settings: Settings) -> MnemonicKeySource:
        """The mnemonic from the environment variable settings name, else from the file they name."""
        if settings.signer_mnemonic_env:
            value = os.environ.get(settings.signer_mnemonic_env, "")
            if not value.strip():
                raise CustodyError(f"the environment variable {settings.signer_mnemonic_env} holds no mnemonic")
            return cls(value)
        path = settings.signer_mnemonic_path
        if path is None:
            raise CustodyError("no hot wallet key: set EXCHANGE_SIGNER_MNEMONIC_FILE or EXCHANGE_SIGNER_MNEMONIC_ENV")
        try:
            return cls(path.read_text())
        except OSError as exc:
            raise CustodyError(f"cannot read the hot wallet's mnemonic at {path}: {exc}") from exc

    def public_key(self, path: str) -> bytes:
        return self._root.DerivePath(path).PublicKey().RawCompressed().ToBytes()

    def sign_digest(self, path: str, digest: bytes) -> Signature:
        if len(digest) != 32:
            raise ValueError("sign a 32-byte digest")
        secret = self._root.DerivePath(path).PrivateKey().Raw().ToBytes()
        packed = coincurve.PrivateKey(secret).sign_recoverable(digest, hasher=None)  # r(32) s(32) id(1), low-s
        return Signature(int.from_bytes(packed[:32], "big"), int.from_bytes(packed[32:64], "big"), packed[64])

    def account_xpubs(self, network: Network) -> dict[Family, str]:
        """Each family's account-level extended public key (``m/purpose'/coin'/0'``) on ``network``."""
        xpubs = {}
        for family in CHAIN_FAMILIES:
            spec = SPECS[network][family]
            account = spec.scheme.FromSeed(self._seed, spec.coin).Purpose().Coin().Account(0)
            xpubs[family] = account.PublicKey().ToExtended()
        return xpubs


def _write_new(path: Path, text: str, mode: int) -> bool:
    """Create ``path`` with ``text`` unless it exists (atomic: no reader sees half a file, and of two
    processes starting at once one writes and the other keeps its file). True: this call wrote it."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.link(temporary, path)
        return True
    except FileExistsError:
        return False
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()


def ensure_dev_keys(settings: Settings) -> Path | None:
    """Outside production: make sure the xpub file the API reads exists, generating the mnemonic on
    first start. Idempotent; logs once, when it writes. Returns the xpub file (None: production, or
    every family's xpub is set in EXCHANGE_XPUBS)."""
    if settings.env == "production" or set(CHAIN_FAMILIES) <= set(settings.xpubs):
        return None
    xpub_path = settings.xpub_path
    assert xpub_path is not None  # outside production there is always one
    if xpub_path.exists():
        return xpub_path
    mnemonic_path = settings.signer_mnemonic_path
    if mnemonic_path is not None and not settings.signer_mnemonic_env and not mnemonic_path.exists():
        fresh = (
            TEST_MNEMONIC
            if settings.env == "test"
            else str(Bip39MnemonicGenerator().FromWordsNumber(Bip39WordsNum.WORDS_NUM_24))
        )
        if _write_new(mnemonic_path, fresh + "\n", 0o600):
            log.warning("generated the %s hot wallet mnemonic at %s (mode 0600)", settings.env, mnemonic_path)
    xpubs = MnemonicKeySource.from_settings(settings).account_xpubs(settings.chain_network)
    if _write_new(xpub_path, json.dumps(xpubs, indent=2) + "\n", 0o644):
        log.warning("wrote the deposit xpubs (%s) to %s; the API reads only these", settings.chain_network, xpub_path)
    return xpub_path
