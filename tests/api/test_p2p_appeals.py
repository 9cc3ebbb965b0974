"""P2P appeals and their resolution (CLI and store), the operator's audit and merchant commands, each
side's lists and order page, and the LEGAL_ORDER push of every transition to both sides."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from tortoise.expressions import F
from websockets.asyncio.client import connect

from config.settings import Settings
from serve.stack import Stack
from store.errors import DomainError, ErrorCode
from store.models import (
    Account,
    AccountType,
    AuditLog,
    P2PEvent,
)
from store.p2p import orders
from store.times import now_ms
from tests.utils.cli import exchange, exchange_ok
from tests.utils.p2p import (
    act,
    apply_merchant,
    detail,
    legal_lock_matches,
    open_order,
    post_ad,
    trader,
)
from tests.utils.p2p_api import (
    MINUTE_MS,
    NOT_PAID,
    Clocks,
    D,
    image,
    legal,
    my_ads,
    order_list,
    refs,
    state_of,
    steady,
)
from tests.utils.push import next_of
from tests.utils.sales import get
from tests.utils.users import error, ok
from tests.utils.wallets import USDT, system_totals

# --- appeals and their resolution -------------------------------------------------------------------


async def test_an_appeal_holds_the_escrow_and_checks_its_reason_and_images(api: httpx.Client, db: None) -> None:
    merchant = await trader(api, legal={"USDT": "1000"}, merchant=True)
    buyer, stranger = await trader(api), await trader(api)
    before = await system_totals()
    ad = post_ad(api, merchant)
    order = ok(open_order(api, buyer, ad["id"], "100"))
    assert (
        error(act(api, buyer, "paid", order["id"], proof=image(api, stranger)), 400) == "Please upload the image again"
    )
    assert error(act(api, buyer, "paid", order["id"], proof="/api/uploads/nothing.png"), 400) == (
        "Please upload the image again"
    )
    proof = image(api, buyer)
    paid = act(api, buyer, "paid", order["id"], proof=proof)
    assert paid.json()["msg"] == "Marked as paid: waiting for the seller to release"
    assert (ok(paid)["proof"], ok(paid)["state"], ok(paid)["paid_ms"] is not None) == (proof, 2, True)

    reason = "Describe the problem in 10 to 500 characters"
    for bad in ("too short", " " * 20 + "short", "x" * 501):
        assert error(act(api, buyer, "appeal", order["id"], reason=bad), 400) == reason
    mine = [image(api, buyer) for _ in range(4)]
    assert error(act(api, buyer, "appeal", order["id"], images=mine), 400) == "Attach at most 3 images"
    assert error(act(api, buyer, "appeal", order["id"], images=[mine[0], image(api, merchant)]), 400) == (
        "Please upload the image again"
    )
    assert await state_of(order["id"]) == 2
    appealed = act(api, buyer, "appeal", order["id"], reason="  I paid but nothing was released  ", images=mine[:3])
    assert appealed.json()["msg"] == "Appeal submitted: an operator will review it"
    seen = ok(appealed)
    assert (seen["state"], seen["state_name"], seen["actions"]) == (5, "In appeal", [])
    assert seen["appeal"] == {"by": "buyer", "reason": "I paid but nothing was released", "images": mine[:3],
                              "reply": None}  # fmt: skip
    assert seen["events"][-1]["note"] == "I paid but nothing was released"
    assert detail(api, merchant, order["id"])["appeal"]["by"] == "buyer"
    assert error(act(api, merchant, "appeal", order["id"]), 409) == NOT_PAID  # once
    assert legal(api, merchant) == (D(0), D(1000)) and legal(api, buyer) == (D(0), D(0))  # the escrow stays
    await steady(before)

    second = ok(open_order(api, buyer, ad["id"], "50"))
    ok(act(api, buyer, "paid", second["id"]))
    by_seller = ok(act(api, merchant, "appeal", second["id"], reason="the money never arrived here"))
    assert by_seller["appeal"] == {"by": "seller", "reason": "the money never arrived here", "images": [],
                                   "reply": None}  # fmt: skip
    await steady(before)


async def test_the_other_side_answers_an_appeal_once_with_its_evidence(api: httpx.Client, db: None) -> None:
    merchant = await trader(api, legal={"USDT": "1000"}, merchant=True)
    buyer, stranger = await trader(api), await trader(api)
    ad = post_ad(api, merchant)
    order = ok(open_order(api, buyer, ad["id"], "100"))
    ok(act(api, buyer, "paid", order["id"]))
    statement = "I released nothing because no transfer reached my bank account"
    not_yet = "The order is not in appeal"
    assert error(act(api, merchant, "reply", order["id"], reason=statement), 409) == not_yet
    ok(act(api, buyer, "appeal", order["id"], reason="I paid but nothing was released"))
    assert detail(api, merchant, order["id"])["actions"] == ["reply"]
    assert detail(api, buyer, order["id"])["actions"] == []  # the side that appealed does not answer itself
    assert error(act(api, buyer, "reply", order["id"], reason=statement), 409) == (
        "Only the other side can answer this appeal; add to it by contacting support"
    )
    assert error(act(api, stranger, "reply", order["id"], reason=statement), 404) == "Order not found"
    assert error(act(api, merchant, "reply", order["id"], reason="short"), 400) == (
        "Describe the problem in 10 to 500 characters"
    )
    assert error(act(api, merchant, "reply", order["id"], reason=statement, images=[image(api, buyer)]), 400) == (
        "Please upload the image again"
    )
    statement_image = image(api, merchant)
    answered = act(api, merchant, "reply", order["id"], reason=f"  {statement} ", images=[statement_image])
    assert answered.json()["msg"] == "Your answer is with the appeal: an operator will review both"
    seen = ok(answered)
    assert seen["state"] == 5 and seen["actions"] == []  # still in appeal; answered once
    reply = seen["appeal"]["reply"]
    assert (reply["reason"], reply["images"], reply["at_ms"] > 0) == (statement, [statement_image], True)
    assert detail(api, buyer, order["id"])["appeal"]["reply"] == reply  # both sides read it
    assert error(act(api, merchant, "reply", order["id"], reason=statement), 409) == (
        "You have already answered this appeal"
    )
    assert await legal_lock_matches() == {}  # an answer moves no money


async def test_an_operator_resolves_appeals_from_the_cli_and_the_store(api: httpx.Client, settings: Settings,
                                                                      db: None) -> None:  # fmt: skip
    merchant = await trader(api, legal={"USDT": "1000"}, merchant=True)
    buyer, taker = await trader(api), await trader(api, legal={"USDT": "100"})
    before = await system_totals()
    sell, buy = post_ad(api, merchant), post_ad(api, merchant, side=2, total="500")
    appealed: dict[str, int] = {}
    for name, ad_id, who_buys, who_sells, method in (("to_buyer", sell["id"], buyer, merchant, "alipay"),
                                                    ("to_seller", sell["id"], buyer, merchant, "alipay"),
                                                    ("buy_ad", buy["id"], merchant, taker, "bank")):  # fmt: skip
        opener = buyer if ad_id == sell["id"] else taker
        order = ok(open_order(api, opener, ad_id, "30", method))
        ok(act(api, who_buys, "paid", order["id"]))
        ok(act(api, who_sells, "appeal", order["id"], reason=f"appeal {name}: not received"))
        appealed[name] = order["id"]

    listing = exchange_ok(settings, "p2p", "appeals")
    for name, order_id in appealed.items():
        assert f"\n{order_id}\tappeal\t" in "\n" + listing
        assert f"appeal {name}: not received" in listing
    assert "unpaid -> paid by buyer" in listing and "paid -> appeal by seller" in listing
    assert str(appealed["to_buyer"]) in exchange_ok(settings, "p2p", "orders", "--state", "5")

    out = exchange_ok(settings, "p2p", "resolve", str(appealed["to_buyer"]), "buyer", "--note", "bank statement seen",
                      "--operator", "risk-ana")  # fmt: skip
    assert out.strip() == f"order {appealed['to_buyer']}: completed (resolved to the buyer)"
    done = detail(api, buyer, appealed["to_buyer"])
    assert (done["state"], done["resolved_to"], done["events"][-1]["by"], done["events"][-1]["note"]) == (
        3, "buyer", "operator", "bank statement seen")  # fmt: skip
    assert (await P2PEvent.get(order_id=appealed["to_buyer"], to_state=3)).actor == "risk-ana"
    assert await AuditLog.filter(action="p2p.resolve", target=f"p2p_order:{appealed['to_buyer']}").exists()
    assert legal(api, buyer) == (D(30), D(0))
    await steady(before)

    again = exchange(settings, "p2p", "resolve", str(appealed["to_buyer"]), "seller")
    assert (again.returncode, again.stderr.strip()) == (1, "error: The order is not in appeal")
    unknown = exchange(settings, "p2p", "resolve", "999999999", "buyer")
    assert (unknown.returncode, unknown.stderr.strip()) == (1, "error: Order not found")
    nobody = exchange(settings, "p2p", "resolve", str(appealed["to_seller"]), "nobody")
    assert nobody.returncode == 2 and "buyer or seller" in nobody.stderr
    await steady(before)

    resolved = await orders.resolve(appealed["to_seller"], "seller", "risk-bo", now_ms(), "no payment found")
    assert (resolved.state, resolved.cancel_kind, resolved.resolved_to, resolved.resolved_by) == (
        4, "appeal", "seller", "risk-bo")  # fmt: skip
    assert await refs(appealed["to_seller"]) == [f"p2p{appealed['to_seller']}:refund"]  # to the balance, not the ad
    ads = my_ads(api, merchant)
    assert (ads[sell["id"]]["stock"], ads[sell["id"]]["total"], ads[sell["id"]]["sold"]) == ("940", "970", "30")
    assert legal(api, merchant) == (D(30), D(940))
    with pytest.raises(DomainError) as refused:
        await orders.resolve(appealed["to_seller"], "buyer", "risk-bo", now_ms())
    assert refused.value.code == ErrorCode.P2P_NOT_IN_APPEAL
    await steady(before)

    await orders.resolve(appealed["buy_ad"], "seller", "risk-bo", now_ms())  # the taker sold: coins back to them
    assert legal(api, taker) == (D(100), D(0))
    assert my_ads(api, merchant)[buy["id"]]["stock"] == "470"  # a buy ad's stock is not restored either
    await steady(before)
    left = "\n" + exchange_ok(settings, "p2p", "appeals")
    assert all(f"\n{order_id}\t" not in left for order_id in appealed.values())


async def test_the_audit_command_finds_a_lock_that_differs(api: httpx.Client, settings: Settings, db: None) -> None:
    merchant = await trader(api, legal={"USDT": "100"}, merchant=True)
    post_ad(api, merchant, total="100")
    assert exchange_ok(settings, "p2p", "audit").strip() == "ok: every legal lock equals its escrow and ad stock"

    def account() -> Any:
        return Account.filter(user_id=merchant.uid, currency_id=USDT, account_type=AccountType.LEGAL)

    await account().update(lock_balance=F("lock_balance") + 1)  # what no P2P step would do
    try:
        found = exchange(settings, "p2p", "audit")
        assert found.returncode == 1
        assert found.stdout.strip() == f"user {merchant.uid} currency {USDT}: lock 101 but P2P holds 100"
    finally:
        await account().update(lock_balance=F("lock_balance") - 1)
    assert await legal_lock_matches() == {}


async def test_merchant_commands_list_approve_and_reject(api: httpx.Client, settings: Settings, db: None) -> None:
    alice, bob = await trader(api), await trader(api)
    ok(apply_merchant(api, alice, f"alice-{alice.uid}"))
    ok(apply_merchant(api, bob, f"bob-{bob.uid}"))
    rows = {line.split("\t")[0]: line.split("\t") for line in exchange_ok(settings, "merchant", "list").splitlines()}
    assert rows[str(alice.uid)][1:5] == [alice.account, f"alice-{alice.uid}", "pending", "-"]

    out = exchange_ok(settings, "merchant", "approve", alice.account, "--operator", "ops-eve")
    assert out.strip() == f"user {alice.uid} (alice-{alice.uid}): merchant approved"
    assert ok(get(api, "merchant/info", headers=alice.auth))["is_seller"] is True
    again = exchange(settings, "merchant", "approve", str(alice.uid))
    assert (again.returncode, again.stderr.strip()) == (1, "error: There is no pending merchant application")
    out = exchange_ok(settings, "merchant", "reject", str(bob.uid), "--reason", "the nickname is misleading")
    assert out.strip() == f"user {bob.uid} (bob-{bob.uid}): merchant rejected"
    info = ok(get(api, "merchant/info", headers=bob.auth))
    assert (info["status"], info["reject_reason"], info["is_seller"]) == (2, "the nickname is misleading", False)
    rows = {line.split("\t")[0]: line.split("\t") for line in exchange_ok(settings, "merchant", "list").splitlines()}
    assert rows[str(alice.uid)][3:5] == ["approved", "ops-eve"]
    assert (rows[str(bob.uid)][3], rows[str(bob.uid)][5]) == ("rejected", "the nickname is misleading")
    missing = exchange(settings, "merchant", "approve", "nobody-here@example.com")
    assert (missing.returncode, missing.stderr.strip()) == (1, "error: no user 'nobody-here@example.com'")
    assert await AuditLog.filter(action="merchant.approve", target=f"user:{alice.uid}").exists()


# --- lists, the order page and the push -------------------------------------------------------------

DETAIL_KEYS = {
    "id", "ad_id", "state", "state_name", "side", "role", "is_merchant", "currency_id", "currency", "fiat", "price",
    "amount", "total", "pay_method", "pay_details", "counterparty", "created_ms", "deadline_ms", "remain_ms",
    "paid_ms", "ended_ms", "cancel_kind", "proof", "appeal", "resolved_to", "actions", "events",
}  # fmt: skip


async def test_each_side_reads_its_lists_and_the_order_page(api: httpx.Client, db: None) -> None:
    merchant = await trader(api, name="Zhang Wei", legal={"USDT": "1000"}, merchant=True)
    other = await trader(api, legal={"USDT": "100"}, merchant=True)
    buyer = await trader(api, name="王小明")
    ad = post_ad(api, merchant)
    first = ok(open_order(api, buyer, ad["id"], "100", "bank"))
    ok(act(api, buyer, "paid", first["id"]))
    ok(act(api, merchant, "release", first["id"]))
    second = ok(open_order(api, buyer, ad["id"], "20"))
    elsewhere = ok(open_order(api, merchant, post_ad(api, other, total="100")["id"], "20"))  # the merchant as taker

    page = detail(api, buyer, second["id"])
    assert DETAIL_KEYS <= set(page)
    assert {k: page[k] for k in ("state", "state_name", "side", "role", "is_merchant", "currency", "fiat", "price",
                                 "amount", "total", "pay_method", "pay_method_name", "paid_ms", "ended_ms",
                                 "cancel_kind", "proof", "appeal", "resolved_to", "actions")} == {
        "state": 1, "state_name": "Unpaid", "side": 1, "role": "buyer", "is_merchant": False, "currency": "USDT",
        "fiat": "CNY", "price": "7.2", "amount": "20", "total": "144", "pay_method": "alipay",
        "pay_method_name": "Alipay", "paid_ms": None, "ended_ms": None, "cancel_kind": "", "proof": "",
        "appeal": None, "resolved_to": "", "actions": ["paid", "cancel"]}  # fmt: skip
    assert page["counterparty"] == {"name": "Z*** Wei", "nickname": f"m{merchant.uid}"}
    assert page["pay_details"] == {"real_name": "Zhang Wei", "account": "pay@example.com", "qrcode": ""}
    assert page["events"] == [{"seq": 1, "from_state": 0, "to_state": 1, "by": "buyer", "at_ms": page["created_ms"],
                               "note": ""}]  # fmt: skip
    assert 0 < page["remain_ms"] <= 15 * MINUTE_MS
    theirs = detail(api, merchant, second["id"])
    assert (theirs["role"], theirs["is_merchant"], theirs["counterparty"], theirs["actions"]) == (
        "seller", True, {"name": "王**", "nickname": ""}, [])  # fmt: skip
    done = detail(api, merchant, first["id"])
    assert (done["state_name"], done["pay_method_name"], done["pay_details"]["card_no"]) == ("Completed", "Bank card",
                                                                                          "6222000011112222")  # fmt: skip
    assert [e["to_state"] for e in done["events"]] == [1, 2, 3] and done["remain_ms"] == 0

    taken = order_list(api, buyer, "legal/orders")
    assert [o["id"] for o in taken] == [second["id"], first["id"]]  # newest first
    assert (taken[0]["role"], taken[0]["state_name"], taken[0]["remain_ms"] > 0) == ("buyer", "Unpaid", True)
    assert [o["id"] for o in order_list(api, buyer, "legal/orders", 3)] == [first["id"]]
    assert order_list(api, buyer, "legal/orders", 5) == [] and order_list(api, buyer, "shop/orders") == []
    on_mine = order_list(api, merchant, "shop/orders")
    assert [o["id"] for o in on_mine] == [second["id"], first["id"]] and on_mine[0]["role"] == "seller"
    assert [o["id"] for o in order_list(api, merchant, "legal/orders")] == [elsewhere["id"]]
    assert [o["id"] for o in order_list(api, merchant, "shop/orders", 1)] == [second["id"]]
    assert [o["id"] for o in order_list(api, other, "shop/orders")] == [elsewhere["id"]]
    assert error(get(api, "legal/orders", params={"state": 6}, headers=buyer.auth), 400)
    assert error(get(api, "legal/orders", params={"page": 0}, headers=buyer.auth), 400)
    many = ok(get(api, "legal/orders", params={"page": 2}, headers=buyer.auth))
    assert (many["list"], many["page"], many["total"], many["limit"]) == ([], 2, 2, 10)
    mine = my_ads(api, merchant)[ad["id"]]
    assert (mine["stock"], mine["in_orders"], mine["sold"]) == ("880", "20", "100")


async def test_every_transition_is_pushed_to_both_sides(stack: Stack, api: httpx.Client, clocks: Clocks) -> None:
    merchant = await trader(api, legal={"USDT": "1000"}, merchant=True)
    buyer = await trader(api)
    ad = post_ad(api, merchant, window_min=10)
    url = f"ws://{stack.settings.http_host}:{stack.settings.ws_port}/ws"
    async with connect(url) as buyer_ws, connect(url) as merchant_ws:
        for ws, m in ((buyer_ws, buyer), (merchant_ws, merchant)):
            await ws.send(json.dumps({"type": "login", "token": m.token}))
            assert (await next_of(ws, "login"))["code"] == 1
            await ws.send(json.dumps({"type": "sub", "params": "LEGAL_ORDER"}))
            assert (await next_of(ws, "sub"))["code"] == 1
        await asyncio.sleep(0.3)  # the fanout subscribes upstream asynchronously

        async def both(state: int, order_id: int) -> None:
            for ws in (buyer_ws, merchant_ws):
                while True:  # earlier states of the same order may still be on their way
                    pushed = (await next_of(ws, "legal_order"))["order"]
                    if pushed["id"] == order_id and pushed["state"] == state:
                        break
                assert (pushed["buyer_id"], pushed["seller_id"], pushed["merchant_id"]) == (buyer.uid, merchant.uid,
                                                                                           merchant.uid)  # fmt: skip
                assert (pushed["amount"], pushed["total"], pushed["currency"], pushed["fiat"]) == ("100", "720", "USDT",
                                                                                                  "CNY")  # fmt: skip

        order = ok(await asyncio.to_thread(open_order, api, buyer, ad["id"], "100"))
        await both(1, order["id"])
        ok(await asyncio.to_thread(act, api, buyer, "paid", order["id"]))
        await both(2, order["id"])
        ok(await asyncio.to_thread(act, api, merchant, "release", order["id"]))
        await both(3, order["id"])
        lapsing = ok(await asyncio.to_thread(open_order, api, buyer, ad["id"], "100"))
        await both(1, lapsing["id"])
        await clocks.at(lapsing["deadline_ms"] + 1000)  # the server's cancellation is pushed as well
        await both(4, lapsing["id"])
        disputed = ok(await asyncio.to_thread(open_order, api, buyer, ad["id"], "100"))
        ok(await asyncio.to_thread(act, api, buyer, "paid", disputed["id"]))
        ok(await asyncio.to_thread(act, api, buyer, "appeal", disputed["id"]))
        await both(5, disputed["id"])
        await asyncio.to_thread(exchange_ok, stack.settings, "p2p", "resolve", str(disputed["id"]), "buyer")
        await both(3, disputed["id"])  # and the operator's decision, made from the command line
