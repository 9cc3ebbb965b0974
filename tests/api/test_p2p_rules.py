"""The P2P market's every call, transition, rule and refusal through the API (docs/decisions.md
"Peer-to-peer market"): merchants applying and deciding, ads and their stock lock, the market's list,
opening orders, the payment window and the Scheduler's sweep, the daily cancellation limit, every
action in a state that does not allow it and by a party that may not take it, appeals and their
resolution (CLI and store), the order lists and pages, the LEGAL_ORDER push and the operator's
commands.

After every step that moves coins, each legal lock equals its escrow plus its sell ads' stock
(``legal_lock_matches``) and the system's totals are what they were: P2P only moves coins between
users' legal accounts. Every refusal is code 0 with its HTTP status and its English message (the
translations are checked by tests/unit/test_i18n.py).

"Now" for the API is the session Scheduler's clock (real time plus an offset in Redis that the API
reads on every call). Tests that need time to pass move that offset (``Clocks.api_at``), leaving the
session Scheduler itself on real time, and move their own sweeping Scheduler (``sweep``) with it
(``Clocks.at``), so the payment windows end when the test says.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis
from tortoise.expressions import F
from websockets.asyncio.client import connect

from config.settings import Settings
from serve.stack import Stack
from store import scheduler
from store.cache import connect_redis
from store.earn import clock
from store.errors import DomainError, ErrorCode
from store.models import (
    Account,
    AccountLog,
    AccountType,
    AuditLog,
    P2PAd,
    P2PEvent,
    P2POrder,
    PayMethod,
    RealName,
    ReviewStatus,
)
from store.p2p import merchants, orders
from tests.utils.cli import exchange, exchange_ok
from tests.utils.p2p import (
    DEAL,
    LEGAL,
    act,
    ad_body,
    apply_merchant,
    detail,
    legal_lock_matches,
    now_ms,
    open_order,
    post_ad,
    trader,
)
from tests.utils.push import next_of
from tests.utils.sales import DAY_MS, Sweeper, get, post
from tests.utils.users import Member, error, member, ok, unique_mobile
from tests.utils.wallets import BTC, ETH, USDT, balance, system_totals

D = Decimal
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(64)
MINUTE_MS = 60_000

NOT_UNPAID = "Only an unpaid order can be marked paid or cancelled"
NOT_PAID = "Only a paid order can be released or appealed"
BUYER_ONLY, SELLER_ONLY = "Only the buyer can do this", "Only the seller can do this"
NOT_FOUND = "Order not found"
REAL_NAME_FIRST = "Complete real-name authentication first"
CANCEL_LIMIT = "You cancelled 3 orders today; you can buy again after 00:00 UTC"


# --- helpers ----------------------------------------------------------------------------------------


async def steady(before: dict[int, Decimal]) -> None:
    """The invariant holds and no coin appeared or vanished."""
    assert await legal_lock_matches() == {}
    assert await system_totals() == before


def legal(api: httpx.Client, m: Member, currency: int = USDT) -> tuple[Decimal, Decimal]:
    """(balance, lock) of the user's legal account."""
    return balance(api, m, currency, LEGAL)


def save_ad(api: httpx.Client, m: Member, **change: Any) -> httpx.Response:
    return api.post("shop/ad/save", json=ad_body(**change), headers=m.auth)


def edit_ad(api: httpx.Client, m: Member, ad: dict[str, Any], **change: Any) -> httpx.Response:
    """Save ``ad`` again with ``change``d fields (the fields an edit sends: all of them)."""
    fields = ("side", "currency_id", "fiat", "price", "min_fiat", "max_fiat", "total", "methods", "window_min",
              "remarks")  # fmt: skip
    return api.post("shop/ad/save", json={"id": ad["id"], **{k: ad[k] for k in fields}, **change}, headers=m.auth)


def my_ads(api: httpx.Client, m: Member, status: int = 0) -> dict[int, dict[str, Any]]:
    return {a["id"]: a for a in ok(api.get("shop/ads", params={"status": status}, headers=m.auth))}


def set_status(api: httpx.Client, m: Member, ad_id: int, status: int) -> httpx.Response:
    return api.post("shop/ad/status", json={"id": ad_id, "status": status}, headers=m.auth)


def close_ad(api: httpx.Client, m: Member, ad_id: int) -> httpx.Response:
    return api.post("shop/ad/close", json={"id": ad_id}, headers=m.auth)


def market(api: httpx.Client, side: str = "buy", **params: Any) -> list[dict[str, Any]]:
    """Every ad the market lists for a taker on ``side``, page after page, in the market's order."""
    found: list[dict[str, Any]] = []
    page = 1
    while True:
        data = ok(api.get("legal/ads", params={"side": side, "page": page, **params}))
        assert data["limit"] == 10 and len(data["list"]) <= 10
        found += data["list"]
        if page * data["limit"] >= data["total"]:
            assert len(found) == data["total"]
            return found
        page += 1


def listed(api: httpx.Client, side: str = "buy", **params: Any) -> list[int]:
    return [a["id"] for a in market(api, side, **params)]


def image(api: httpx.Client, m: Member) -> str:
    return ok(api.post("common/image_upload", files={"file": ("proof.png", PNG, "image/png")}, headers=m.auth))["url"]


def order_list(api: httpx.Client, m: Member, path: str, state: int = 0) -> list[dict[str, Any]]:
    return ok(api.get(path, params={"state": state}, headers=m.auth))["list"]


async def refs(order_id: int) -> list[str]:
    """The ledger refs written for an order, sorted (each appears once per batch it moved)."""
    return sorted(await AccountLog.filter(ref__startswith=f"p2p{order_id}:").values_list("ref", flat=True))


async def journal(order_id: int) -> list[tuple[int, int, int, str]]:
    rows = await P2PEvent.filter(order_id=order_id).order_by("seq").values_list("seq", "from_state", "to_state", "by")
    return [(int(s), int(f), int(t), str(b)) for s, f, t, b in rows]


async def state_of(order_id: int) -> int:
    return int((await P2POrder.get(id=order_id)).state)


@dataclass
class Clocks:
    """The API's clock and the test's sweeping Scheduler's.

    ``api_at`` moves only the API's "now" (the session Scheduler's offset in Redis, read on every call;
    the session Scheduler itself keeps real time, so its own sweeps do not run ahead); ``at`` moves both
    to one moment, and when it returns the sweeps have run there (by the call's own pass or by one of
    the Scheduler's loop that saw the new clock first: which one did the work is not for tests to rely
    on, only that it is done)."""

    redis: Redis
    sweep: Sweeper

    async def api_at(self, moment_ms: int) -> None:
        await scheduler.set_clock_offset(self.redis, clock.SCHEDULER, moment_ms - now_ms())

    async def at(self, moment_ms: int) -> None:
        await self.api_at(moment_ms)
        await self.sweep.at(moment_ms)


@pytest.fixture
async def clocks(settings: Settings, sweep: Sweeper) -> AsyncIterator[Clocks]:
    redis = connect_redis(settings)
    try:
        yield Clocks(redis, sweep)
    finally:
        await scheduler.set_clock_offset(redis, clock.SCHEDULER, 0)  # the API back on real time
        await redis.aclose()


def tomorrow_at(hours: float) -> int:
    """A moment of the next UTC day: a test that counts a day's cancellations runs within one day."""
    return (now_ms() // DAY_MS + 1) * DAY_MS + int(hours * 3_600_000)


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
                       "completed": ([], []), "cancelled": ([], []), "appeal": ([], [])}  # fmt: skip


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
    assert seen["appeal"] == {"by": "buyer", "reason": "I paid but nothing was released", "images": mine[:3]}
    assert seen["events"][-1]["note"] == "I paid but nothing was released"
    assert detail(api, merchant, order["id"])["appeal"]["by"] == "buyer"
    assert error(act(api, merchant, "appeal", order["id"]), 409) == NOT_PAID  # once
    assert legal(api, merchant) == (D(0), D(1000)) and legal(api, buyer) == (D(0), D(0))  # the escrow stays
    await steady(before)

    second = ok(open_order(api, buyer, ad["id"], "50"))
    ok(act(api, buyer, "paid", second["id"]))
    by_seller = ok(act(api, merchant, "appeal", second["id"], reason="the money never arrived here"))
    assert by_seller["appeal"] == {"by": "seller", "reason": "the money never arrived here", "images": []}
    await steady(before)


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
