"""The P2P market through the API: a merchant's sell and buy ads, an order's whole life (escrow,
paid, release with the deal password), the coins in the right legal accounts, the journal, and the
invariant (each legal lock equals its escrow plus its sell ads' stock) after every step."""

from __future__ import annotations

from decimal import Decimal

import httpx

from serve.security import hash_password
from store.models import AccountLog, P2PEvent
from store.p2p import demo
from tests.utils.p2p import LEGAL, act, detail, legal_lock_matches, open_order, post_ad, trader
from tests.utils.sales import get
from tests.utils.users import error, login, ok
from tests.utils.wallets import USDT, balance


async def test_a_whole_trade_on_a_sell_ad(api: httpx.Client, db: None) -> None:
    merchant = await trader(api, name="Zhang Wei", legal={"USDT": "1500"}, merchant=True)
    buyer = await trader(api, name="Li Na")
    ad = post_ad(api, merchant)
    assert (ad["stock"], ad["max_now"], ad["taker_side"]) == ("1000", "5000", "buy")
    assert balance(api, merchant, USDT, LEGAL) == (Decimal(500), Decimal(1000))
    assert await legal_lock_matches() == {}

    order = ok(open_order(api, buyer, ad["id"], "100"))
    assert (order["state"], order["role"], order["amount"], order["total"], order["price"]) == (
        1,
        "buyer",
        "100",
        "720",
        "7.2",
    )
    assert order["actions"] == ["paid", "cancel"] and 890_000 < order["remain_ms"] <= 900_000
    assert order["counterparty"] == {"name": "Z*** Wei", "nickname": f"m{merchant.uid}"}
    assert order["pay_details"]["account"] == "pay@example.com"
    assert balance(api, merchant, USDT, LEGAL) == (Decimal(500), Decimal(1000))  # stock -> escrow, both lock
    assert await legal_lock_matches() == {}

    seen = detail(api, merchant, order["id"])
    assert (seen["role"], seen["is_merchant"], seen["actions"], seen["counterparty"]["name"]) == (
        "seller",
        True,
        [],
        "L*** Na",
    )
    assert error(act(api, merchant, "release", order["id"]), 409) == "Only a paid order can be released or appealed"
    ok(act(api, buyer, "paid", order["id"]))
    assert detail(api, merchant, order["id"])["actions"] == ["release", "appeal"]
    assert error(act(api, buyer, "release", order["id"]), 403) == "Only the seller can do this"
    assert (
        error(act(api, merchant, "release", order["id"], pay_password="wrong"), 400)
        == "The trade password is incorrect"
    )
    done = ok(act(api, merchant, "release", order["id"]))
    assert (done["state"], done["actions"]) == (3, [])
    assert balance(api, buyer, USDT, LEGAL) == (Decimal(100), Decimal(0))
    assert balance(api, merchant, USDT, LEGAL) == (Decimal(500), Decimal(900))
    assert await legal_lock_matches() == {}
    events = await P2PEvent.filter(order_id=order["id"]).order_by("seq").values_list("from_state", "to_state", "by")
    assert events == [(0, 1, "buyer"), (1, 2, "buyer"), (2, 3, "seller")]
    refs = set(await AccountLog.filter(ref__startswith=f"p2p{order['id']}:").values_list("ref", flat=True))
    assert refs == {f"p2p{order['id']}:release:s", f"p2p{order['id']}:release:b"}
    assert error(act(api, merchant, "release", order["id"]), 409)  # once


async def test_a_taker_sells_into_a_buy_ad(api: httpx.Client, db: None) -> None:
    merchant = await trader(api, merchant=True)
    seller = await trader(api, legal={"USDT": "300"}, methods=("bank",))
    ad = post_ad(api, merchant, side=2, total="500", methods=["alipay", "bank"])
    assert balance(api, merchant, USDT, LEGAL) == (Decimal(0), Decimal(0))  # a buy ad locks nothing
    assert error(open_order(api, seller, ad["id"], "100", "alipay"), 400)  # the seller has no alipay
    order = ok(open_order(api, seller, ad["id"], "", "bank", fiat_amount="1000"))
    assert (order["amount"], order["total"], order["role"]) == ("138.888888", "1000", "seller")
    assert balance(api, seller, USDT, LEGAL) == (Decimal("161.111112"), Decimal("138.888888"))
    assert await legal_lock_matches() == {}
    ok(act(api, merchant, "paid", order["id"]))
    ok(act(api, seller, "release", order["id"]))
    assert balance(api, merchant, USDT, LEGAL) == (Decimal("138.888888"), Decimal(0))
    assert balance(api, seller, USDT, LEGAL) == (Decimal("161.111112"), Decimal(0))
    assert await legal_lock_matches() == {}


async def test_the_completion_rate_counts_what_the_merchant_answers_for(api: httpx.Client, db: None) -> None:
    """A taker's cancellation does not count against the merchant; the merchant's own as a buyer does."""
    merchant = await trader(api, legal={"USDT": "1000"}, merchant=True)
    taker = await trader(api, legal={"USDT": "500"})
    sell, buy = post_ad(api, merchant), post_ad(api, merchant, side=2, total="500")
    done = ok(open_order(api, taker, sell["id"], "50"))
    ok(act(api, taker, "paid", done["id"]))
    ok(act(api, merchant, "release", done["id"]))
    ok(act(api, taker, "cancel", ok(open_order(api, taker, sell["id"], "50"))["id"]))  # the taker's doing
    mine = ok(get(api, "merchant/info", headers=merchant.auth))
    assert (mine["orders_30d"], mine["completion_rate"]) == (1, "100.0")
    sold_to_merchant = ok(open_order(api, taker, buy["id"], "50"))  # the merchant buys, then cancels
    ok(act(api, merchant, "cancel", sold_to_merchant["id"]))
    info = ok(get(api, "merchant/info", headers=merchant.auth))
    assert (info["orders_30d"], info["completion_rate"]) == (1, "50.0")
    assert await legal_lock_matches() == {}


async def test_a_demo_merchant_logs_in_as_the_readme_says(api: httpx.Client, db: None) -> None:
    """README: the demo merchants (``p2p-demo-1@demo.exchange.local``, password ``Demo1234``) exist in
    development; a developer logs in as one to release an order. Their ``.local`` address must pass the
    e-mail check (the old 2-4 letter rule refused it)."""
    await demo.seed(await hash_password(demo.DEMO_PASSWORD))
    for spec in demo.MERCHANTS:
        data = ok(login(api, spec["email"], demo.DEMO_PASSWORD))
        assert (data["account"], data["is_seller"]) == (spec["email"], 1)
        me = ok(get(api, "user/info", headers={"Authorization": data["token"]}))
        assert (me["email"], me["is_set"]) == (spec["email"], 1)  # the deal password is set too
