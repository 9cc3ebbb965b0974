"""The console's deposits (issue 16, finance): chain deposits listed with their state and user, and a
manual deposit credited through the user's wallet shard with a required reason and its audit row."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

import httpx

from config.settings import Settings
from store.models import AuditLog
from tests.api.test_admin import make_operator, token_of, two_finance
from tests.utils.chains import Deposit
from tests.utils.sales import get, post
from tests.utils.users import error, member, ok
from tests.utils.wallets import USDT, balance


async def test_finance_lists_chain_deposits_and_credits_a_manual_one(
    api: httpx.Client, settings: Settings, db: None, deposit_evm: Deposit, confirmations_of: Any
) -> None:
    op, secret = await make_operator("finance")
    auth = token_of(api, op, secret)
    alice = member(api)
    erc20 = ok(get(api, "wallet/wallet", params={"currency_id": USDT}, headers=alice.auth))[0]["address"]
    await confirmations_of("USDT", 2)  # one block: seen, still confirming
    tx = await deposit_evm(erc20, "12.5", "USDT")
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

    body = {"account": alice.account, "currency": "usdt", "amount": "250.75", "reason": "wire 4411, wrong memo",
            "ref": f"wire-4411-{uuid.uuid4().hex}"}  # fmt: skip
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
        ({**body, "ref": ""}, 400, None),
        ({**body, "account": "nobody@nowhere.test"}, 404, None),
        ({**body, "currency": "NOPE"}, 404, None),
    ]
    for bad, status, message in refusals:
        said = error(post(api, "admin/deposits/credit", json=bad, headers=auth), status)
        assert message is None or said == message, (bad, said)
    assert balance(api, alice, USDT) == (Decimal("250.75"), Decimal(0))  # nothing else was credited


def _credit(api: httpx.Client, auth: dict[str, str], account: str, amount: str, ref: str) -> httpx.Response:
    body = {"account": account, "currency": "USDT", "amount": amount, "reason": "bank wire", "ref": ref}
    return post(api, "admin/deposits/credit", json=body, headers=auth)


def _decide(api: httpx.Client, auth: dict[str, str], credit_id: int, approve: bool) -> httpx.Response:
    body = {"id": credit_id, "approve": approve, "reason": "wire seen on the statement"}
    return post(api, "admin/deposits/credits/decide", json=body, headers=auth)


async def test_a_manual_credit_above_the_threshold_waits_for_a_second_finance_operator(
    api: httpx.Client, db: None
) -> None:
    first, second, a1, a2 = await two_finance(api)
    alice = member(api)
    at_threshold = ok(_credit(api, a1, alice.account, "1000", f"w-{uuid.uuid4().hex}"))  # 1,000 USD: at once
    assert (at_threshold["status_name"], at_threshold["waiting_for_second_approval"]) == ("credited", False)
    assert balance(api, alice, USDT) == (Decimal(1000), Decimal(0))

    ref = f"w-{uuid.uuid4().hex}"
    asked = ok(_credit(api, a1, alice.account, "1000000", ref))  # one operator cannot mint a million
    assert (asked["status_name"], asked["waiting_for_second_approval"], asked["usd"]) == ("pending", True, "1000000")
    assert balance(api, alice, USDT) == (Decimal(1000), Decimal(0))
    listed = ok(get(api, "admin/deposits/credits", params={"status": 1, "user_id": alice.uid}, headers=a2))
    (row,) = [c for c in listed["list"] if c["id"] == asked["id"]]
    assert (row["requested_by"], row["amount"], row["ref"], row["account"]) == (first.email, "1000000", ref,
                                                                                 alice.account)  # fmt: skip
    assert listed["credit_second_approval_usd"] == "1000"  # the rule the screen explains

    said = error(_decide(api, a1, asked["id"], True), 403)
    assert said == "Another finance operator must approve this: you requested it"
    assert balance(api, alice, USDT) == (Decimal(1000), Decimal(0))
    done = ok(_decide(api, a2, asked["id"], True))
    assert (done["status_name"], done["decided_by"]) == ("credited", second.email)
    assert balance(api, alice, USDT) == (Decimal(1001000), Decimal(0))
    assert error(_decide(api, a2, asked["id"], True), 409) == "This credit has already been decided"
    assert error(_decide(api, a1, asked["id"], False), 409)
    assert balance(api, alice, USDT) == (Decimal(1001000), Decimal(0))  # credited once
    trail = await AuditLog.filter(target=f"user:{alice.uid}", action__startswith="deposit.").order_by("id")
    assert [(r.action, r.operator) for r in trail] == [
        ("deposit.manual", first.email),
        ("deposit.manual_request", first.email),
        ("deposit.manual_approve", second.email),
    ]

    rejected = ok(_credit(api, a1, alice.account, "5000", f"w-{uuid.uuid4().hex}"))
    assert ok(_decide(api, a2, rejected["id"], False))["status_name"] == "rejected"
    assert error(_decide(api, a2, rejected["id"], True), 409)
    assert balance(api, alice, USDT) == (Decimal(1001000), Decimal(0))


async def test_a_manual_credit_is_idempotent_by_its_reference(api: httpx.Client, db: None) -> None:
    op, secret = await make_operator("finance")
    auth = token_of(api, op, secret)
    alice, bob = member(api), member(api)
    ref = f"tx-{uuid.uuid4().hex}"
    first = ok(_credit(api, auth, alice.account, "250", ref))
    again = ok(_credit(api, auth, alice.account, "250", ref))  # the same wire typed twice: the first answer
    assert (again["id"], again["status_name"]) == (first["id"], "credited")
    assert balance(api, alice, USDT) == (Decimal(250), Decimal(0))
    message = f"The reference {ref} was already used for another credit"
    assert error(_credit(api, auth, alice.account, "251", ref), 409) == message
    assert error(_credit(api, auth, bob.account, "250", ref), 409) == message
    assert balance(api, alice, USDT) == (Decimal(250), Decimal(0))
    assert balance(api, bob, USDT) == (Decimal(0), Decimal(0))

    large = f"tx-{uuid.uuid4().hex}"
    pending = ok(_credit(api, auth, alice.account, "50000", large))
    assert ok(_credit(api, auth, alice.account, "50000", large))["id"] == pending["id"]
    listed = ok(get(api, "admin/deposits/credits", params={"status": 1, "user_id": alice.uid}, headers=auth))["list"]
    assert [c["id"] for c in listed if c["ref"] == large] == [pending["id"]]  # one request, not two
    assert await AuditLog.filter(action="deposit.manual_request", target=f"user:{alice.uid}").count() == 1
