"""The console's deposits (issue 16, finance): chain deposits listed with their state and user, and a
manual deposit credited through the user's wallet shard with a required reason and its audit row."""

from __future__ import annotations

import uuid
from decimal import Decimal

import httpx

from config.settings import Settings
from store.models import AuditLog
from tests.api.test_admin import make_operator, token_of
from tests.utils.cli import exchange_ok
from tests.utils.sales import get, post
from tests.utils.users import error, member, ok
from tests.utils.wallets import USDT, balance


async def test_finance_lists_chain_deposits_and_credits_a_manual_one(
    api: httpx.Client, settings: Settings, db: None
) -> None:
    op, secret = await make_operator("finance")
    auth = token_of(api, op, secret)
    alice = member(api)
    trc20 = ok(get(api, "wallet/wallet", params={"currency_id": USDT}, headers=alice.auth))[1]["address"]
    tx = f"0x{uuid.uuid4().hex}"
    exchange_ok(settings, "chain-deposit", trc20, "12.5", "--confirmations", "0", "--tx", tx)
    confirming = ok(get(api, "admin/deposits", params={"status": 0, "user_id": alice.uid}, headers=auth))
    assert confirming["total"] == 1
    row = confirming["data"][0]
    assert (row["tx_hash"], row["amount"], row["status_name"], row["account"]) == (
        tx,
        "12.5",
        "confirming",
        alice.account,
    )
    assert ok(get(api, "admin/deposits", params={"status": 1, "user_id": alice.uid}, headers=auth))["total"] == 0

    body = {"account": alice.account, "currency": "usdt", "amount": "250.75", "reason": "wire 4411, wrong memo"}
    credited = ok(post(api, "admin/deposits/credit", json=body, headers=auth))
    assert (credited["user_id"], credited["currency"], credited["amount"]) == (alice.uid, "USDT", "250.75")
    assert balance(api, alice, USDT) == (Decimal("250.75"), Decimal(0))
    trail = await AuditLog.get(action="deposit.manual", target=f"user:{alice.uid}")
    assert (trail.operator, trail.role, trail.reason) == (op.email, "finance", "wire 4411, wrong memo")
    assert trail.after["ref"] == credited["ref"] and trail.after["amount"] == "250.75"
    record = ok(get(api, "account_log/change", headers=alice.auth))["data"][0]
    assert record["value"] == "250.75"

    refusals = [
        ({**body, "amount": "0"}, 400, "Please enter the deposit amount"),
        ({**body, "amount": "1.123456789"}, 400, None),
        ({**body, "amount": "100000000000"}, 400, None),
        ({**body, "reason": ""}, 400, None),
        ({**body, "account": "nobody@nowhere.test"}, 404, None),
        ({**body, "currency": "NOPE"}, 404, None),
    ]
    for bad, status, message in refusals:
        said = error(post(api, "admin/deposits/credit", json=bad, headers=auth), status)
        assert message is None or said == message, (bad, said)
    assert balance(api, alice, USDT) == (Decimal("250.75"), Decimal(0))  # nothing else was credited
