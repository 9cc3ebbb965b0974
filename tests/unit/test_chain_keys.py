"""Deposit-address derivation (store/chain/keys.py) against published vectors, the regtest encodings,
what the API refuses to hold, and the Signer's key source (store/chain/custody.py)."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import coincurve
import pytest
from bip_utils import (
    Bip39SeedGenerator,
    Bip44,
    Bip44Changes,
    Bip44Coins,
    Bip84,
    Bip84Coins,
    EthAddrEncoder,
    P2PKHAddrDecoder,
    P2WPKHAddrDecoder,
)
from pydantic import ValidationError

from config.settings import CHAIN_FAMILIES, ROOT, Settings
from store.chain.custody import TEST_MNEMONIC, CustodyError, MnemonicKeySource, ensure_dev_keys
from store.chain.keys import AccountKey, DepositKeys, KeysUnavailable, family_of, load
from tests.utils.keys import PRODUCTION_SENDERS, PRODUCTION_SENDERS_ENV

SOURCE = MnemonicKeySource(TEST_MNEMONIC)
MAINNET = SOURCE.account_xpubs("mainnet")
REGTEST = SOURCE.account_xpubs("regtest")

# The BIP39 test mnemonic's first two receive addresses: BTC and its zpub from BIP84's test vectors; the
# others as the reference wallets of each chain give them for the same mnemonic and path (MetaMask for
# m/44'/60'/0'/0/0, TronLink for m/44'/195', Trezor's test suites for LTC, DOGE and BCH).
MAINNET_VECTORS = {
    "BTC": ("bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu", "bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g"),
    "LTC": ("ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh", None),
    "DOGE": ("DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC", None),
    "BCH": ("bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6", None),
    "EVM": ("0x9858EfFD232B4033E47d90003D41EC34EcaEda94", "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0"),
    "TRON": ("TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH", None),
}
BIP84_ZPUB = (
    "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs"
)
BIP84_TESTNET_FIRST = "tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl"  # BIP84: m/84'/1'/0'/0/0


@pytest.mark.parametrize("family", CHAIN_FAMILIES)
def test_mainnet_addresses_match_the_published_vectors(family: str) -> None:
    account = AccountKey(family, "mainnet", MAINNET[family])
    first, second = MAINNET_VECTORS[family]
    assert account.address(0) == first
    if second is not None:
        assert account.address(1) == second
    assert account.address(0) != account.address(1)


def test_the_bip84_account_xpub_is_the_published_one() -> None:
    assert MAINNET["BTC"] == BIP84_ZPUB
    assert AccountKey("BTC", "mainnet", BIP84_ZPUB).path(0) == "m/84'/0'/0'/0/0"


def test_regtest_uses_each_nodes_own_encoding_of_the_testnet_keys() -> None:
    keys = DepositKeys("regtest", REGTEST)
    btc, ltc = keys.account("BTC").address(0), keys.account("LTC").address(0)
    assert btc.startswith("bcrt1q") and ltc.startswith("rltc1q")
    # The same witness program as BIP84's testnet vector: only the human-readable part differs.
    program = P2WPKHAddrDecoder.DecodeAddr(BIP84_TESTNET_FIRST, hrp="tb")
    assert P2WPKHAddrDecoder.DecodeAddr(btc, hrp="bcrt") == program
    assert P2WPKHAddrDecoder.DecodeAddr(ltc, hrp="rltc") == program
    doge = keys.account("DOGE").address(0)
    assert doge[0] in "mn" and len(P2PKHAddrDecoder.DecodeAddr(doge, net_ver=b"\x6f")) == 20
    assert keys.account("BCH").address(0).startswith("bchreg:q")
    # EVM and TRON dev chains read mainnet's encodings.
    assert keys.account("EVM").address(0) == MAINNET_VECTORS["EVM"][0]
    assert keys.account("TRON").address(0) == MAINNET_VECTORS["TRON"][0]
    assert keys.account("LTC").path(3) == "m/84'/1'/0'/0/3" and keys.account("DOGE").path(0) == "m/44'/1'/0'/0/0"


def test_evm_chains_share_one_family_and_adapterless_chains_have_none() -> None:
    assert {family_of(c) for c in ("ERC20", "ETC", "BEP20")} == {"EVM"}
    assert family_of("TRC20") == "TRON"
    assert [family_of(c) for c in ("ADA", "DOT", "FIL", "XRP", "EOS", "")] == [None] * 6


def test_the_api_refuses_private_foreign_and_non_account_keys() -> None:
    seed = Bip39SeedGenerator(TEST_MNEMONIC).Generate()
    private = Bip84.FromSeed(seed, Bip84Coins.BITCOIN).Purpose().Coin().Account(0).PrivateKey().ToExtended()
    with pytest.raises(KeysUnavailable, match="private"):
        AccountKey("BTC", "mainnet", private)
    with pytest.raises(KeysUnavailable, match="not an extended key"):
        AccountKey("BTC", "mainnet", REGTEST["BTC"])  # a testnet vpub where a mainnet zpub belongs
    with pytest.raises(KeysUnavailable, match="not an extended key"):
        AccountKey("EVM", "mainnet", "xpub-not-a-key")
    evm = Bip44.FromSeed(seed, Bip44Coins.ETHEREUM).Purpose().Coin().Account(0)
    change_level = evm.Change(Bip44Changes.CHAIN_EXT).PublicKey().ToExtended()  # m/44'/60'/0'/0: one level too deep
    with pytest.raises(KeysUnavailable, match="account-level"):
        AccountKey("EVM", "mainnet", change_level)
    with pytest.raises(KeysUnavailable, match="below account level"):
        AccountKey("EVM", "mainnet", Bip44.FromSeed(seed, Bip44Coins.ETHEREUM).PublicKey().ToExtended())
    with pytest.raises(ValueError, match="out of range"):
        AccountKey("EVM", "mainnet", MAINNET["EVM"]).address(2**31)


def test_production_refuses_to_start_without_every_familys_xpub() -> None:
    secrets = {"secret_key": "s" * 32, "wallet_middle_salt": "t" * 32, **PRODUCTION_SENDERS}
    with pytest.raises(ValidationError, match="deposit xpubs"):
        Settings(env="production", **secrets)
    with pytest.raises(ValidationError, match=r"\['TRON'\]"):
        Settings(env="production", xpubs={k: v for k, v in MAINNET.items() if k != "TRON"}, **secrets)
    with pytest.raises(ValidationError, match="names no chain family"):
        Settings(env="production", xpubs={**MAINNET, "XRP": MAINNET["BTC"]}, **secrets)
    complete = Settings(env="production", xpubs=MAINNET, **secrets)
    assert complete.chain_network == "mainnet" and complete.xpub_path is None
    assert load(complete, complete=True).account("BTC").address(0) == MAINNET_VECTORS["BTC"][0]
    # A production file is read as given; one that misses a family stops the start.
    assert Settings(env="production", xpub_file=Path("/nonexistent/xpubs.json"), **secrets).xpub_file


def test_a_production_xpub_file_missing_a_family_or_unreadable_stops_the_start(tmp_path: Path) -> None:
    secrets = {"secret_key": "s" * 32, "wallet_middle_salt": "t" * 32, **PRODUCTION_SENDERS}
    path = tmp_path / "xpubs.json"
    settings = Settings(env="production", xpub_file=path, **secrets)
    with pytest.raises(KeysUnavailable, match="cannot read"):
        load(settings, complete=True)
    path.write_text(json.dumps({k: v for k, v in MAINNET.items() if k != "DOGE"}))
    with pytest.raises(KeysUnavailable, match=r"\['DOGE'\]"):
        load(settings, complete=True)
    path.write_text(json.dumps({**MAINNET, "BTC": REGTEST["BTC"]}))  # a regtest key on mainnet
    with pytest.raises(KeysUnavailable, match="BTC"):
        load(settings, complete=True)
    path.write_text(json.dumps(MAINNET))
    assert load(settings, complete=True).account("TRON").address(0) == MAINNET_VECTORS["TRON"][0]


def test_production_up_exits_without_xpubs_before_starting_anything(tmp_path: Path) -> None:
    env = {**os.environ, "EXCHANGE_ENV": "production", "EXCHANGE_SECRET_KEY": "s" * 40,
           "EXCHANGE_WALLET_MIDDLE_SALT": "w" * 40, "EXCHANGE_DATA_DIR": str(tmp_path),
           "EXCHANGE_XPUB_FILE": str(tmp_path / "missing.json"), **PRODUCTION_SENDERS_ENV}  # fmt: skip
    env.pop("DATABASE_URL", None), env.pop("REDIS_URL", None)
    done = subprocess.run([sys.executable, "-m", "serve.cli", "up"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 1 and "cannot read the xpub file" in done.stderr, done.stderr[-2000:]
    assert not (tmp_path / "exchange.sqlite3").exists() and not (tmp_path / "keys").exists()


def test_development_keys_are_written_once_private_to_the_owner(tmp_path: Path) -> None:
    settings = Settings(env="development", data_dir=tmp_path)
    path = ensure_dev_keys(settings)
    assert path == tmp_path / "keys" / "xpubs.json"
    mnemonic = tmp_path / "keys" / "mnemonic"
    assert stat.S_IMODE(mnemonic.stat().st_mode) == 0o600
    words = mnemonic.read_text().split()
    assert len(words) == 24 and words != TEST_MNEMONIC.split()
    xpubs = json.loads(path.read_text())
    assert sorted(xpubs) == sorted(CHAIN_FAMILIES)
    assert "prv" not in path.read_text() and " ".join(words) not in path.read_text()
    assert xpubs == MnemonicKeySource(" ".join(words)).account_xpubs("regtest")
    before = (mnemonic.read_text(), path.read_text())
    assert ensure_dev_keys(settings) == path  # a second start keeps them
    assert (mnemonic.read_text(), path.read_text()) == before
    assert load(settings, complete=True).account("LTC").address(0).startswith("rltc1q")
    # Another data directory: other keys.
    other = Settings(env="development", data_dir=tmp_path / "other")
    ensure_dev_keys(other)
    assert json.loads((tmp_path / "other" / "keys" / "xpubs.json").read_text()) != xpubs


def test_test_mode_keys_are_the_fixed_test_mnemonic(tmp_path: Path) -> None:
    settings = Settings(env="test", data_dir=tmp_path)
    ensure_dev_keys(settings)
    assert (tmp_path / "keys" / "mnemonic").read_text().strip() == TEST_MNEMONIC
    assert json.loads((tmp_path / "keys" / "xpubs.json").read_text()) == REGTEST


def test_the_signer_key_source_signs_by_path_with_the_key_the_address_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOT_WALLET_WORDS", TEST_MNEMONIC)
    source = MnemonicKeySource.from_settings(Settings(env="test", signer_mnemonic_env="HOT_WALLET_WORDS"))
    account = AccountKey("EVM", "regtest", REGTEST["EVM"])
    digest = hashlib.sha256(b"withdrawal 42").digest()
    signature = source.sign_digest(account.path(5), digest)
    packed = signature.r.to_bytes(32, "big") + signature.s.to_bytes(32, "big") + bytes([signature.recovery_id])
    recovered = coincurve.PublicKey.from_signature_and_message(packed, digest, hasher=None)
    assert recovered.format() == source.public_key(account.path(5))
    assert signature.s <= coincurve.utils.GROUP_ORDER_INT // 2  # low-s, as every chain here requires
    # The same public key the API derived from the xpub alone: the address is the Signer's to spend.
    assert EthAddrEncoder.EncodeKey(recovered.format()) == account.address(5)
    with pytest.raises(ValueError, match="32-byte"):
        source.sign_digest(account.path(5), b"short")


def test_a_missing_or_bad_hot_wallet_secret_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOT_WALLET_WORDS", raising=False)
    with pytest.raises(CustodyError, match="HOT_WALLET_WORDS"):
        MnemonicKeySource.from_settings(Settings(env="test", signer_mnemonic_env="HOT_WALLET_WORDS"))
    with pytest.raises(CustodyError, match="cannot read"):
        MnemonicKeySource.from_settings(Settings(env="test", data_dir=tmp_path))
    with pytest.raises(CustodyError, match="not a valid BIP39"):
        MnemonicKeySource("abandon " * 12)


def test_what_serves_http_imports_no_key_custody() -> None:
    """The API app and the deposit code load without the module that reads the hot wallet's secret."""
    probe = (
        "import sys, serve.app, serve.api.routes.wallet, store.deposits; print('store.chain.custody' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "False"
