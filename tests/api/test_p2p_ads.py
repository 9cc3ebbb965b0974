"""The P2P market's config, merchants applying and their figures, and ads: every field checked, the
stock lock moved by edits, pauses and closes, the market's order and filters (docs/decisions.md
"Peer-to-peer market"). After every step that moves coins the invariant holds and the totals stay."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from store.errors import DomainError, ErrorCode
from store.models import (
    AccountLog,
    PayMethod,
    RealName,
    ReviewStatus,
)
from store.p2p import merchants
from store.times import now_ms
from tests.utils.p2p import (
    act,
    ad_body,
    apply_merchant,
    detail,
    open_order,
    post_ad,
    trader,
)
from tests.utils.p2p_api import (
    REAL_NAME_FIRST,
    D,
    close_ad,
    edit_ad,
    legal,
    listed,
    market,
    my_ads,
    refs,
    save_ad,
    set_status,
    steady,
)
from tests.utils.sales import get, post
from tests.utils.users import error, member, ok, unique_mobile
from tests.utils.wallets import BTC, ETH, USDT, system_totals

# --- legal/config -----------------------------------------------------------------------------------


def test_the_config_names_what_the_market_trades(api: httpx.Client) -> None:
    found = ok(api.get("legal/config"))  # public
    assert found == {
        "currencies": [{"id": USDT, "code": "USDT", "decimals": 6}, {"id": BTC, "code": "BTC", "decimals": 8},
                       {"id": ETH, "code": "ETH", "decimals": 8}],
        "fiats": ["CNY", "USD"],
        "methods": [{"code": "alipay", "name": "Alipay"}, {"code": "wxpay", "name": "WeChat Pay"},
                    {"code": "bank", "name": "Bank card"}],
        "windows": [10, 15, 20, 30, 45, 60, 90, 120],
        "cancel_limit": 3,
        "unpaid_max": 2,
    }  # fmt: skip


def test_calls_other_than_the_market_need_a_login(api: httpx.Client) -> None:
    assert ok(api.get("legal/ads"))["limit"] == 10  # public
    for method, path in (("GET", "legal/orders"), ("GET", "legal/order/detail?id=1"), ("POST", "legal/order/create"),
                         ("POST", "legal/order/paid"), ("POST", "legal/order/cancel"), ("POST", "legal/order/release"),
                         ("POST", "legal/order/appeal"), ("POST", "merchant/apply"), ("GET", "merchant/info"),
                         ("GET", "shop/ads"), ("POST", "shop/ad/save"), ("POST", "shop/ad/status"),
                         ("POST", "shop/ad/close"), ("GET", "shop/orders")):  # fmt: skip
        response = api.request(method, path, json={} if method == "POST" else None)
        assert error(response, 401, 999) == "Please log in first", path


# --- merchants --------------------------------------------------------------------------------------


async def test_applying_needs_a_real_name_and_a_free_valid_nickname(api: httpx.Client, db: None) -> None:
    nobody = member(api)
    assert error(apply_merchant(api, nobody, "nobody_1"), 403) == REAL_NAME_FIRST
    pending_name = await trader(api)
    await RealName.filter(user_id=pending_name.uid).update(review_status=ReviewStatus.UNDER_REVIEW)
    assert error(apply_merchant(api, pending_name, "pending_1"), 403) == REAL_NAME_FIRST  # approved only

    alice, bob = await trader(api), await trader(api)
    for bad in ("a", "a" * 21, "two words", "名字", "dot.name", "", "   "):
        assert error(apply_merchant(api, alice, bad), 400) == "The nickname must be 2 to 20 letters, digits, _ or -"
    nick = f"desk-{alice.uid}"
    applied = apply_merchant(api, alice, f"  {nick} ")  # spaces around are not part of it
    assert applied.json()["msg"] == "Application submitted, please wait for the review"
    info = ok(applied)
    assert (info["status"], info["status_name"], info["nickname"], info["is_seller"]) == (0, "Under review", nick,
                                                                                          False)  # fmt: skip
    assert error(apply_merchant(api, bob, nick), 409) == "This nickname is already taken"
    assert error(apply_merchant(api, alice, f"other-{alice.uid}"), 409) == (
        "You have already applied; please wait for the review"
    )

    await merchants.decide(alice.uid, False, "test", now_ms(), "the documents are unclear")
    info = ok(get(api, "merchant/info", headers=alice.auth))
    assert (info["status"], info["status_name"], info["reject_reason"], info["is_seller"]) == (
        2, "Rejected", "the documents are unclear", False)  # fmt: skip
    assert error(post(api, "shop/ad/save", json=ad_body(), headers=alice.auth), 403) == (
        "Only approved merchants can post ads"
    )
    info = ok(apply_merchant(api, alice, f"again-{alice.uid}"))  # a rejection may be followed by a new application
    assert (info["status"], info["nickname"], info["reject_reason"]) == (0, f"again-{alice.uid}", "")
    ok(apply_merchant(api, bob, nick))  # alice's first nickname is free again
    with pytest.raises(DomainError) as refused:
        await merchants.decide(nobody.uid, True, "test", now_ms())
    assert refused.value.code == ErrorCode.MERCHANT_NOT_PENDING

    await merchants.decide(alice.uid, True, "test", now_ms())
    info = ok(get(api, "merchant/info", headers=alice.auth))
    assert (info["status"], info["status_name"], info["is_seller"], info["levels"]["advanced"]) == (
        1, "Approved", True, True)  # fmt: skip
    assert ok(get(api, "user/info", headers=alice.auth))["is_seller"] == 1
    assert error(apply_merchant(api, alice, f"third-{alice.uid}"), 409) == "You are already a merchant"
    with pytest.raises(DomainError) as refused:
        await merchants.decide(alice.uid, False, "test", now_ms())
    assert refused.value.code == ErrorCode.MERCHANT_NOT_PENDING


async def test_merchant_info_shows_the_levels_and_the_methods_in_the_users_own_name(api: httpx.Client,
                                                                                   db: None) -> None:  # fmt: skip
    nobody = member(api)
    assert ok(get(api, "merchant/info", headers=nobody.auth)) == {
        "status": -1, "status_name": "Not applied", "nickname": "", "reject_reason": "", "is_seller": False,
        "levels": {"mobile": False, "real_name": False, "advanced": False}, "orders_30d": 0,
        "completion_rate": "100.0", "methods": [],
    }  # fmt: skip
    by_phone = member(api, unique_mobile())
    assert ok(get(api, "merchant/info", headers=by_phone.auth))["levels"]["mobile"] is True

    carol = await trader(api, name="Chen Jing", methods=("bank", "alipay", "wxpay"))
    await PayMethod.filter(user_id=carol.uid, type="wxpay").update(
        raw_data={"real_name": "Someone Else", "account": "x"}
    )
    info = ok(get(api, "merchant/info", headers=carol.auth))
    assert info["levels"] == {"mobile": False, "real_name": True, "advanced": False}
    assert info["methods"] == ["alipay", "bank"]  # in the market's order; wxpay is in another name
    await RealName.filter(user_id=carol.uid).update(review_status=ReviewStatus.UNDER_REVIEW)
    info = ok(get(api, "merchant/info", headers=carol.auth))
    assert (info["levels"]["real_name"], info["methods"]) == (False, [])  # nothing is theirs without the review


# --- ads --------------------------------------------------------------------------------------------


async def test_every_field_of_an_ad_is_checked(api: httpx.Client, db: None) -> None:
    plain = await trader(api, legal={"USDT": "100"})
    assert error(save_ad(api, plain, currency_id=999), 403) == "Only approved merchants can post ads"  # first
    merchant = await trader(api, legal={"USDT": "5000", "BTC": "1"}, merchant=True, methods=("alipay", "bank"))
    await PayMethod.create(user_id=merchant.uid, type="wxpay", raw_data={"real_name": "Someone Else", "account": "w"})
    before = await system_totals()
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"side": 0}, 400, "Choose whether you buy or sell"),
        ({"side": 3}, 400, "Choose whether you buy or sell"),
        ({"currency_id": 4}, 400, "This currency is not traded in the P2P market"),  # LTC
        ({"currency_id": 999}, 400, "This currency is not traded in the P2P market"),
        ({"currency_id": 0}, 400, "This currency is not traded in the P2P market"),
        ({"fiat": "EUR"}, 400, "Choose CNY or USD"),
        ({"fiat": ""}, 400, "Choose CNY or USD"),
    ]
    price = "Enter a price above 0 with at most 2 decimals"
    cases += [({"price": p}, 400, price) for p in ("0", "-1", "7.123", "abc", "", None)]
    limits = "The order limits must be at least 1 with at most 2 decimals, and the minimum no more than the maximum"
    cases += [({"min_fiat": "0.5"}, 400, limits), ({"min_fiat": "6000"}, 400, limits),
              ({"min_fiat": "100.001"}, 400, limits), ({"max_fiat": "5000.001"}, 400, limits),
              ({"min_fiat": None}, 400, limits), ({"max_fiat": "0"}, 400, limits)]  # fmt: skip
    cases += [
        ({"total": t}, 400, "Enter a total above 0 with at most 6 decimal places") for t in ("0", "1.1234567", "")
    ]
    cases += [({"currency_id": BTC, "total": "0.123456789", "price": "450000"}, 400,
               "Enter a total above 0 with at most 8 decimal places")]  # fmt: skip
    methods = "Choose payment methods you have set up in your own real name"
    cases += [({"methods": []}, 400, methods), ({"methods": ["paypal"]}, 400, methods),
              ({"methods": ["alipay", "wxpay"]}, 400, methods)]  # fmt: skip  # wxpay: in another name
    cases += [({"window_min": w}, 400, "Choose one of the offered payment windows") for w in (0, 5, 25, 121)]
    cases += [({"remarks": "x" * 501}, 400, "The remarks can be at most 500 characters")]
    cases += [({"total": "6000"}, 400, "Insufficient balance")]  # a sell ad locks its total: 5000 are there
    for change, status, message in cases:
        assert error(save_ad(api, merchant, **change), status) == message, change
    assert my_ads(api, merchant) == {}  # nothing was posted
    assert legal(api, merchant) == (D(5000), D(0))
    await steady(before)

    buy = ok(save_ad(api, merchant, side=2, methods=["wxpay", "alipay"], remarks="y" * 500, fiat="usd"))
    assert (buy["methods"], buy["fiat"], buy["window_min"], len(buy["remarks"])) == (["alipay", "wxpay"], "USD", 15,
                                                                                      500)  # fmt: skip
    body = ad_body(window_min=120)
    del body["window_min"]
    sell = ok(post(api, "shop/ad/save", json=body, headers=merchant.auth))
    assert sell["window_min"] == 15  # the default window
    assert legal(api, merchant) == (D(4000), D(1000))
    await steady(before)


async def test_a_merchant_has_at_most_20_ads_open(api: httpx.Client, db: None) -> None:
    merchant = await trader(api, merchant=True)
    posted = [ok(save_ad(api, merchant, side=2, total="10"))["id"] for _ in range(20)]
    assert error(save_ad(api, merchant, side=2), 409) == "You can have at most 20 ads open"
    ok(set_status(api, merchant, posted[0], 2))
    assert error(save_ad(api, merchant, side=2), 409) == "You can have at most 20 ads open"  # paused ones count
    ok(close_ad(api, merchant, posted[1]))
    posted.append(ok(save_ad(api, merchant, side=2, total="10"))["id"])  # a closed one does not
    for ad_id in posted[2:]:
        ok(close_ad(api, merchant, ad_id))  # out of the other tests' market


async def test_an_edit_moves_the_lock_by_the_stock_it_changes(api: httpx.Client, db: None) -> None:
    merchant = await trader(api, legal={"USDT": "1500"}, merchant=True)
    buyer, other = await trader(api), await trader(api, merchant=True)
    before = await system_totals()
    ad = post_ad(api, merchant)  # 1000 USDT at 7.2
    order = ok(open_order(api, buyer, ad["id"], "100"))
    assert legal(api, merchant) == (D(500), D(1000))

    below = edit_ad(api, merchant, ad, total="99.5")
    assert error(below, 400) == "The total cannot be less than what orders have already taken (100)"
    edited = ok(edit_ad(api, merchant, ad, total="600", price="7.5", side=2, currency_id=BTC))
    assert (edited["total"], edited["stock"], edited["side"], edited["currency"], edited["price"]) == (
        "600", "500", 1, "USDT", "7.5")  # fmt: skip  # side and currency stay as posted
    assert legal(api, merchant) == (D(900), D(600))  # 400 of stock back to the balance; escrow 100 stays
    await steady(before)
    edited = ok(edit_ad(api, merchant, edited, total="1100"))
    assert (edited["stock"], legal(api, merchant)) == ("1000", (D(400), D(1100)))
    await steady(before)
    assert error(edit_ad(api, merchant, edited, total="1600"), 400) == "Insufficient balance"  # 500 more than 400
    same = ok(edit_ad(api, merchant, edited, remarks="no change of total"))
    assert (same["stock"], same["remarks"]) == ("1000", "no change of total")
    ad_refs = await AccountLog.filter(ref__startswith=f"ad{ad['id']}:").order_by("id").values_list("ref", "amount")
    assert ad_refs == [(f"ad{ad['id']}:v1", D(-1000)), (f"ad{ad['id']}:v2", D(400)), (f"ad{ad['id']}:v3", D(-500))]
    assert detail(api, buyer, order["id"])["price"] == "7.2"  # an open order keeps its price

    assert error(edit_ad(api, other, edited, total="1"), 404) == "Ad not found"  # not theirs
    assert error(post(api, "shop/ad/save", json={**ad_body(), "id": 2_000_000_000}, headers=merchant.auth), 404) == (
        "Ad not found"
    )
    ok(close_ad(api, merchant, ad["id"]))
    assert error(edit_ad(api, merchant, edited, total="1000"), 409) == "This ad is closed"
    assert legal(api, merchant) == (D(1400), D(100))  # the stock back; the open order's escrow stays
    await steady(before)


async def test_a_paused_ad_is_hidden_and_refuses_orders_but_keeps_its_lock(api: httpx.Client, db: None) -> None:
    merchant = await trader(api, legal={"USDT": "1000"}, merchant=True)
    buyer, other = await trader(api), await trader(api, merchant=True)
    before = await system_totals()
    ad = post_ad(api, merchant)
    order = ok(open_order(api, buyer, ad["id"], "50"))
    paused = ok(set_status(api, merchant, ad["id"], 2))
    assert (paused["status"], paused["stock"]) == (2, "950")
    assert ad["id"] not in listed(api) and ad["id"] in my_ads(api, merchant, status=2)
    assert error(open_order(api, await trader(api), ad["id"], "50"), 409) == "This ad is not available right now"
    assert legal(api, merchant) == (D(0), D(1000))  # still locked
    await steady(before)
    ok(act(api, buyer, "paid", order["id"]))  # an open order goes on
    ok(act(api, merchant, "release", order["id"]))
    assert legal(api, merchant) == (D(0), D(950)) and legal(api, buyer) == (D(50), D(0))
    await steady(before)
    assert ok(set_status(api, merchant, ad["id"], 1))["status"] == 1
    assert ad["id"] in listed(api)
    assert error(set_status(api, other, ad["id"], 2), 404) == "Ad not found"
    assert error(set_status(api, merchant, ad["id"], 3), 400)  # closing is shop/ad/close
    assert error(set_status(api, merchant, 2_000_000_000, 2), 404) == "Ad not found"
    ok(close_ad(api, merchant, ad["id"]))
    assert error(set_status(api, merchant, ad["id"], 1), 409) == "This ad is closed"
    await steady(before)


async def test_closing_returns_the_stock_and_lets_open_orders_finish(api: httpx.Client, db: None) -> None:
    merchant = await trader(api, legal={"USDT": "1000"}, merchant=True)
    paying, cancelling, other = await trader(api), await trader(api), await trader(api, merchant=True)
    taker = await trader(api, legal={"USDT": "100"})
    before = await system_totals()
    ad = post_ad(api, merchant)
    paid = ok(open_order(api, paying, ad["id"], "100"))
    ok(act(api, paying, "paid", paid["id"]))
    unpaid = ok(open_order(api, cancelling, ad["id"], "50"))
    assert error(close_ad(api, other, ad["id"]), 404) == "Ad not found"
    closed = close_ad(api, merchant, ad["id"])
    assert closed.json()["msg"] == "Ad closed"
    assert (ok(closed)["status"], ok(closed)["stock"], ok(closed)["total"]) == (3, "0", "150")
    assert legal(api, merchant) == (D(850), D(150))  # the stock back; the two orders' escrow stays
    assert ad["id"] not in listed(api)
    await steady(before)
    mine = my_ads(api, merchant, status=3)[ad["id"]]
    assert (mine["in_orders"], mine["sold"]) == ("150", "0")

    ok(act(api, merchant, "release", paid["id"]))
    ok(act(api, cancelling, "cancel", unpaid["id"]))  # its escrow goes to the balance: the ad takes no stock
    assert await refs(unpaid["id"]) == [f"p2p{unpaid['id']}:refund"]
    assert legal(api, merchant) == (D(900), D(0)) and legal(api, paying) == (D(100), D(0))
    mine = my_ads(api, merchant, status=3)[ad["id"]]
    assert (mine["stock"], mine["total"], mine["in_orders"], mine["sold"]) == ("0", "100", "0", "100")
    assert error(close_ad(api, merchant, ad["id"]), 409) == "This ad is closed"
    await steady(before)

    buy = post_ad(api, merchant, side=2, total="300")  # a buy ad: the taker's coins are the escrow
    sold = ok(open_order(api, taker, buy["id"], "40"))
    assert legal(api, taker) == (D(60), D(40))
    ok(close_ad(api, merchant, buy["id"]))
    assert legal(api, merchant) == (D(900), D(0))  # a buy ad locked nothing
    ok(act(api, merchant, "cancel", sold["id"]))  # the merchant buys: they may cancel
    assert legal(api, taker) == (D(100), D(0))
    assert await refs(sold["id"]) == sorted([f"p2p{sold['id']}:escrow", f"p2p{sold['id']}:refund"])
    assert my_ads(api, merchant, status=3)[buy["id"]]["total"] == "0"
    await steady(before)


async def test_the_market_shows_the_best_price_first_and_filters(api: httpx.Client, db: None) -> None:
    seller_a = await trader(api, legal={"ETH": "100"}, merchant=True)
    seller_b = await trader(api, legal={"ETH": "100"}, merchant=True)
    mine = {seller_a.uid, seller_b.uid}
    eth = {"currency_id": ETH, "total": "10", "min_fiat": "100", "max_fiat": "50000"}
    dear = post_ad(api, seller_a, price="2100.5", **eth)
    cheap = post_ad(api, seller_b, price="1999", **eth)
    middle = post_ad(api, seller_a, price="2000", **eth)
    in_usd = post_ad(api, seller_b, price="300", fiat="USD", **eth)
    buy_low = post_ad(api, seller_a, side=2, price="1800", **eth)
    buy_high = post_ad(api, seller_b, side=2, price="1900.01", **eth)
    tiny = post_ad(api, seller_b, price="5", total="10", currency_id=ETH)  # 10 ETH worth 50 CNY < 100: hidden

    ads = [a for a in market(api, "buy", currency_id=ETH, fiat="CNY") if a["merchant"]["uid"] in mine]
    assert [a["id"] for a in ads] == [cheap["id"], middle["id"], dear["id"]]  # a taker buys: cheapest first
    every = market(api, "buy")
    assert [D(a["price"]) for a in every if a["fiat"] == "CNY" and a["currency_id"] == ETH] == sorted(
        D(a["price"]) for a in every if a["fiat"] == "CNY" and a["currency_id"] == ETH
    )
    assert all(a["side"] == 1 and a["taker_side"] == "buy" for a in every)
    shown = ads[0]
    assert shown["merchant"] == {"uid": seller_b.uid, "nickname": f"m{seller_b.uid}", "orders_30d": 0,
                                 "completion_rate": "100.0"}  # fmt: skip
    assert {k: shown[k] for k in ("currency", "fiat", "price", "min_fiat", "max_fiat", "max_now", "stock", "methods",
                                  "window_min", "remarks", "status")} == {
        "currency": "ETH", "fiat": "CNY", "price": "1999", "min_fiat": "100", "max_fiat": "50000",
        "max_now": "19990", "stock": "10", "methods": ["alipay", "bank"], "window_min": 15,
        "remarks": "fast release", "status": 1}  # fmt: skip
    selling = [a["id"] for a in market(api, "sell", currency_id=ETH) if a["merchant"]["uid"] in mine]
    assert selling == [buy_high["id"], buy_low["id"]]  # a taker sells: dearest first
    assert all(a["side"] == 2 and a["taker_side"] == "sell" for a in market(api, "sell"))
    usd = [a["id"] for a in market(api, "buy", fiat="USD") if a["merchant"]["uid"] in mine]
    assert usd == [in_usd["id"]]
    assert in_usd["id"] not in listed(api, "buy", currency_id=USDT)
    assert tiny["id"] not in listed(api, "buy", currency_id=ETH)
    assert error(get(api, "legal/ads", params={"side": "both"}), 400)

    small = post_ad(api, seller_a, price="2000", total="0.1", min_fiat="100", max_fiat="5000", currency_id=ETH)
    assert small["id"] in listed(api, "buy")
    taker = await trader(api)
    order = ok(open_order(api, taker, small["id"], "0.06"))  # 0.04 ETH left: 80 CNY < 100
    assert small["id"] not in listed(api, "buy")
    ok(act(api, taker, "cancel", order["id"]))
    assert small["id"] in listed(api, "buy")  # the stock is back
