"""The console's queues (issue 16): a support operator decides real-name reviews, finance decides
withdrawals (a large one needs a second operator), risk resolves P2P appeals; each decision is in the
audit trail; and every console route refuses every role but its own."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import httpx
import pytest

from config.settings import Settings
from store import withdrawals
from store.admin.operators import ROLES
from store.models import AuditLog, RealName, ReviewStatus, Withdrawal, WithdrawalStatus
from tests.api.test_admin import make_operator, token_of, two_finance
from tests.utils.cli import exchange
from tests.utils.p2p import LEGAL, act, legal_lock_matches, open_order, post_ad, trader
from tests.utils.p2p_api import image
from tests.utils.sales import get, post
from tests.utils.users import error, member, ok
from tests.utils.wallets import USDT, balance, fund


def call(api: httpx.Client, method: str, path: str, body: object, **kw: object) -> httpx.Response:
    return api.request(method, f"admin/{path}", json=body, **kw)  # type: ignore[arg-type]


ROUTES = [  # (method, path, body, the role it needs)
    ("GET", "real_names", None, "support"),
    ("POST", "real_names/decide", {"user_id": 1, "approve": True}, "support"),
    ("GET", "withdrawals", None, "finance"),
    ("POST", "withdrawals/decide", {"id": 1, "approve": False}, "finance"),
    ("GET", "p2p/appeals", None, "risk"),
    ("POST", "p2p/resolve", {"id": 1, "to": "buyer"}, "risk"),
    ("GET", "audit", None, "admin"),
    ("GET", "news", None, "content"),
    ("POST", "news/save", {"category_id": 999999, "title": "x"}, "content"),  # no such category: changes nothing
    ("POST", "news/delete", {"id": 999999}, "content"),
    ("GET", "settings", None, "content"),
    ("POST", "settings/save", {"key": "no_such_setting", "value": "x"}, "content"),
    ("POST", "users/freeze", {"user_id": 999999, "login": True}, "risk"),
    ("GET", "users", None, "support risk"),
    ("GET", "users/detail", None, "support risk"),  # no user_id: refused as bad input past the role check
    ("GET", "conservation", None, "finance"),
    ("GET", "deposits", None, "finance"),
    (
        "POST",
        "deposits/credit",
        {"account": "nobody@nowhere.test", "currency": "USDT", "amount": "1", "reason": "role check"},
        "finance",
    ),  # no such user: credits nothing
    ("GET", "deposits/credits", None, "finance"),
    ("POST", "deposits/credits/decide", {"id": 999999, "approve": False}, "finance"),  # no such credit
    ("GET", "pairs", None, "markets"),
    ("POST", "pairs/update", {"id": 999999, "open_change": True}, "markets"),
    ("GET", "placement", None, "markets"),
    ("POST", "placement/move", {"symbol": "NO/SUCHPAIR", "node": "node-1"}, "markets"),  # no such pair: moves nothing
    ("POST", "pairs/lever", {"id": 999999, "open_lever": True}, "markets"),  # no such pair: changes nothing
    ("POST", "pairs/micro", {"id": 999999, "open_microtrade": True}, "markets"),
    ("GET", "currencies", None, "markets"),
    ("POST", "currencies/update", {"id": 999999, "open_draw": True}, "markets"),  # no such currency
    ("GET", "products", None, "products"),
    ("GET", "products/kinds", None, "products"),
    ("POST", "products/create", {"kind": "lock", "values": {"name": "role check"}}, "products"),  # too few fields
    ("POST", "products/edit", {"kind": "lock", "id": 999999, "values": {"name": "x"}}, "products"),  # no such product
    ("POST", "products/open", {"kind": "sale", "id": 999999}, "products"),
    ("POST", "products/close", {"kind": "sale", "id": 999999}, "products"),
    ("GET", "dashboard", None, "support finance risk content markets products admin"),
    ("GET", "chain", None, "finance"),
    ("GET", "sms/messages", None, "support risk"),
    ("GET", "sms/ceilings", None, "risk"),
    ("POST", "sms/ceilings/save", {"region": "ZZ", "per_minute": -1}, "risk"),  # refused past the role check
]


SESSION_ROUTES = {"POST login", "POST logout", "GET me", "GET enrolment", "POST password"}  # any operator's own


def test_the_role_table_covers_every_console_route(api: httpx.Client) -> None:
    documented = {f"{method.upper()} {path.removeprefix('/api/admin/')}"
                  for path, item in api.get("openapi.json").json()["paths"].items() if path.startswith("/api/admin/")
                  for method in item}  # fmt: skip
    assert documented - SESSION_ROUTES == {f"{method} {path}" for method, path, _, _ in ROUTES}


@pytest.mark.parametrize("holder", ROLES)
async def test_every_route_refuses_every_other_role(api: httpx.Client, db: None, holder: str) -> None:
    op, secret = await make_operator(holder)
    auth = token_of(api, op, secret)
    for method, path, body, needed in ROUTES:
        answer = call(api, method, path, body, headers=auth)
        if holder in needed.split():
            assert answer.status_code != 403, (path, answer.text)
        else:
            assert error(answer, 403) == "Your role does not allow this", path
        assert error(call(api, method, path, body), 401, code=999)  # no session at all


async def test_support_decides_real_name_reviews(api: httpx.Client, db: None) -> None:
    op, secret = await make_operator("support")
    auth = token_of(api, op, secret)
    users = [member(api) for _ in range(2)]
    for u in users:
        await RealName.create(user_id=u.uid, name="Test Person", card_id=f"ID{u.uid}", front_pic="/a", reverse_pic="/b",
                              hand_pic="/c", review_status=ReviewStatus.UNDER_REVIEW)  # fmt: skip
    queue = ok(get(api, "admin/real_names", headers=auth))["list"]
    assert {u.uid for u in users} <= {r["user_id"] for r in queue}
    assert [r["images"] for r in queue if r["user_id"] == users[0].uid] == [["/a", "/b", "/c"]]
    ok(post(api, "admin/real_names/decide", json={"user_id": users[0].uid, "approve": True}, headers=auth))
    body = {"user_id": users[1].uid, "approve": False, "reason": "the photo is blurred"}
    ok(post(api, "admin/real_names/decide", json=body, headers=auth))
    assert error(post(api, "admin/real_names/decide", json=body, headers=auth), 404)  # decided already
    assert (await RealName.get(user_id=users[0].uid)).review_status == ReviewStatus.APPROVED
    rejected = await RealName.get(user_id=users[1].uid)
    assert (rejected.review_status, rejected.reject_reason) == (ReviewStatus.NOT_SUBMITTED, "the photo is blurred")
    row = await AuditLog.get(action="real_name.reject", target=f"user:{users[1].uid}")
    assert (row.operator, row.role, row.reason) == (op.email, "support", "the photo is blurred")


async def _request(uid: int, amount: str) -> int:
    """A pending withdrawal of ``amount`` USDT (fee 1) by a funded user: its id."""
    return await withdrawals.request(uid=uid, currency_id=USDT, protocol_id=2, address="T" + "a" * 33, memo="",
                                     amount=Decimal(amount), fee=Decimal(1), ref=f"adm-{uuid.uuid4().hex}",
                                     confirmations=6)  # fmt: skip


async def _requested(api: httpx.Client, amount: str) -> tuple[int, int]:
    """A user with a pending withdrawal of ``amount`` USDT (fee 1): (user id, withdrawal id)."""
    user = member(api)
    await fund(user, "USDT", str(Decimal(amount) + 5))
    return user.uid, await _request(user.uid, amount)


def _decide(api: httpx.Client, wid: int, auth: dict[str, str], approve: bool = True) -> httpx.Response:
    return post(
        api, "admin/withdrawals/decide", json={"id": wid, "approve": approve, "reason": "checked"}, headers=auth
    )


async def test_finance_decides_withdrawals_and_a_large_one_needs_two(api: httpx.Client, db: None) -> None:
    first, s1 = await make_operator("finance")
    second, s2 = await make_operator("finance")
    a1, a2 = token_of(api, first, s1), token_of(api, second, s2)
    _, small = await _requested(api, "100")
    _, refused = await _requested(api, "50")
    _, large = await _requested(api, "20000")
    queue = {w["id"]: w for w in ok(get(api, "admin/withdrawals", headers=a1))["list"]}
    assert (queue[small]["needs_two"], queue[large]["needs_two"]) == (False, True)
    assert ok(post(api, "admin/withdrawals/decide", json={"id": small, "approve": True}, headers=a1))["status"] == 4
    body = {"id": refused, "approve": False, "reason": "address on a sanctions list"}
    assert ok(post(api, "admin/withdrawals/decide", json=body, headers=a1))["status"] == 3
    assert error(post(api, "admin/withdrawals/decide", json=body, headers=a1), 409)

    waiting = ok(post(api, "admin/withdrawals/decide", json={"id": large, "approve": True}, headers=a1))
    assert waiting["waiting_for_second_approval"] is True
    again = ok(post(api, "admin/withdrawals/decide", json={"id": large, "approve": True}, headers=a1))
    assert again["waiting_for_second_approval"] is True  # the same operator twice is still one
    assert (await Withdrawal.get(id=large)).status == WithdrawalStatus.PENDING
    done = ok(post(api, "admin/withdrawals/decide", json={"id": large, "approve": True}, headers=a2))
    assert (done["status"], done["waiting_for_second_approval"]) == (4, False)  # approved: the Signer sends
    trail = await AuditLog.filter(target=f"withdrawal:{large}").order_by("id").values_list("action", "operator")
    assert trail == [("withdrawal.approve_first", first.email), ("withdrawal.approve", second.email)]


async def test_withdrawals_split_under_the_threshold_within_a_day_need_a_second_operator(
    api: httpx.Client, db: None
) -> None:
    _, _, a1, a2 = await two_finance(api)
    alice = member(api)
    await fund(alice, "USDT", "40000")
    older = await _request(alice.uid, "9000")  # more than a day before the others: outside their window
    await Withdrawal.filter(id=older).update(created_at=datetime.now(UTC) - timedelta(hours=25))
    assert ok(_decide(api, older, a1))["status"] == 4
    refused = await _request(alice.uid, "5000")  # rejected: its funds came back, it counts for nothing
    assert ok(_decide(api, refused, a1, approve=False))["status"] == 3
    parts = [await _request(alice.uid, "4000") for _ in range(3)]  # 12,000 in all, each under 10,000

    queue = {w["id"]: w for w in ok(get(api, "admin/withdrawals", params={"user_id": alice.uid}, headers=a1))["list"]}
    assert set(queue) == set(parts)  # only alice's pending ones
    shown = [(queue[p]["usd"], queue[p]["usd_24h"], queue[p]["needs_two"]) for p in parts]
    assert shown == [("4000", "4000", False), ("4000", "8000", False), ("4000", "12000", True)]
    assert queue[parts[2]]["second_approval_usd"] == "10000"  # the rule the screen explains
    assert ok(_decide(api, parts[0], a1))["status"] == 4
    assert ok(_decide(api, parts[1], a1))["status"] == 4
    waiting = ok(_decide(api, parts[2], a1))
    assert (waiting["status"], waiting["waiting_for_second_approval"]) == (1, True)
    assert ok(_decide(api, parts[2], a1))["waiting_for_second_approval"] is True  # the same operator again
    assert ok(_decide(api, parts[2], a2))["status"] == 4
    # Approved, all four: locked until their transactions are final on the chain (the Signer's part).
    assert balance(api, alice, USDT) == (Decimal(40000 - 9000 - 12000), Decimal(9000 + 12000))


async def test_a_withdrawal_freeze_set_after_the_request_blocks_its_approval(
    api: httpx.Client, settings: Settings, db: None
) -> None:
    _, _, a1, a2 = await two_finance(api)
    risk, s3 = await make_operator("risk")
    ra = token_of(api, risk, s3)
    alice = member(api)
    await fund(alice, "USDT", "20100")
    small, large = await _request(alice.uid, "100"), await _request(alice.uid, "20000")
    assert ok(_decide(api, large, a1))["waiting_for_second_approval"] is True  # first approval before the freeze
    body = {"user_id": alice.uid, "withdrawals": True, "reason": "account takeover reported"}
    ok(post(api, "admin/users/freeze", json=body, headers=ra))

    message = "This user's withdrawals are frozen: reject the request, or unfreeze them first"
    assert error(_decide(api, small, a1), 409) == message
    assert error(_decide(api, large, a2), 409) == message  # the second approval too
    refused = exchange(settings, "withdrawal", "approve", str(small))  # and the command
    assert refused.returncode == 1 and message in refused.stderr, refused.stderr
    assert {w.id: w.status for w in await Withdrawal.filter(id__in=[small, large])} == {
        small: WithdrawalStatus.PENDING,
        large: WithdrawalStatus.PENDING,
    }
    assert balance(api, alice, USDT) == (Decimal(0), Decimal(20100))
    queue = {w["id"]: w for w in ok(get(api, "admin/withdrawals", params={"user_id": alice.uid}, headers=a1))["list"]}
    assert queue[small]["withdraw_frozen"] is True  # the screen says why before anyone clicks

    assert ok(_decide(api, small, a1, approve=False))["status"] == 3  # rejecting stays possible: the funds return
    assert balance(api, alice, USDT) == (Decimal(100), Decimal(20000))
    ok(post(api, "admin/users/freeze", json={**body, "withdrawals": False}, headers=ra))
    assert ok(_decide(api, large, a2))["status"] == 4
    assert balance(api, alice, USDT) == (Decimal(100), Decimal(20000))  # locked until final on the chain


async def test_risk_resolves_a_p2p_appeal(api: httpx.Client, db: None) -> None:
    op, secret = await make_operator("risk")
    auth = token_of(api, op, secret)
    merchant = await trader(api, legal={"USDT": "500"}, merchant=True)
    buyer = await trader(api)
    order = ok(open_order(api, buyer, post_ad(api, merchant, total="300")["id"], "100"))
    ok(act(api, buyer, "paid", order["id"]))
    ok(act(api, merchant, "appeal", order["id"], reason="no money arrived on my account"))
    receipt = image(api, buyer)
    ok(act(api, buyer, "reply", order["id"], reason="I paid by bank transfer, see the receipt", images=[receipt]))
    queue = ok(get(api, "admin/p2p/appeals", headers=auth))["list"]
    (mine,) = [o for o in queue if o["id"] == order["id"]]
    reply = mine["appeal"].pop("reply")  # both sides' evidence, side by side
    assert mine["appeal"] == {"by": "seller", "reason": "no money arrived on my account", "images": []}
    assert (reply["reason"], reply["images"]) == ("I paid by bank transfer, see the receipt", [receipt])
    body = {"id": order["id"], "to": "seller", "note": "the buyer showed no payment"}
    assert ok(post(api, "admin/p2p/resolve", json=body, headers=auth))["state"] == 4
    assert error(post(api, "admin/p2p/resolve", json=body, headers=auth), 409)
    assert balance(api, merchant, USDT, LEGAL) == (Decimal(300), Decimal(200))  # 100 back; 200 still for sale
    assert await legal_lock_matches() == {}
    row = await AuditLog.get(action="p2p.resolve", target=f"p2p_order:{order['id']}")
    assert (row.operator, row.reason, row.after["resolved_to"]) == (op.email, "the buyer showed no payment", "seller")


async def test_the_conservation_audit_sees_money_come_and_go_and_nothing_else(api: httpx.Client, db: None) -> None:
    finance, secret = await make_operator("finance")
    auth = token_of(api, finance, secret)

    def usdt() -> dict[str, str]:
        (line,) = [c for c in ok(get(api, "admin/conservation", headers=auth)) if c["currency"] == "USDT"]
        return line

    before = usdt()
    merchant = await trader(api, legal={"USDT": "400"}, merchant=True)  # a deposit of 400
    buyer = await trader(api)
    order = ok(open_order(api, buyer, post_ad(api, merchant, total="300")["id"], "100"))
    ok(act(api, buyer, "paid", order["id"]))
    ok(act(api, merchant, "release", order["id"]))
    _, wid = await _requested(api, "60")  # a deposit of 65, then a withdrawal of 60 approved
    ok(post(api, "admin/withdrawals/decide", json={"id": wid, "approve": True}, headers=auth))
    # Its transaction final on the chain (the Signer's part: tests/chain/test_sends.py): the 60 leave.
    assert await withdrawals.complete(await Withdrawal.get(id=wid), txid=f"tx-{wid}")
    after = usdt()
    assert Decimal(after["deposits"]) - Decimal(before["deposits"]) == Decimal(465)
    assert Decimal(after["withdrawals"]) - Decimal(before["withdrawals"]) == Decimal(60)
    assert after["difference"] == before["difference"]  # the P2P trade created and lost nothing
    assert Decimal(after["total"]) - Decimal(before["total"]) == Decimal(405)
