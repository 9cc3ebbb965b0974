"""Order bounds at the edge and in the pair (issue 10, defects 1 and 6): an order that cannot be
stored, priced absurdly or worth nothing is refused with a clear 400 before anything is held, a limit
price must lie in the band around the mark price, and one user may rest only so many orders."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import httpx
import pytest

from tests.utils.users import Member, error, member, ok
from tests.utils.wallets import ETH, USDT, balance, fund

BTC_USDT, ETH_USDT, ACB_USDT = 1, 2, 64


@pytest.fixture
async def trader(api: httpx.Client, db: None) -> Member:
    """A new user with 1 ETH, 1 BTC and 10,000 USDT."""
    user = member(api)
    for code, amount in (("ETH", "1"), ("BTC", "1"), ("USDT", "10000")):
        await fund(user, code, amount)
    return user


def test_an_order_too_big_to_store_is_refused_with_nothing_held(api: httpx.Client, trader: Member) -> None:
    alice = trader
    # The attack of the issue: 0.000001 ETH at 10,000,000,000 was accepted and failed its pair's batch.
    body = {"currency_match_id": ETH_USDT, "number": "0.000001", "price": "10000000000"}
    assert "at most 10000000" in error(api.post("tx_out/add", json=body, headers=alice.auth), 400)
    for price in ("1e999999999", "9" * 60, "1E+30"):
        body = {"currency_match_id": ETH_USDT, "number": "0.01", "price": price}
        assert "at most" in error(api.post("tx_out/add", json=body, headers=alice.auth), 400)
    for number in ("1e999999999", "1e20"):
        body = {"currency_match_id": ETH_USDT, "number": number, "price": "3500"}
        assert "quantity can be at most" in error(api.post("tx_out/add", json=body, headers=alice.auth), 400)
    for price in ("1e-999999999", "NaN", "-Infinity", "9" * 70):
        body = {"currency_match_id": ETH_USDT, "number": "0.01", "price": price}
        api_answer = api.post("tx_out/add", json=body, headers=alice.auth)
        assert api_answer.status_code == 400, (price, api_answer.text)
    market = {"currency_match_id": ETH_USDT, "kind": "market", "total": "1e40"}
    assert "at most" in error(api.post("tx_in/add", json=market, headers=alice.auth), 400)
    assert balance(api, alice, ETH) == (Decimal(1), Decimal(0))  # nothing was held by any of them


def test_an_order_worth_less_than_the_minimum_is_refused(api: httpx.Client, trader: Member) -> None:
    bob = trader
    tiny = {"currency_match_id": BTC_USDT, "number": "0.00001", "price": "60000"}  # 0.6 USDT
    assert error(api.post("tx_in/add", json=tiny, headers=bob.auth), 400) == "The order value must be at least 1 USDT"
    market = {"currency_match_id": BTC_USDT, "kind": "market", "total": "0.5"}
    assert "at least 1 USDT" in error(api.post("tx_in/add", json=market, headers=bob.auth), 400)
    assert balance(api, bob, USDT) == (Decimal(10000), Decimal(0))


def test_a_limit_price_far_from_the_mark_is_refused_with_the_band(api: httpx.Client, trader: Member) -> None:
    carol = trader
    mark = Decimal(ok(api.get("market/mark", params={"currency_match_id": BTC_USDT}))["price"])
    low, high = mark / 5, mark * 5
    below = {"currency_match_id": BTC_USDT, "number": "0.001", "price": str((low * Decimal("0.9")).quantize(1))}
    message = error(api.post("tx_in/add", json=below, headers=carol.auth), 400)
    assert message.startswith("The price must be between") and "around the market price" in message
    shown = [Decimal(part.strip(",")) for part in message.split() if part.strip(",").replace(".", "").isdigit()]
    assert shown[0] == low.quantize(Decimal("0.0001"), "ROUND_UP") and shown[1] == high.quantize(Decimal("0.0001"),
                                                                                                  "ROUND_DOWN")  # fmt: skip
    above = {"currency_match_id": BTC_USDT, "number": "0.0001", "price": str((high * Decimal("1.1")).quantize(1))}
    assert "between" in error(api.post("tx_out/add", json=above, headers=carol.auth), 400)
    inside = {"currency_match_id": BTC_USDT, "number": "0.001", "price": str((low * Decimal("1.1")).quantize(1))}
    placed = ok(api.post("tx_in/add", json=inside, headers=carol.auth))
    ok(api.post("tx_in/cancel", json={"id": placed["id"]}, headers=carol.auth))


def test_a_user_rests_at_most_max_open_orders_on_a_pair(api: httpx.Client, trader: Member) -> None:
    dave, cap = trader, 200  # the pair's max_open_orders
    mark = Decimal(ok(api.get("market/mark", params={"currency_match_id": ACB_USDT}))["price"])
    prices = [(mark * Decimal("0.5") + Decimal("0.0001") * i).quantize(Decimal("0.0001")) for i in range(cap + 1)]

    def place(price: Decimal) -> httpx.Response:
        body = {"currency_match_id": ACB_USDT, "number": "20", "price": str(price)}
        return api.post("tx_in/add", json=body, headers=dave.auth)

    placed = [ok(place(p))["id"] for p in prices[:cap]]
    assert f"at most {cap} open orders" in error(place(prices[cap]), 400)
    ok(api.post("tx_in/cancel", json={"id": placed.pop()}, headers=dave.auth))
    placed.append(ok(place(prices[cap]))["id"])  # a cancel frees a place
    with ThreadPoolExecutor(8) as pool:
        cancelled = list(pool.map(lambda i: api.post("tx_in/cancel", json={"id": i}, headers=dave.auth), placed))
    assert all(answer.status_code == 200 for answer in cancelled)
    assert balance(api, dave, USDT) == (Decimal(10000), Decimal(0))


def test_the_bounds_are_in_the_openapi_document(api: httpx.Client) -> None:
    document = api.get("openapi.json").json()
    described = {path for path in document["paths"] if path.startswith("/api/market/")}
    assert {"/api/market/mark", "/api/market/ticks", "/api/market/tick_at"} <= described
    listing = ok(api.get("market/currency_matches"))
    btc = next(m for g in listing for m in g["matches"] if m["id"] == BTC_USDT)
    assert (btc["max_price"], btc["max_quantity"], btc["min_notional"], btc["price_band"]) == (
        "10000000", "1000000000", "1", "5")  # fmt: skip
    assert btc["max_open_orders"] == 200
