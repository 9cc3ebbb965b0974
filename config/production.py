"""What production refuses to start with: the development stand-ins that are safe on a laptop and
unsafe with customers' money (settings.py calls this when EXCHANGE_ENV=production)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from config.settings import Settings


def refuse_development_settings(settings: Settings) -> None:
    """Raise ValueError naming the first development default or stand-in ``settings`` still uses."""
    from config.settings import CHAIN_FAMILIES, DEV_SECRET, DEV_WALLET_SALT

    if settings.secret_key == DEV_SECRET:
        raise ValueError("EXCHANGE_SECRET_KEY must be set in production")
    if settings.wallet_middle_salt == DEV_WALLET_SALT:
        raise ValueError("EXCHANGE_WALLET_MIDDLE_SALT must be set in production")
    missing = [family for family in CHAIN_FAMILIES if family not in settings.xpubs]
    if missing and settings.xpub_file is None:
        raise ValueError(f"production needs the deposit xpubs of {missing}: set EXCHANGE_XPUBS or EXCHANGE_XPUB_FILE")
    if settings.password_hash_cost == "minimal":
        raise ValueError("EXCHANGE_PASSWORD_HASH_COST=minimal is for tests: production hashes at the standard cost")
    if settings.dev_chains:
        raise ValueError("EXCHANGE_DEV_CHAINS is for development: production uses the nodes at EXCHANGE_*_RPC_URL")
    if not settings.sms_providers or "log" in settings.sms_providers:
        raise ValueError(
            "production sends SMS: set EXCHANGE_SMS_PROVIDERS to smpp and/or http (log is for development)"
        )
    if not settings.smtp_host:
        raise ValueError("production sends e-mail codes: set EXCHANGE_SMTP_HOST (without it a code only reaches a log)")
