"""Spot trading through the API: alice and bob, funded by the ledger, trade BTC/USDT."""

from __future__ import annotations

from decimal import Decimal

import httpx
import pytest

from store.ledger import credit
from store.models import AccountType, Currency
from tests.utils.spot import eventually
from tests.utils.users import Member, error, member, ok

BTC_USDT = 1


async def fund(m: Member, code: str, amount: str) -> None:
    currency = await Currency.get(code=code)
    await credit(user_id=m.uid, currency=currency, account_type=AccountType.CHANGE, amount=Decimal(amount),
                 log_type="deposit", ref=f"test:{m.uid}:{code}:{amount}")  # fmt: skip


def balance(api: httpx.Client, m: Member, currency_id: int) -> tuple[Decimal, Decimal]:
    data = ok(api.get("account/detail", params={"currency_id": currency_id}, headers=m.auth))
    return Decimal(data["balance"]), Decimal(data["lock_balance"])


@pytest.fixture
async def traders(api: httpx.Client, db: None) -> tuple[Member, Member]:
    alice, bob = member(api), member(api)
    await fund(alice, "BTC", "2")
    await fund(bob, "USDT", "100000")
    return alice, bob


def test_crossing_orders_trade_and_settle_with_fees(api: httpx.Client, traders: tuple[Member, Member]) -> None:
    alice, bob = traders
    ask = ok(
        api.post(
            "tx_out/add", json={"currency_match_id": BTC_USDT, "number": "1", "price": "60000"}, headers=alice.auth
        )
    )
    assert ask["status"] == 1 and ask["transacted_amount"] == "0"
    assert balance(api, alice, 2) == (Decimal(1), Decimal(1))
    bid = ok(
        api.post("tx_in/add", json={"currency_match_id": BTC_USDT, "number": "1.5", "price": "60000"}, headers=bob.auth)
    )
    assert bid["transacted_amount"] == "1" and bid["status"] == 2  # partially filled, rests 0.5

    deal = ok(api.get("market/deal", params={"currency_match_id": BTC_USDT}))
    assert deal["tx_completes"][0]["price"] == "60000" and deal["tx_completes"][0]["amount"] == "1"
    assert deal["depth"]["in"][0] == {"price": "60000", "amount": "0.5", "index": 0}
    assert Decimal(deal["quotation"]["close"]) == Decimal(60000)

    # fees 0.2%: the buyer pays in BTC, the seller in USDT
    eventually(lambda: _assert(balance(api, bob, 2) == (Decimal("0.998"), Decimal(0))))
    eventually(lambda: _assert(balance(api, alice, 1) == (Decimal("59880"), Decimal(0))))
    assert balance(api, alice, 2) == (Decimal(1), Decimal(0))
    assert balance(api, bob, 1) == (Decimal(10000), Decimal(30000))  # 0.5 BTC at 60000 still held

    open_buys = ok(api.get("tx_in/list", params={"currency_match_id": BTC_USDT}, headers=bob.auth))
    assert open_buys["total"] == 1 and open_buys["data"][0]["id"] == bid["id"]
    assert ok(api.get("tx_in/list", headers=alice.auth))["total"] == 0  # nobody sees another's orders
    assert error(api.post("tx_in/cancel", json={"id": bid["id"]}, headers=alice.auth), 404)

    ok(api.post("tx_in/cancel", json={"id": bid["id"]}, headers=bob.auth))
    eventually(lambda: _assert(balance(api, bob, 1) == (Decimal(40000), Decimal(0))))
    history = ok(api.get("tx_history/list", headers=bob.auth))
    assert [o["status_name"] for o in history["data"]] == ["Cancelled"]
    assert history["data"][0]["transacted_amount"] == "1"
    assert ok(api.get("tx_history/list", headers=alice.auth))["data"][0]["status_name"] == "Filled"


def test_refusals_leave_balances_untouched(api: httpx.Client, traders: tuple[Member, Member]) -> None:
    alice, bob = traders
    too_much = api.post(
        "tx_in/add", json={"currency_match_id": BTC_USDT, "number": "10", "price": "60000"}, headers=bob.auth
    )
    assert error(too_much, 400) == "Insufficient balance"
    assert error(api.post("tx_in/add", json={"currency_match_id": BTC_USDT, "number": "1"}, headers=bob.auth), 400)
    assert "decimal" in error(api.post("tx_in/add", json={"currency_match_id": BTC_USDT, "number": "1", "price": "1.00001"},
                                       headers=bob.auth), 400)  # fmt: skip
    assert error(
        api.post("tx_out/add", json={"currency_match_id": 64, "number": "1", "price": "1"}, headers=alice.auth), 400
    )
    assert error(api.post("tx_in/add", json={"currency_match_id": BTC_USDT, "number": "1", "price": "1"}), 401, 999)
    assert balance(api, bob, 1) == (Decimal(100000), Decimal(0))


def test_market_data_endpoints(api: httpx.Client) -> None:
    bars = ok(api.get("market/kline", params={"currency_match_id": BTC_USDT, "period": "1min"}))
    assert isinstance(bars, list)
    assert error(api.get("market/kline", params={"currency_match_id": BTC_USDT, "period": "7min"}), 400)
    assert error(api.get("market/deal", params={"currency_match_id": 999}), 404)


def _assert(condition: bool) -> None:
    assert condition


def test_market_orders_fill_at_the_book_and_never_rest(api: httpx.Client, traders: tuple[Member, Member]) -> None:
    alice, bob = traders
    for price, number in (("61000", "0.5"), ("62000", "0.5")):
        ok(
            api.post(
                "tx_out/add", json={"currency_match_id": BTC_USDT, "number": number, "price": price}, headers=alice.auth
            )
        )
    # bob spends 46000 USDT: all of the first ask (30500) and half of the second (15500)
    bought = ok(api.post("tx_in/add", json={"currency_match_id": BTC_USDT, "kind": "market", "total": "46000"},
                         headers=bob.auth))  # fmt: skip
    assert bought["status"] == 3 and bought["transacted_amount"] == "0.75"
    assert Decimal(bought["transacted_volume"]) == Decimal("0.5") * 61000 + Decimal("0.25") * 62000
    eventually(lambda: _assert(balance(api, bob, 1) == (Decimal(100000) - Decimal(46000), Decimal(0))))
    assert ok(api.get("tx_in/list", headers=bob.auth))["total"] == 0  # nothing rests
    # a market sell into bob's empty bid side cancels untraded
    sold = ok(api.post("tx_out/add", json={"currency_match_id": BTC_USDT, "kind": "market", "number": "0.1"},
                       headers=alice.auth))  # fmt: skip
    assert sold["status"] in (3, 4)
    assert error(api.post("tx_in/add", json={"currency_match_id": BTC_USDT, "kind": "market"}, headers=bob.auth), 400)
    ok(api.post("tx_out/cancel", json={"id": ok(api.get("tx_out/list", headers=alice.auth))["data"][0]["id"]},
                headers=alice.auth))  # fmt: skip


async def test_cancelling_an_order_the_pair_just_filled_is_409_not_404(api: httpx.Client, db: None) -> None:
    """The route sees the order open, but the pair has already filled it and dropped it from its
    book: the answer is "no longer open" (409), as if the fill had landed a moment earlier."""
    from store.models import Order

    trader = member(api)
    gone = await Order.create(id=9_000_000_000 + trader.uid, user_id=trader.uid, currency_match_id=BTC_USDT, way=1,
                              price=Decimal(1), number=Decimal(1), frozen=Decimal(1))  # fmt: skip
    try:
        async with httpx.AsyncClient(base_url=api.base_url, timeout=30) as client:
            answer = await client.post("tx_in/cancel", json={"id": gone.id}, headers=trader.auth)
        error(answer, 409)
        unknown = {"id": gone.id + 1}
        async with httpx.AsyncClient(base_url=api.base_url, timeout=30) as client:
            error(await client.post("tx_in/cancel", json=unknown, headers=trader.auth), 404)
    finally:
        await gone.delete()  # an "open" row the pair never had must not outlive the test
