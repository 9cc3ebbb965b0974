"""Deposit xpubs for tests that run in production mode, which refuses to start without them: the BIP39
test mnemonic's mainnet account keys (public; tests/unit/test_chain_keys.py checks their addresses)."""

from __future__ import annotations

import json

from store.chain.custody import TEST_MNEMONIC, MnemonicKeySource

MAINNET_XPUBS = MnemonicKeySource(TEST_MNEMONIC).account_xpubs("mainnet")
MAINNET_XPUBS_ENV = {"EXCHANGE_XPUBS": json.dumps(MAINNET_XPUBS)}
