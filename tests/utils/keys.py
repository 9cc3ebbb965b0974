"""Deposit xpubs for tests that run in production mode, which refuses to start without them: the BIP39
test mnemonic's mainnet account keys (public; tests/unit/test_chain_keys.py checks their addresses)."""

from __future__ import annotations

import json

from store.chain.custody import TEST_MNEMONIC, MnemonicKeySource

MAINNET_XPUBS = MnemonicKeySource(TEST_MNEMONIC).account_xpubs("mainnet")
MAINNET_XPUBS_ENV = {"EXCHANGE_XPUBS": json.dumps(MAINNET_XPUBS)}

# Production also refuses to start without a real SMS provider and an SMTP host (config/production.py):
# an SMSC's and a mail server's address for the production-mode tests, which send no code.
PRODUCTION_SENDERS = {"sms_providers": ["smpp"], "sms_smpp_host": "127.0.0.1", "smtp_host": "127.0.0.1"}
PRODUCTION_SENDERS_ENV = {
    "EXCHANGE_SMS_PROVIDERS": '["smpp"]',
    "EXCHANGE_SMS_SMPP_HOST": "127.0.0.1",
    "EXCHANGE_SMTP_HOST": "127.0.0.1",
}
