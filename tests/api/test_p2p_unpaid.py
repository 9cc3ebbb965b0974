"""P2P orders: a taker holds at most the setting's number of orders waiting for payment at once,
through one client, many at once, and the store as a second replica would reach it."""

from __future__ import annotations

import asyncio

import httpx
from tortoise.expressions import Q

from serve.i18n import translate
from store.errors import DomainError, ErrorCode
from store.models import P2POrder, P2PState
from store.p2p import orders
from store.times import now_ms
from tests.api.test_admin import make_operator, token_of
from tests.utils.p2p import act, open_order, post_ad, trader
from tests.utils.p2p_api import D, my_ads, steady
from tests.utils.sales import get, post
from tests.utils.users import error, ok
from tests.utils.wallets import system_totals

UNPAID_MAX = "You have {max} orders waiting for payment: finish one before opening another"


async def test_a_taker_holds_at_most_the_settings_unpaid_orders_at_once(api: httpx.Client, db: None) -> None:
    """The daily limit counts cancellations once they have ended: until then a taker could open an
    order on every ad at once (one each) and hold their stock through the windows. A taker with
    p2p_unpaid_max orders waiting for payment (2 by default; a site setting the console edits) opens no
    other, buying or selling, until one is paid or ends."""
    merchant = await trader(api, legal={"USDT": "1000"}, merchant=True)
    taker = await trader(api, legal={"USDT": "100"})
    sell = [post_ad(api, merchant, total="100") for _ in range(4)]
    buy = post_ad(api, merchant, side=2, total="500")
    before = await system_totals()
    assert ok(get(api, "legal/config"))["unpaid_max"] == 2
    first = ok(open_order(api, taker, sell[0]["id"], "20"))
    ok(open_order(api, taker, buy["id"], "20", "bank"))  # selling counts as well: the merchant pays that one
    capped = UNPAID_MAX.format(max=2)
    assert error(open_order(api, taker, sell[1]["id"], "20"), 409) == capped
    assert error(open_order(api, taker, buy["id"], "20", "bank"), 409) == capped
    for lang in ("hk", "jp", "gm", "fr"):
        body = {"ad_id": sell[1]["id"], "number": "20", "pay_method": "alipay"}
        refused = post(api, "legal/order/create", json=body, headers={**taker.auth, "lang": lang})
        assert error(refused, 409) == translate(UNPAID_MAX, lang, max=2)
    assert await P2POrder.filter(Q(buyer_id=taker.uid) | Q(seller_id=taker.uid)).count() == 2
    assert [a["stock"] for a in (my_ads(api, merchant)[s["id"]] for s in sell)] == ["80", "100", "100", "100"]
    await steady(before)

    ok(act(api, taker, "paid", first["id"]))  # paid: no longer waiting
    third = ok(open_order(api, taker, sell[1]["id"], "20"))
    ok(act(api, taker, "cancel", third["id"]))  # ended
    ok(open_order(api, taker, sell[2]["id"], "20"))
    assert error(open_order(api, taker, sell[3]["id"], "20"), 409) == capped
    await steady(before)

    op, secret = await make_operator("content")
    console = token_of(api, op, secret)
    try:
        listed = {s["key"]: s for s in ok(get(api, "admin/settings", headers=console))}
        assert listed["p2p_unpaid_max"]["value"] == "2" and "whole number" in listed["p2p_unpaid_max"]["takes"]
        for bad in ("0", "-1", "1.5", "x", "", "101"):
            saved = post(api, "admin/settings/save", json={"key": "p2p_unpaid_max", "value": bad}, headers=console)
            assert error(saved, 400), bad
        ok(post(api, "admin/settings/save", json={"key": "p2p_unpaid_max", "value": "3"}, headers=console))
        assert ok(get(api, "legal/config"))["unpaid_max"] == 3
        ok(open_order(api, taker, sell[3]["id"], "20"))  # a third now
        assert error(open_order(api, taker, sell[0]["id"], "20"), 409) == UNPAID_MAX.format(max=3)
    finally:
        ok(post(api, "admin/settings/save", json={"key": "p2p_unpaid_max", "value": "2"}, headers=console))
    await steady(before)


async def test_concurrent_opens_do_not_pass_the_cap(api: httpx.Client, db: None) -> None:
    """Six orders opened at once on six ads, through the API (a client each) and through the store (as
    a second replica would, where the route's one-at-a-time guard does not reach): never more than
    two are waiting for payment."""
    merchant = await trader(api, legal={"USDT": "2000"}, merchant=True)
    taker, other = await trader(api), await trader(api)
    ads = [post_ad(api, merchant, total="100") for _ in range(6)]
    before = await system_totals()

    def opened(ad_id: int) -> httpx.Response:
        with httpx.Client(base_url=api.base_url, timeout=60) as client:
            return open_order(client, taker, ad_id, "20")

    answers = await asyncio.gather(*(asyncio.to_thread(opened, ad["id"]) for ad in ads))
    codes = [r.json()["code"] for r in answers]
    assert all(code in (0, 1, 996) for code in codes) and all(r.status_code < 500 for r in answers), codes
    assert 1 <= codes.count(1) <= 2
    assert all(r.json()["msg"] == UNPAID_MAX.format(max=2) for r in answers if r.json()["code"] == 0)
    assert await P2POrder.filter(buyer_id=taker.uid, state=P2PState.UNPAID).count() == codes.count(1)

    made = await asyncio.gather(
        *(orders.create(other.uid, orders.Opening(ad["id"], D(20), None, "alipay"), now_ms()) for ad in ads),
        return_exceptions=True,
    )
    refused = [r for r in made if isinstance(r, DomainError)]
    assert len(made) - len(refused) == 2, made
    assert all(r.code == ErrorCode.P2P_UNPAID_MAX for r in refused)
    assert await P2POrder.filter(buyer_id=other.uid, state=P2PState.UNPAID).count() == 2
    await steady(before)
