"""Run by tests/store/test_hd_migration.py in a process of its own (migrations re-initialise the ORM):

    python -m tests.store.hd_migration_probe <database url>

Migrates a fresh database to 0021, writes what the HMAC build left (two USDT addresses no key controls,
XRP and BTC open, an operator-reported chain deposit), migrates to the latest and prints what 0022 kept
and how 0023 keys that deposit, as JSON. The models these rows use
have no column 0022 adds, so the ORM writes them as the 0021 schema holds them.
"""

from __future__ import annotations

import asyncio
import json
import sys

from tortoise import Tortoise
from tortoise.exceptions import IntegrityError
from tortoise.migrations.api import migrate

from store.db import APPS
from store.models import ChainDeposit, Currency, CurrencyProtocol, DepositAddress, HdAddress, HdCounter, User

BEFORE = "0021_robust_mark"


async def hmac_build_rows() -> None:
    for cid, code in ((1, "USDT"), (2, "BTC"), (5, "XRP")):
        await Currency.create(id=cid, code=code, name=code, open_recharge=True, open_draw=True)
    await CurrencyProtocol.create(id=2, currency_id=1, chain_protocol="TRC20")
    await CurrencyProtocol.create(id=3, currency_id=2, chain_protocol="BTC")
    await CurrencyProtocol.create(id=6, currency_id=5, chain_protocol="XRP", uses_memo=True)
    user = await User.create(email="hmac@example.com", password_hash="x", invite_code="HMAC01")
    await DepositAddress.create(user=user, currency_protocol_id=2, address="T" + "h" * 33)
    await DepositAddress.create(user=user, currency_protocol_id=6, address="rHMAC", memo="10000001")
    # Written as the 0021 schema holds it: the model has the columns 0023 adds.
    await Tortoise.get_connection("default").execute_query(
        "INSERT INTO chain_deposits (tx_hash, user_id, currency_id, currency_protocol_id, address, memo, amount,"
        " confirmations, status, created_at, updated_at)"
        f" VALUES ('0xabc', {user.id}, 1, 2, '{'T' + 'h' * 33}', '', 5, 6, 1, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
    )


async def main(url: str) -> None:
    config = {"connections": {"default": url}, "apps": APPS, "use_tz": True, "timezone": "UTC"}
    try:
        await migrate(config=config, target=f"models.{BEFORE}")
        await Tortoise.init(config=config)
        await hmac_build_rows()
        await Tortoise.close_connections()
        await migrate(config=config)
        await Tortoise.init(config=config)
        # Two protocols of one user may now share the family's address (ETH and USDT on ERC20).
        await DepositAddress.create(user_id=1, currency_protocol_id=3, address="T" + "h" * 33)
        try:  # ... but one protocol still has one address per user
            await DepositAddress.create(user_id=1, currency_protocol_id=3, address="another")
            one_per_user = False
        except IntegrityError:
            one_per_user = True
        # 0023: the operator's deposit is on its protocol's chain, and the key is (chain, tx, output).
        legacy = await ChainDeposit.get(tx_hash="0xabc")
        await ChainDeposit.create(chain="TRC20", tx_hash="0xabc", output_index=1, user_id=1, currency_id=1,
                                  currency_protocol_id=2, address="T" + "h" * 33, amount=1)  # fmt: skip
        try:
            await ChainDeposit.create(chain="TRC20", tx_hash="0xabc", output_index=1, user_id=1, currency_id=1,
                                      currency_protocol_id=2, address="T" + "h" * 33, amount=1)  # fmt: skip
            one_per_output = False
        except IntegrityError:
            one_per_output = True
        print(json.dumps({
            "addresses": await DepositAddress.all().count(),
            "chain_deposits": await ChainDeposit.all().count(),
            "open": {c.code: [c.open_recharge, c.open_draw] for c in await Currency.all().order_by("id")},
            "hd": [await HdAddress.all().count(), await HdCounter.all().count()],
            "one_per_user": one_per_user,
            "legacy_deposit": [legacy.chain, legacy.output_index, legacy.block_hash, str(legacy.amount.normalize())],
            "one_per_output": one_per_output,
        }))  # fmt: skip
    finally:
        await Tortoise.close_connections()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
