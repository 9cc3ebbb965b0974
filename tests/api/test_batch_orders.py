"""Batch orders (issue 15, part 2): tx/batch_add places up to 20 orders over any pairs with one
freeze call and one call per pair, tx/batch_cancel cancels up to 20; each order succeeds or fails
alone, with the code and message its own call would give, and the answer lists them in order."""

from __future__ import annotations

from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import httpx
import pytest

from store.models import CurrencyMatch
from tests.utils.spot import (
    ACB_USDT,
    BTC_USDT,
    CENT,
    ETH_USDT,
    FIL_USDT,
    assert_locks_are_holds,
    batch,
    cancel,
    eventually,
    mark,
    order,
)
from tests.utils.users import Member, error, member, ok
from tests.utils.wallets import BTC, ETH, USDT, balance, fund, system_totals


@pytest.fixture
async def alice(api: httpx.Client, db: None) -> Member:
    """A new user with 1 BTC, 2 ETH and 10,000 USDT."""
    user = member(api)
    for code, amount in (("BTC", "1"), ("ETH", "2"), ("USDT", "10000")):
        await fund(user, code, amount)
    return user


@pytest.fixture
async def bob(api: httpx.Client, db: None) -> Member:
    """A new user with 1 ETH and 100,000 USDT."""
    user = member(api)
    for code, amount in (("ETH", "1"), ("USDT", "100000")):
        await fund(user, code, amount)
    return user


async def test_a_mixed_batch_over_two_pairs_trades_and_keeps_every_sum(
    api: httpx.Client, alice: Member, bob: Member, quiet_books: None
) -> None:
    before = await system_totals()
    eth, btc = mark(api, ETH_USDT), mark(api, BTC_USDT)
    low = (eth * Decimal("0.6")).quantize(CENT)
    asks = batch(api, alice, [order("sell", ETH_USDT, "1", eth), order("sell", BTC_USDT, "0.1", btc),
                              order("buy", ETH_USDT, "0.5", low)])  # fmt: skip
    assert [r["code"] for r in asks] == [1, 1, 1] and {r["msg"] for r in asks} == {"Order placed"}
    assert [r["data"]["symbol"] for r in asks] == ["ETH/USDT", "BTC/USDT", "ETH/USDT"]
    assert [r["data"]["way"] for r in asks] == [2, 2, 1] and {r["data"]["status"] for r in asks} == {1}
    assert balance(api, alice, ETH) == (Decimal(1), Decimal(1))
    assert balance(api, alice, USDT) == (Decimal(10000) - low / 2, low / 2)

    # bob, in one call: spends half of alice's ETH ask at market, takes her BTC at her price, sells
    # 0.2 ETH into her bid at market, and rests a small bid of his own
    spend = eth / 2
    bids = batch(api, bob, [order("buy", ETH_USDT, kind="market", total=str(spend)),
                            order("buy", BTC_USDT, "0.1", btc),
                            order("sell", ETH_USDT, "0.2", kind="market"),
                            order("buy", ETH_USDT, "0.01", (eth * Decimal("0.5")).quantize(CENT))])  # fmt: skip
    assert [r["code"] for r in bids] == [1, 1, 1, 1], bids
    bought, taken, sold, rests = (r["data"] for r in bids)
    assert (bought["kind"], bought["status"], Decimal(bought["transacted_volume"])) == (2, 3, spend)
    assert Decimal(bought["transacted_amount"]) == Decimal("0.5")
    assert (taken["status"], taken["transacted_amount"]) == (3, "0.1")
    assert (sold["status"], sold["transacted_amount"], Decimal(sold["transacted_volume"])) == (3, "0.2", low / 5)
    assert rests["status"] == 1 and [bought["id"], taken["id"], sold["id"], rests["id"]] == sorted(
        [bought["id"], taken["id"], sold["id"], rests["id"]]
    )  # ids in request order

    def settled() -> None:
        assert_locks_are_holds(api, alice)
        assert_locks_are_holds(api, bob)

    eventually(settled)
    totals = await system_totals()
    assert {c: totals[c] for c in (USDT, BTC, ETH)} == {c: before[c] for c in (USDT, BTC, ETH)}  # fees included
    assert balance(api, alice, ETH)[1] == Decimal("0.5")  # half her ask rests
    assert balance(api, alice, USDT)[1] == low * Decimal("0.3")  # 0.3 of her bid rests
    assert balance(api, bob, USDT)[1] == (eth * Decimal("0.5")).quantize(CENT) * Decimal("0.01")

    ids = [asks[0]["data"]["id"], asks[2]["data"]["id"]]
    assert [(r["code"], r["msg"]) for r in cancel(api, alice, ids)] == [(1, "Order cancelled")] * 2
    assert balance(api, alice, ETH)[1] == 0 and balance(api, alice, USDT)[1] == 0
    cancel(api, bob, [rests["id"]])
    assert balance(api, bob, USDT)[1] == 0


@pytest.fixture
async def fil_closed(db: None) -> AsyncIterator[None]:
    """FIL/USDT closed to trading for the test (each replica's copy of the pairs follows within seconds)."""
    await CurrencyMatch.filter(id=FIL_USDT).update(open_change=False)
    yield
    await CurrencyMatch.filter(id=FIL_USDT).update(open_change=True)


def test_each_order_of_a_batch_fails_alone(api: httpx.Client, alice: Member, fil_closed: None) -> None:
    eth, btc = mark(api, ETH_USDT), mark(api, BTC_USDT)
    closed = {"currency_match_id": FIL_USDT, "number": "1", "price": "5"}
    eventually(lambda: _closed(api, alice, closed), timeout=15)
    results = batch(
        api,
        alice,
        [
            order("buy", BTC_USDT, "0.01", (btc * Decimal("0.5")).quantize(CENT)),
            order("buy", ETH_USDT, "abc", eth),
            order("buy", ETH_USDT, "0.1", "1.00001"),
            order("buy", FIL_USDT, "1", "5"),
            order("sell", ACB_USDT, "1", "1"),
            order("buy", ETH_USDT, "1000", eth),
            order("sell", ETH_USDT, "0.000001", "10000000000"),
            {"currency_match_id": ETH_USDT, "number": "1", "price": str(eth)},
            order("buy", 999, "1", "1"),
            order("buy", ETH_USDT, "0.0001", eth),
            "not an order",
            order("sell", ETH_USDT, "0.5", (eth * 2).quantize(CENT)),
        ],
    )
    assert [r["msg"] for r in results] == [
        "Order placed",
        "Please enter a quantity",
        "The price can have at most 4 decimal places",
        "Trading is not currently supported",
        "Selling is not currently supported on this pair",
        "Insufficient balance",
        "The price can be at most 10000000",
        "side is required",
        "Trading pair not found",
        "The order value must be at least 1 USDT",
        "request is invalid",
        "Order placed",
    ]
    assert [r["code"] for r in results] == [1] + [0] * 10 + [1]
    assert all(r["data"] is None for r in results[1:-1])
    assert results[-1]["data"]["way"] == 2 and results[-1]["data"]["currency_match_id"] == ETH_USDT
    assert balance(api, alice, ETH) == (Decimal("1.5"), Decimal("0.5"))
    assert_locks_are_holds(api, alice)
    # the same refusal in another language, as the single call gives it
    french = api.post("tx/batch_add", json={"orders": [order("buy", ETH_USDT, "1000", eth)]},
                      headers={**alice.auth, "lang": "fr"})  # fmt: skip
    single = api.post("tx_in/add", json=order("buy", ETH_USDT, "1000", eth), headers={**alice.auth, "lang": "fr"})
    assert french.json()["data"]["results"][0]["msg"] == error(single, 400)
    ids = [results[0]["data"]["id"], results[-1]["data"]["id"]]
    ok(api.post("tx/batch_cancel", json={"ids": ids}, headers=alice.auth))
    assert_locks_are_holds(api, alice)
    assert balance(api, alice, ETH) == (Decimal(2), Decimal(0))


def _closed(api: httpx.Client, m: Member, body: dict[str, Any]) -> None:
    assert error(api.post("tx_in/add", json=body, headers=m.auth), 400) == "Trading is not currently supported"


def test_a_batch_bad_as_a_whole_is_refused(api: httpx.Client, alice: Member) -> None:
    one = order("buy", ETH_USDT, "0.01", "1000")
    assert error(api.post("tx/batch_add", json={"orders": [one] * 21}, headers=alice.auth), 400) == (
        "A batch holds 1 to 20 orders"
    )
    assert error(api.post("tx/batch_add", json={"orders": []}, headers=alice.auth), 400)
    assert error(api.post("tx/batch_add", json={"orders": one}, headers=alice.auth), 400)
    assert error(api.post("tx/batch_add", json={}, headers=alice.auth), 400)
    assert error(api.post("tx/batch_add", json={"orders": [one]}), 401, 999)
    assert error(api.post("tx/batch_cancel", json={"ids": list(range(1, 22))}, headers=alice.auth), 400) == (
        "A batch holds 1 to 20 order ids"
    )
    assert error(api.post("tx/batch_cancel", json={"ids": []}, headers=alice.auth), 400)
    assert error(api.post("tx/batch_cancel", json={"ids": ["x"]}, headers=alice.auth), 400)
    assert error(api.post("tx/batch_cancel", json={"ids": [1]}), 401, 999)
    assert balance(api, alice, USDT) == (Decimal(10000), Decimal(0))
    document = api.get("openapi.json").json()["paths"]
    assert {"/api/tx/batch_add", "/api/tx/batch_cancel"} <= set(document)


def test_batch_cancel_answers_each_id_alone_in_order(api: httpx.Client, alice: Member, bob: Member) -> None:
    eth, btc = mark(api, ETH_USDT), mark(api, BTC_USDT)
    mine = batch(api, alice, [order("buy", ETH_USDT, "0.1", (eth * Decimal("0.5")).quantize(CENT)),
                              order("sell", BTC_USDT, "0.1", btc),
                              order("sell", ETH_USDT, "0.1", (eth * 2).quantize(CENT))])  # fmt: skip
    theirs = batch(api, bob, [order("buy", ETH_USDT, "0.1", (eth * Decimal("0.5")).quantize(CENT))])
    # bob's BTC has nowhere to come from: alice's BTC ask is taken by a market buy of bob's
    filled = batch(api, bob, [order("buy", BTC_USDT, kind="market", total=str(btc / 10))])
    assert filled[0]["data"]["transacted_amount"] == "0.1"
    ids = [mine[0]["data"]["id"], mine[1]["data"]["id"], theirs[0]["data"]["id"], 10**15, mine[2]["data"]["id"]]
    results = ok(api.post("tx/batch_cancel", json={"ids": ids}, headers=alice.auth))["results"]
    assert [(r["code"], r["msg"]) for r in results] == [
        (1, "Order cancelled"),
        (0, "The order is no longer open"),
        (0, "Order not found"),
        (0, "Order not found"),
        (1, "Order cancelled"),
    ]
    assert results[0]["data"]["status"] == 4 and results[4]["data"]["id"] == ids[4]
    again = ok(api.post("tx/batch_cancel", json={"ids": [ids[0]]}, headers=alice.auth))["results"]
    assert again == [{"code": 0, "msg": "The order is no longer open", "data": None}]
    eventually(lambda: assert_locks_are_holds(api, alice))
    assert balance(api, alice, USDT)[1] == 0 and balance(api, alice, ETH)[1] == 0
    assert balance(api, bob, USDT)[1] == (eth * Decimal("0.5")).quantize(CENT) * Decimal("0.1")  # his, untouched
    ok(api.post("tx/batch_cancel", json={"ids": [ids[2]]}, headers=bob.auth))
