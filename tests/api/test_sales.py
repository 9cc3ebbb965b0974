"""Token sales (shoufa) through the API: the public lists and details, subscribing with USDT from the
financial account, every refusal with its translated message and status, and the close at the end
time run by a Scheduler's sweep whose clock the tests move: an oversubscribed sale allocated pro rata
in whole steps, each subscription refunded the rest of its lock, the tokens credited, the dust never
issued, the house's rows mirroring the users' side exactly."""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal
from fractions import Fraction
from math import floor
from typing import Any

import httpx
import pytest

from serve.i18n import translate
from store import ledger
from store.admin.audit import Actor
from store.earn import SALE_ISSUE, SALE_PROCEEDS, products, sales
from store.errors import DomainError, ErrorCode
from store.ledger import Change
from store.models import AccountLog, AccountType, Currency, HouseLedger, SaleSubscription, TokenSale
from store.money import money
from store.times import now_ms
from tests.utils.sales import (
    DAY_MS,
    FINANCIAL,
    HOUR_MS,
    Sweeper,
    financial_member,
    get,
    make_sale,
    post,
    totals,
)
from tests.utils.users import Member, error, ok
from tests.utils.wallets import USDT, balance

ACB = 15


def buy(api: httpx.Client, m: Member, sale_id: int, nums: Any, lang: str | None = None) -> httpx.Response:
    headers = {**m.auth, **({"lang": lang} if lang else {})}
    return post(api, "shoufa/buy", json={"id": sale_id, "nums": nums}, headers=headers)


async def test_the_lists_and_the_detail_are_public_with_every_field(api: httpx.Client, db: None) -> None:
    sale = await make_sale(total="1000", price="0.5", per_user_max="300")
    upcoming = await make_sale(starts_in_ms=DAY_MS, ends_in_ms=2 * DAY_MS)
    found = ok(get(api, "shoufa/info", params={"id": sale.id}))
    assert found == {
        "id": sale.id, "title": sale.title, "logo": "", "desc": "a sale for tests", "status": 0, "phase": "open",
        "total": "1000", "btime": sale.btime, "etime": sale.etime, "jindu": "0", "rengou": "0.5", "huodong": "ACB",
        "jieshou": "USDT", "cishu": 0, "shuliang": "0", "per_user_max": "300", "step": "0.000002",
        "min_amount": "1", "min_nums": "2", "allocated_at": None, "mine": None,
    }  # fmt: skip
    assert ok(get(api, "shoufa/info", params={"id": upcoming.id}))["phase"] == "upcoming"
    every = {s["id"]: s for s in ok(get(api, "shoufa/index", params={"type": 99}))}
    assert {sale.id, upcoming.id} <= set(every) and every[sale.id] == found
    assert {1, 2, 3} <= set(every)  # the seeded ones
    in_progress = ok(get(api, "shoufa/index", params={"type": 0}))
    assert sale.id in {s["id"] for s in in_progress} and all(s["status"] == 0 for s in in_progress)
    assert all(s["status"] == 1 for s in ok(get(api, "shoufa/index", params={"type": 1})))
    assert {s["id"] for s in ok(get(api, "shoufa/index"))} == set(every)  # type defaults to all

    assert error(get(api, "shoufa/index", params={"type": 5}), 400)
    assert error(get(api, "shoufa/index", params={"type": "x"}), 400)
    assert error(get(api, "shoufa/info", params={"id": 999_999}), 404) == "Token sale not found"
    for bad in ({}, {"id": 0}, {"id": "x"}, {"id": 2**40}):
        assert error(get(api, "shoufa/info", params=bad), 400)


async def test_a_subscription_locks_its_price_and_shows_as_mine(api: httpx.Client, db: None) -> None:
    sale = await make_sale(total="1000", price="0.5")
    alice = await financial_member(api, "1000")
    found = ok(buy(api, alice, sale.id, "100.5"))
    assert (found["cishu"], found["shuliang"], found["jindu"]) == (1, "100.5", "10.05")
    assert found["mine"] == {"nums": "100.5", "locked": "50.25", "allocated": "0", "cost": "0", "refunded": "0",
                             "status": 0}  # fmt: skip
    assert balance(api, alice, USDT, FINANCIAL) == (Decimal("949.75"), Decimal("50.25"))
    ok(buy(api, alice, sale.id, 20))  # a JSON number; a second subscription adds up
    mine = ok(get(api, "shoufa/info", params={"id": sale.id}, headers=alice.auth))["mine"]
    assert (mine["nums"], mine["locked"]) == ("120.5", "60.25")
    assert ok(get(api, "shoufa/info", params={"id": sale.id}))["mine"] is None  # logged out: nobody's
    log = await AccountLog.filter(user_id=alice.uid, log_type="shoufa").order_by("id").first()
    assert log is not None and (log.amount, log.lock_amount, log.account_type) == (
        Decimal("-50.25"), Decimal("50.25"), AccountType.FINANCIAL)  # fmt: skip
    assert f"token sale {sale.id}" in log.memo
    response = buy(api, alice, sale.id, "2")  # 1 USDT: the sale's minimum
    assert response.json()["msg"] == "Purchase successful"


async def test_refusals_are_clear_and_lock_nothing(api: httpx.Client, db: None) -> None:
    sale = await make_sale(total="1000", price="0.5", per_user_max="300")
    alice = await financial_member(api, "100")
    for nums in (None, "", "0", "-5", "abc", "NaN", "1e400", True):
        assert error(buy(api, alice, sale.id, nums), 400) == "Wrong purchase quantity", nums
    assert error(buy(api, alice, sale.id, [1]), 400)
    assert error(buy(api, alice, sale.id, "1.000000001"), 400) == "The amount can have at most 8 decimal places"
    assert error(buy(api, alice, sale.id, "1.000001"), 400) == "The quantity must be a multiple of 0.000002"
    assert error(buy(api, alice, sale.id, "301"), 400) == (
        "You can subscribe at most 300 in this sale; 300 more is possible")  # fmt: skip
    assert error(buy(api, alice, sale.id, "201"), 400) == "Insufficient balance"  # 100.5 USDT
    ok(buy(api, alice, sale.id, "200"))
    assert error(buy(api, alice, sale.id, "100.000002"), 400) == (
        "You can subscribe at most 300 in this sale; 100 more is possible")  # fmt: skip
    assert balance(api, alice, USDT, FINANCIAL) == (Decimal(0), Decimal(100))

    later = await make_sale(starts_in_ms=HOUR_MS, ends_in_ms=2 * HOUR_MS)
    assert error(buy(api, alice, later.id, "1"), 400) == "This token sale has not started yet"
    ended = await make_sale(starts_in_ms=-2 * HOUR_MS, ends_in_ms=-HOUR_MS)
    assert error(buy(api, alice, ended.id, "1"), 409) == "This token sale has ended"
    assert error(buy(api, alice, 999_999, "1"), 404) == "Token sale not found"
    for body in ({}, {"id": "x", "nums": "1"}, {"id": 0, "nums": "1"}, {"id": -1, "nums": "1"}):
        assert error(post(api, "shoufa/buy", json=body, headers=alice.auth), 400)
    assert error(post(api, "shoufa/buy", content=b"{", headers=alice.auth), 400)
    assert error(post(api, "shoufa/buy", json={"id": sale.id, "nums": "1"}), 401, 999)
    assert await SaleSubscription.filter(user_id=alice.uid).count() == 1


async def test_refusals_in_the_requested_language(api: httpx.Client, db: None) -> None:
    sale = await make_sale(price="0.5")
    alice = await financial_member(api, "1")
    for lang in ("hk", "jp", "gm", "fr"):
        for nums, english in (("0", "Wrong purchase quantity"), ("100", "Insufficient balance")):
            assert error(buy(api, alice, sale.id, nums, lang), 400) == translate(english, lang)


async def test_an_oversubscribed_sale_is_allocated_pro_rata_with_refunds_and_dust_never_issued(
    api: httpx.Client, sweep: Sweeper
) -> None:
    """1000 ACB at 0.5 USDT; alice asks 1000, bob 600, carol 401 (2001 asked): each gets 1000/2001 of
    their ask rounded down to the step (0.000002 ACB, whose price is one micro-USDT), pays for exactly
    that and has the rest of the lock refunded; what the rounding leaves is never issued."""
    sale = await make_sale(total="1000", price="0.5")
    asks = {"alice": Decimal(1000), "bob": Decimal(600), "carol": Decimal(401)}
    people = {name: await financial_member(api, "1000") for name in asks}
    before = await totals()
    for name, nums in asks.items():
        ok(buy(api, people[name], sale.id, str(nums)))
    assert ok(get(api, "shoufa/info", params={"id": sale.id}))["jindu"] == "200.1"  # 2001 of 1000

    await sweep.at(sale.etime - 60_000)  # a minute before its end: it stays open
    assert (await TokenSale.get(id=sale.id)).status == 0
    await sweep.at(sale.etime + 1000)  # its end: closed, allocated and settled in that pass

    step, asked = Decimal("0.000002"), sum(asks.values())
    issued = Decimal(0)
    for name, ask in asks.items():
        allocated = (Decimal(1000) * ask / asked / step).to_integral_value(rounding=ROUND_DOWN) * step
        cost, lock = allocated * Decimal("0.5"), ask * Decimal("0.5")
        issued += allocated
        found = ok(get(api, "shoufa/info", params={"id": sale.id}, headers=people[name].auth))
        assert found["mine"] == {"nums": money(ask), "locked": money(lock), "allocated": money(allocated),
                                 "cost": money(cost), "refunded": money(lock - cost), "status": 1}, name  # fmt: skip
        assert balance(api, people[name], USDT, FINANCIAL) == (1000 - cost, 0)
        assert balance(api, people[name], ACB, FINANCIAL) == (allocated, 0)
    assert allocated == Decimal("200.399800")  # carol: 401 x 1000 / 2001 = 200.3998000999... down to the step
    dust = Decimal(1000) - issued
    assert 0 < dust < 3 * step
    found = ok(get(api, "shoufa/info", params={"id": sale.id}))
    assert (found["status"], found["phase"]) == (1, "allocated")
    assert sale.etime <= found["allocated_at"] < sale.etime + 60_000  # the moved clock's now at the close
    assert sale.id in {s["id"] for s in ok(get(api, "shoufa/index", params={"type": 1}))}

    house = {kind: sum(await HouseLedger.filter(kind=kind, ref__startswith=f"sf{sale.id}:").values_list(
        "amount", flat=True), Decimal(0)) for kind in (SALE_PROCEEDS, SALE_ISSUE)}  # fmt: skip
    assert house == {SALE_PROCEEDS: issued * Decimal("0.5"), SALE_ISSUE: -issued}
    assert await totals() == before  # conservation per currency, house rows included

    # Nothing happens twice: the sweep again, the close again, each settlement again.
    await sweep.at(sale.etime + 2 * HOUR_MS)
    assert not await sales.close(sale.id, sale.etime + 3 * HOUR_MS)
    row = await TokenSale.get(id=sale.id).prefetch_related("huodong", "jieshou")
    for sub in await SaleSubscription.filter(sale_id=sale.id):
        assert sub.status == 1 and not await sales.settle(sub, row)
    assert await totals() == before
    assert error(buy(api, people["alice"], sale.id, "1"), 409) == "This token sale has ended"


async def test_an_undersubscribed_sale_gives_everyone_all_they_asked(api: httpx.Client, sweep: Sweeper) -> None:
    sale = await make_sale(total="1000", price="0.04")
    alice, bob = await financial_member(api, "100"), await financial_member(api, "100")
    before = await totals()
    ok(buy(api, alice, sale.id, "250"))
    ok(buy(api, bob, sale.id, "125.5"))
    await sweep.at(sale.etime)
    for m, tokens in ((alice, "250"), (bob, "125.5")):
        mine = ok(get(api, "shoufa/info", params={"id": sale.id}, headers=m.auth))["mine"]
        assert (mine["allocated"], mine["refunded"], mine["status"]) == (tokens, "0", 1)
        assert balance(api, m, ACB, FINANCIAL) == (Decimal(tokens), 0)
        assert balance(api, m, USDT, FINANCIAL) == (100 - Decimal(tokens) * Decimal("0.04"), 0)
    assert await totals() == before


async def test_a_sale_nobody_subscribed_closes_with_nothing_to_settle(api: httpx.Client, sweep: Sweeper) -> None:
    sale = await make_sale()
    await sweep.at(sale.etime + 1)
    assert ok(get(api, "shoufa/info", params={"id": sale.id}))["phase"] == "allocated"
    status = (await sweep.status())["sweeps"]["sale_close"]
    assert status["error"] == "" and status["done"]["closed"] >= 1


async def test_an_operator_edit_racing_a_subscription_cannot_break_the_closes(
    api: httpx.Client, sweep: Sweeper
) -> None:
    """shoufa/buy reads the sale, then subscribes under the sale's lock. An operator's edit landing in
    between (the price and the accepted asset may change while nobody has subscribed) left a
    subscription locked at the old price and in the old asset but priced at the new: its cost passed
    its lock, the close raised, and the sweep, closing sales in the order of their ends, failed for
    every sale after it. The subscription now takes its terms from the locked row."""
    first = await make_sale(total="1000", price="0.5", ends_in_ms=HOUR_MS)
    later = await make_sale(total="1000", price="0.5", ends_in_ms=HOUR_MS + 60_000)
    alice, bob = await financial_member(api, "1000"), await financial_member(api, "1000")
    operator = Actor("test-operator", "cli")
    before = await totals()
    seen = await sales.get_sale(first.id)  # what the route read
    await products.edit("sale", first.id, {"rengou": "0.8"}, actor=operator)  # then the operator's edit
    await sales.subscribe(alice.uid, seen, Decimal(100), now_ms())
    ok(buy(api, bob, later.id, "100"))

    await sweep.at(later.etime + 1000)
    assert (await sweep.status())["sweeps"]["sale_close"]["error"] == ""
    for sale in (first, later):
        assert ok(get(api, "shoufa/info", params={"id": sale.id}))["phase"] == "allocated", sale.id
    (sub,) = await SaleSubscription.filter(sale_id=first.id)
    assert (sub.price, sub.locked, sub.cost, sub.refunded, sub.status) == (Decimal("0.8"), 80, 80, 0, 1)
    assert balance(api, alice, USDT, FINANCIAL) == (920, 0)  # 100 ACB at the price the sale was sold at
    assert balance(api, alice, ACB, FINANCIAL) == (100, 0)
    assert balance(api, bob, USDT, FINANCIAL) == (950, 0)
    assert await totals() == before

    # The accepted asset changed under a subscription: it locks the new asset (alice has no MVBT). Its end
    # is past the sweeping scheduler's moved clock, which goes on sweeping.
    third = await make_sale(total="1000", price="0.5", ends_in_ms=4 * HOUR_MS)
    seen = await sales.get_sale(third.id)
    await products.edit("sale", third.id, {"jieshou": "MVBT"}, actor=operator)
    with pytest.raises(DomainError) as refused:
        await sales.subscribe(alice.uid, seen, Decimal(100), now_ms())
    assert refused.value.code == ErrorCode.INSUFFICIENT_BALANCE
    assert not await SaleSubscription.filter(sale_id=third.id).exists()
    assert balance(api, alice, USDT, FINANCIAL) == (920, 0)


async def test_a_sale_whose_close_fails_holds_no_other_back_and_closes_once_it_can(
    api: httpx.Client, sweep: Sweeper
) -> None:
    """Each sale's close is a job of its own: one that fails (here a subscription whose price passed
    what it locked, as the edit race left them) is retried with its own backoff while the others close
    and settle; once the row is put right, a later pass closes it."""
    broken = await make_sale(total="1000", price="0.5", ends_in_ms=HOUR_MS)
    fine = await make_sale(total="1000", price="0.5", ends_in_ms=HOUR_MS + 60_000)
    alice, bob = await financial_member(api, "1000"), await financial_member(api, "1000")
    ok(buy(api, alice, broken.id, "100"))
    ok(buy(api, bob, fine.id, "100"))
    before = await totals()
    await SaleSubscription.filter(sale_id=broken.id).update(price=Decimal("0.8"))  # costs 80, locked 50

    await sweep.at(fine.etime + 1000)
    assert ok(get(api, "shoufa/info", params={"id": fine.id}))["phase"] == "allocated"
    assert balance(api, bob, ACB, FINANCIAL) == (100, 0) and balance(api, bob, USDT, FINANCIAL) == (950, 0)
    assert ok(get(api, "shoufa/info", params={"id": broken.id}))["status"] == 0  # not allocated
    status = (await sweep.status())["sweeps"]["sale_close"]
    assert "locked 50" in status["failing"][str(broken.id)] and str(fine.id) not in status["failing"]
    assert balance(api, alice, USDT, FINANCIAL) == (950, 50)  # its lock untouched

    await SaleSubscription.filter(sale_id=broken.id).update(price=Decimal("0.5"))  # put right
    await sweep.at(fine.etime + 2000)
    assert ok(get(api, "shoufa/info", params={"id": broken.id}))["phase"] == "allocated"
    assert balance(api, alice, ACB, FINANCIAL) == (100, 0) and balance(api, alice, USDT, FINANCIAL) == (950, 0)
    assert (await sweep.status())["sweeps"]["sale_close"]["failing"] == {}
    assert await totals() == before


async def test_thousands_of_subscriptions_are_allocated_exactly_and_completely(
    api: httpx.Client, sweep: Sweeper
) -> None:
    """2,000 subscriptions of 1 to 20 USDT from 20 users (written as shoufa/buy writes them: the row,
    and its lock moved in the financial account) for 10,000 ACB at 0.5: each gets its exact share down
    to the step, pays for exactly that, has the rest refunded, and every one is settled by the pass."""
    sale = await make_sale(total="10000", price="0.5", ends_in_ms=HOUR_MS)
    users = [await financial_member(api, "25000") for _ in range(20)]
    before = await totals()
    usdt = await Currency.get(code="USDT")
    rows, asked = [], {m.uid: Decimal(0) for m in users}
    for i in range(2000):
        m, nums = users[i % 20], Decimal(2 * (i % 20 + 1))
        rows.append(SaleSubscription(sale_id=sale.id, user_id=m.uid, nums=nums, price=Decimal("0.5"), locked=nums / 2))
        asked[m.uid] += nums
    for m in users:
        lock = asked[m.uid] / 2
        await ledger.apply([Change(m.uid, usdt.id, AccountType.FINANCIAL, -lock, lock, "shoufa", f"sf-test:{m.uid}")])
    await SaleSubscription.bulk_create(rows)
    total_asked = sum(asked.values())
    await TokenSale.filter(id=sale.id).update(subscribed=total_asked, cishu=len(rows))

    await sweep.at(sale.etime + 1000)
    step, issued = Decimal("0.000002"), Decimal(0)
    subs = await SaleSubscription.filter(sale_id=sale.id)
    assert len(subs) == 2000 and all(s.status == 1 for s in subs)
    for sub in subs:
        share = Fraction(10000) * Fraction(sub.nums) / Fraction(total_asked)
        assert sub.allocated == Decimal(floor(share / Fraction(step))) * step, sub.id
        assert (sub.cost, sub.cost + sub.refunded) == (sub.allocated / 2, sub.locked)
        issued += sub.allocated
    assert 0 <= 10000 - issued < len(subs) * step
    for m in users:
        mine = [s for s in subs if s.user_id == m.uid]  # type: ignore[attr-defined]
        cost = sum((s.cost for s in mine), Decimal(0))
        assert balance(api, m, USDT, FINANCIAL) == (25000 - cost, 0)
        assert balance(api, m, ACB, FINANCIAL) == (sum((s.allocated for s in mine), Decimal(0)), 0)
    assert await totals() == before


BELOW_MIN = "The minimum subscription is {min} {currency}: at least {nums} {token} at this price"


async def test_a_subscription_below_the_sales_minimum_is_refused_naming_it(api: httpx.Client, db: None) -> None:
    """A sale takes subscriptions that lock at least its ``min_amount`` of the accepted asset (1 USDT
    unless the operator sets another): one of a few micro-USDT was accepted, and a close of millions
    of them was cheap to cause."""
    sale = await make_sale(total="1000", price="0.3")  # a step of 0.00001 ACB costs 3 micro-USDT
    alice = await financial_member(api, "100")
    found = ok(get(api, "shoufa/info", params={"id": sale.id}))
    assert (found["min_amount"], found["min_nums"], found["step"]) == ("1", "3.33334", "0.00001")
    below = BELOW_MIN.format(min="1", currency="USDT", nums="3.33334", token="ACB")
    for nums in ("0.00001", "3.33333"):  # one step, and 0.999999 USDT
        assert error(buy(api, alice, sale.id, nums), 400) == below, nums
    for lang in ("hk", "jp", "gm", "fr"):
        translated = translate(BELOW_MIN, lang, min="1", currency="USDT", nums="3.33334", token="ACB")
        assert error(buy(api, alice, sale.id, "1", lang), 400) == translated != below
    assert not await SaleSubscription.filter(sale_id=sale.id).exists()
    assert balance(api, alice, USDT, FINANCIAL) == (100, 0)
    ok(buy(api, alice, sale.id, "3.33334"))  # 1.000002 USDT

    await TokenSale.filter(id=sale.id).update(min_amount=Decimal(30))  # the operator raises it
    assert ok(get(api, "shoufa/info", params={"id": sale.id}))["min_nums"] == "100"
    refused = buy(api, alice, sale.id, "99.99999")
    assert error(refused, 400) == BELOW_MIN.format(min="30", currency="USDT", nums="100", token="ACB")
    ok(buy(api, alice, sale.id, "100"))
    assert balance(api, alice, USDT, FINANCIAL) == (Decimal("68.999998"), Decimal("31.000002"))
