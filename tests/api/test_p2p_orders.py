"""P2P orders: opening refused for each rule, the daily cancellation limit, every action in a state
that does not allow it and by a party who may not, the deal password, and the payment window the
Scheduler's sweep ends once (the API's and the sweep's clocks moved by ``clocks``)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from store.errors import DomainError, ErrorCode
from store.models import (
    P2PAd,
    P2POrder,
    PayMethod,
)
from store.p2p import orders
from store.times import now_ms
from tests.utils.p2p import (
    DEAL,
    act,
    detail,
    open_order,
    post_ad,
    trader,
)
from tests.utils.p2p_api import (
    BUYER_ONLY,
    CANCEL_LIMIT,
    MINUTE_MS,
    NOT_FOUND,
    NOT_PAID,
    NOT_UNPAID,
    REAL_NAME_FIRST,
    SELLER_ONLY,
    Clocks,
    D,
    close_ad,
    journal,
    legal,
    my_ads,
    order_list,
    refs,
    set_status,
    state_of,
    steady,
    tomorrow_at,
)
from tests.utils.sales import get, post
from tests.utils.users import Member, error, member, ok
from tests.utils.wallets import system_totals

# --- opening an order -------------------------------------------------------------------------------


async def test_opening_an_order_is_refused_for_each_rule(api: httpx.Client, db: None) -> None:
    merchant = await trader(api, legal={"USDT": "1000"}, merchant=True)
    buyer = await trader(api, methods=())
    before = await system_totals()
    ad = post_ad(api, merchant, total="100")  # 100 USDT at 7.2: 100-5000 CNY per order, alipay and bank
    amounts = "The order total must be between 100 and 5000 CNY"
    method = "Choose a payment method the ad accepts and the seller has set up"
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"ad_id": 2_000_000_000}, 404, "Ad not found"),
        ({"number": "0"}, 400, "Enter the amount to trade"),
        ({"number": "-5"}, 400, "Enter the amount to trade"),
        ({"number": "", "fiat_amount": ""}, 400, "Enter the amount to trade"),
        ({"number": None}, 400, "Enter the amount to trade"),
        ({"number": "1.1234567"}, 400, "The amount can have at most 6 decimal places"),
        ({"number": "13.8"}, 400, amounts),  # 99.36 CNY
        ({"number": "", "fiat_amount": "99.99"}, 400, amounts),
        ({"number": "", "fiat_amount": "0.001"}, 400, "The amount can have at most 2 decimal places"),
        ({"number": "700"}, 400, amounts),  # 5040 CNY
        ({"number": "500"}, 409, "Only 100 USDT is available on this ad"),  # 3600 CNY: within the limits
        ({"pay_method": "wxpay"}, 400, method),  # the ad does not take it
        ({"pay_method": ""}, 400, method),
    ]
    for change, status, message in cases:
        body = {"ad_id": ad["id"], "number": "20", "pay_method": "alipay", **change}
        assert error(post(api, "legal/order/create", json=body, headers=buyer.auth), status) == message, change
    assert error(open_order(api, merchant, ad["id"], "20"), 400) == "You cannot trade with your own ad"
    assert error(open_order(api, member(api), ad["id"], "20"), 403) == REAL_NAME_FIRST
    await PayMethod.filter(user_id=merchant.uid, type="bank").delete()  # the seller no longer has it
    assert error(open_order(api, buyer, ad["id"], "20", "bank"), 400) == method
    await PayMethod.filter(user_id=merchant.uid, type="alipay").update(
        raw_data={"real_name": "Not Them", "account": "x"}
    )
    assert error(open_order(api, buyer, ad["id"], "20", "alipay"), 400) == method  # not in the seller's name
    await PayMethod.filter(user_id=merchant.uid, type="alipay").update(
        raw_data={"real_name": f"Trader {merchant.uid}", "account": "pay@example.com", "qrcode": ""}
    )
    assert (await P2PAd.get(id=ad["id"])).stock == D(100)  # no refusal took any stock
    await steady(before)

    first = ok(open_order(api, buyer, ad["id"], "", fiat_amount="144"))  # 20 USDT
    assert (first["amount"], first["total"]) == ("20", "144")
    assert error(open_order(api, buyer, ad["id"], "15"), 409) == "You already have an unpaid order on this ad"
    ok(act(api, buyer, "paid", first["id"]))
    second = ok(open_order(api, buyer, ad["id"], "", fiat_amount="100"))  # once the first is paid
    assert (second["amount"], second["total"]) == ("13.888888", "100")  # rounded down; 99.9999936 half up
    assert (await P2PAd.get(id=ad["id"])).stock == D("66.111112")
    await steady(before)
    paused = post_ad(api, merchant, total="50", methods=["alipay"])  # its bank method is gone
    closed = post_ad(api, merchant, total="50", methods=["alipay"])
    ok(set_status(api, merchant, paused["id"], 2))
    ok(close_ad(api, merchant, closed["id"]))
    for offline in (paused, closed):
        assert error(open_order(api, buyer, offline["id"], "20"), 409) == "This ad is not available right now"
    await steady(before)


async def test_three_cancellations_in_a_utc_day_stop_buying_until_the_next(api: httpx.Client,
                                                                          clocks: Clocks) -> None:  # fmt: skip
    merchant = await trader(api, legal={"USDT": "1000"}, merchant=True)
    buyer = await trader(api, legal={"USDT": "100"})
    takers = [await trader(api, legal={"USDT": "100"}) for _ in range(4)]
    sell, buy = post_ad(api, merchant, window_min=10), post_ad(api, merchant, side=2, total="500")
    before = await system_totals()
    start = tomorrow_at(1)
    await clocks.api_at(start)
    for _ in range(2):
        ok(act(api, buyer, "cancel", ok(open_order(api, buyer, sell["id"], "20"))["id"]))
    lapsed = ok(open_order(api, buyer, sell["id"], "20"))  # two cancellations: still buying
    await clocks.at(lapsed["deadline_ms"] + 1000)  # the window ends: the server cancels it
    assert (await P2POrder.get(id=lapsed["id"])).cancel_kind == "timeout"
    await steady(before)

    refused = open_order(api, buyer, sell["id"], "20")
    assert error(refused, 403) == CANCEL_LIMIT  # two cancellations and a lapsed window
    assert (await P2PAd.get(id=sell["id"])).stock == D(1000)
    sold = ok(open_order(api, buyer, buy["id"], "20", "bank"))  # selling stays open to them
    assert sold["role"] == "seller"
    await clocks.api_at(start + 22 * 3_600_000)  # 23:00 the same day
    assert error(open_order(api, buyer, sell["id"], "20"), 403) == CANCEL_LIMIT
    await clocks.api_at(start + 23 * 3_600_000 + 1000)  # 00:00:01 the next day
    ok(open_order(api, buyer, sell["id"], "20"))
    await steady(before)

    # A merchant who buys on their own ad and cancels three times: takers cannot sell to them that day.
    for taker in takers[:3]:
        ok(act(api, merchant, "cancel", ok(open_order(api, taker, buy["id"], "20", "bank"))["id"]))
    assert error(open_order(api, takers[3], buy["id"], "20", "bank"), 409) == (
        "This merchant cannot buy any more today"
    )
    ok(open_order(api, takers[3], sell["id"], "20"))  # buying from the merchant is not limited
    await steady(before)


# --- every action in a state that does not allow it, and by a party who may not -------------------


async def orders_in_every_state(api: httpx.Client, merchant: Member, buyer: Member) -> dict[str, int]:
    """One order of ``buyer``'s per state on a new sell ad of ``merchant`` (20 USDT each): paid,
    completed, cancelled (by the buyer), in appeal (by the seller) and unpaid."""
    ad = post_ad(api, merchant, total="500")

    def opened() -> int:
        return int(ok(open_order(api, buyer, ad["id"], "20"))["id"])

    made = {"paid": opened()}
    ok(act(api, buyer, "paid", made["paid"]))
    made["completed"] = opened()
    ok(act(api, buyer, "paid", made["completed"]))
    ok(act(api, merchant, "release", made["completed"]))
    made["cancelled"] = opened()
    ok(act(api, buyer, "cancel", made["cancelled"]))
    made["appeal"] = opened()
    ok(act(api, buyer, "paid", made["appeal"]))
    ok(act(api, merchant, "appeal", made["appeal"]))
    made["unpaid"] = opened()
    return made


async def test_every_action_in_a_state_that_does_not_allow_it_is_refused(api: httpx.Client, db: None) -> None:
    merchant = await trader(api, legal={"USDT": "1000"}, merchant=True)
    buyer = await trader(api)
    made = await orders_in_every_state(api, merchant, buyer)
    before, seen = await system_totals(), {k: await journal(v) for k, v in made.items()}
    assert {k: await state_of(v) for k, v in made.items()} == {"unpaid": 1, "paid": 2, "completed": 3,
                                                                 "cancelled": 4, "appeal": 5}  # fmt: skip
    wrong = [  # (action, who may take it, the states it is refused in, the message)
        ("paid", buyer, ("paid", "completed", "cancelled", "appeal"), NOT_UNPAID),
        ("cancel", buyer, ("paid", "completed", "cancelled", "appeal"), NOT_UNPAID),
        ("release", merchant, ("unpaid", "completed", "cancelled", "appeal"), NOT_PAID),
        ("appeal", buyer, ("unpaid", "completed", "cancelled", "appeal"), NOT_PAID),
        ("appeal", merchant, ("unpaid", "completed", "cancelled", "appeal"), NOT_PAID),  # an appeal twice too
        ("reply", buyer, ("unpaid", "paid", "completed", "cancelled"), "The order is not in appeal"),
    ]
    for action, who, states, message in wrong:
        for state in states:
            assert error(act(api, who, action, made[state]), 409) == message, (action, state)
    for state in ("unpaid", "paid", "completed", "cancelled"):
        with pytest.raises(DomainError) as refused:
            await orders.resolve(made[state], "buyer", "test", now_ms())
        assert refused.value.code == ErrorCode.P2P_NOT_IN_APPEAL, state
    with pytest.raises(DomainError) as refused:
        await orders.resolve(made["appeal"], "nobody", "test", now_ms())
    assert refused.value.code == ErrorCode.BAD_REQUEST
    assert {k: await journal(v) for k, v in made.items()} == seen  # nothing moved
    await steady(before)

    actions = {state: (detail(api, buyer, i)["actions"], detail(api, merchant, i)["actions"]) for state, i in
               made.items()}  # fmt: skip
    assert actions == {"unpaid": (["paid", "cancel"], []), "paid": (["appeal"], ["release", "appeal"]),
                       "completed": ([], []), "cancelled": ([], []),
                       "appeal": (["reply"], [])}  # the merchant appealed: the buyer may answer  # fmt: skip


async def test_every_action_by_the_wrong_party_is_refused(api: httpx.Client, db: None) -> None:
    merchant = await trader(api, legal={"USDT": "1000"}, merchant=True)
    buyer, stranger = await trader(api), await trader(api, legal={"USDT": "10"})
    taker = await trader(api, legal={"USDT": "100"})
    made = await orders_in_every_state(api, merchant, buyer)
    before = await system_totals()
    assert error(act(api, merchant, "paid", made["unpaid"]), 403) == BUYER_ONLY
    assert error(act(api, merchant, "cancel", made["unpaid"]), 403) == BUYER_ONLY
    assert error(act(api, buyer, "release", made["paid"]), 403) == SELLER_ONLY
    for order_id in [*made.values(), 2**62]:  # a stranger does not see them; nor anyone an order that is not
        assert error(get(api, "legal/order/detail", params={"id": order_id}, headers=stranger.auth), 404) == NOT_FOUND
        for action in ("paid", "cancel", "release", "appeal"):
            assert error(act(api, stranger, action, order_id), 404) == NOT_FOUND, (action, order_id)
    assert error(act(api, buyer, "release", 2**62), 404) == NOT_FOUND
    assert order_list(api, stranger, "legal/orders") == [] and order_list(api, stranger, "shop/orders") == []
    with pytest.raises(DomainError) as refused:
        await orders.release(made["paid"], stranger.uid, now_ms())
    assert refused.value.code == ErrorCode.P2P_ORDER_NOT_FOUND
    await steady(before)

    # On a buy ad the merchant is the buyer and the taker the seller.
    buy = post_ad(api, merchant, side=2, total="500")
    unpaid = ok(open_order(api, taker, buy["id"], "20", "bank"))
    assert (unpaid["role"], detail(api, merchant, unpaid["id"])["role"]) == ("seller", "buyer")
    assert error(act(api, taker, "paid", unpaid["id"]), 403) == BUYER_ONLY
    assert error(act(api, taker, "cancel", unpaid["id"]), 403) == BUYER_ONLY
    ok(act(api, merchant, "paid", unpaid["id"]))
    assert error(act(api, merchant, "release", unpaid["id"]), 403) == SELLER_ONLY
    ok(act(api, taker, "release", unpaid["id"]))
    assert legal(api, merchant) == (D(520), D(480))  # 500 in the sell ad, less the 20 released; 20 bought
    await steady(before)


async def test_release_needs_the_sellers_deal_password(api: httpx.Client, db: None) -> None:
    merchant = await trader(api, legal={"USDT": "100"}, merchant=True)
    buyer = await trader(api)
    order = ok(open_order(api, buyer, post_ad(api, merchant, total="100")["id"], "20"))
    ok(act(api, buyer, "paid", order["id"]))
    assert error(act(api, merchant, "release", order["id"], pay_password=""), 400) == "Please enter the trade password"
    assert error(act(api, merchant, "release", order["id"], pay_password="Wrong123"), 400) == (
        "The trade password is incorrect"
    )
    assert await state_of(order["id"]) == 2
    done = act(api, merchant, "release", order["id"], pay_password=DEAL)
    assert done.json()["msg"] == "Released: the coins are in the buyer's account" and ok(done)["state"] == 3


# --- the payment window -----------------------------------------------------------------------------


async def test_the_window_ends_and_the_sweep_cancels_unpaid_orders_once(api: httpx.Client, clocks: Clocks) -> None:
    merchant = await trader(api, legal={"USDT": "1200"}, merchant=True)
    buyer, early, taker = await trader(api), await trader(api), await trader(api, legal={"USDT": "100"})
    before = await system_totals()
    sell = post_ad(api, merchant, window_min=10)
    buy = post_ad(api, merchant, side=2, total="500", window_min=10)
    closing = post_ad(api, merchant, total="100", window_min=10)
    on_sell = ok(open_order(api, buyer, sell["id"], "100"))
    on_buy = ok(open_order(api, taker, buy["id"], "40", "bank"))  # the taker's 40 USDT in escrow
    on_closed = ok(open_order(api, buyer, closing["id"], "20"))
    paid = ok(open_order(api, early, sell["id"], "20"))
    ok(close_ad(api, merchant, closing["id"]))
    ok(act(api, merchant, "paid", ok(open_order(api, taker, buy["id"], "20", "bank"))["id"]))
    end = on_sell["deadline_ms"]
    assert 0 <= end - on_sell["created_ms"] == 10 * MINUTE_MS
    assert legal(api, taker) == (D(40), D(60)) and legal(api, merchant) == (D(180), D(1020))

    await clocks.at(end - MINUTE_MS)  # a minute before: nothing of theirs ends
    assert [await state_of(o["id"]) for o in (on_sell, on_buy, on_closed, paid)] == [1, 1, 1, 1]
    await clocks.api_at(paid["deadline_ms"] - 1000)
    ok(act(api, early, "paid", paid["id"]))  # a second before its window ends
    await clocks.api_at(end + 1)  # the window is over; the sweep has not passed yet
    late = detail(api, buyer, on_sell["id"])
    assert (late["state"], late["actions"], late["remain_ms"]) == (1, [], 0)
    assert error(act(api, buyer, "paid", on_sell["id"]), 409) == "The payment window has ended"
    await steady(before)

    moment = max(on_sell["deadline_ms"], on_buy["deadline_ms"], on_closed["deadline_ms"]) + 1000
    await clocks.at(moment)
    for order in (on_sell, on_buy, on_closed):
        done = await P2POrder.get(id=order["id"])
        assert (done.state, done.cancel_kind, done.ended_ms is not None) == (4, "timeout", True)
        assert (await journal(order["id"]))[-1] == (2, 1, 4, "system")
    assert (await P2POrder.get(id=paid["id"])).state == 2  # a paid order has no timer
    assert detail(api, buyer, on_sell["id"])["cancel_kind"] == "timeout"
    ads = my_ads(api, merchant)
    assert ads[sell["id"]]["stock"] == "980"  # the sell ad's escrow back to its stock (20 are paid)
    assert (ads[buy["id"]]["stock"], ads[closing["id"]]["total"]) == ("480", "0")
    assert await refs(on_sell["id"]) == []  # stock and escrow are both the merchant's lock
    assert await refs(on_buy["id"]) == sorted([f"p2p{on_buy['id']}:escrow", f"p2p{on_buy['id']}:refund"])
    assert await refs(on_closed["id"]) == [f"p2p{on_closed['id']}:refund"]
    assert legal(api, taker) == (D(80), D(20))  # back to the taker's balance
    assert legal(api, merchant) == (D(200), D(1000))  # the closed ad's order to the balance
    await steady(before)

    journals = {o["id"]: await journal(o["id"]) for o in (on_sell, on_buy, on_closed)}
    await clocks.at(moment)  # swept again: nothing to do, nothing moved twice
    assert await orders.expire(on_buy["id"], moment) is None  # a replayed expiry finds the order moved on
    again, _ = await orders.sweep_expired(moment)
    assert not {o.id for o in again} & set(journals)
    assert {i: await journal(i) for i in journals} == journals
    assert await refs(on_buy["id"]) == sorted([f"p2p{on_buy['id']}:escrow", f"p2p{on_buy['id']}:refund"])
    await steady(before)
