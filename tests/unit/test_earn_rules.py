"""The pure rules of lock savings and mining: interest and yield rounding, the published daily rate,
the early-exit penalty (the spec's 3 days on 1000 -> 12), days as dates, and the day loop that books
each (order, day) once, in order, then matures."""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal

import pytest

from store.earn import HOUSE_KINDS, LOG_TYPES, clock, lock, mining
from store.earn.book import catch_up, floor
from store.models import EarnStatus

D = Decimal


def test_lock_interest_is_the_annual_rate_over_365_days_rounded_down() -> None:
    assert lock.daily_interest(D(100), D(5), 6) == D("0.013698")  # 0.0136986...
    assert lock.daily_interest(D(1000), D("36.5"), 2) == D("1")
    assert lock.daily_interest(D("0.01"), D(1), 6) == D(0)  # below the smallest unit: nothing
    assert lock.expected_interest(D(100), D(5), 7, 6) == D("0.095886")  # every day the same
    assert lock.expected_interest(D(500), D(8), 30, 6) == D("0.109589") * 30


def test_mining_penalty_is_the_ratio_times_remaining_days_times_the_principal() -> None:
    assert mining.penalty_of(D(1000), D("0.4"), 3, 6) == D(12)  # the spec's example
    assert mining.penalty_of(D(1000), D("0.4"), 5, 6) == D(20)
    assert mining.penalty_of(D(1000), D("0.4"), 0, 6) == D(0)
    assert mining.penalty_of(D("333.333333"), D("0.4"), 1, 6) == D("1.333333")  # rounded down
    assert mining.penalty_of(D(100), D(50), 5, 6) == D(100)  # never more than the principal


def test_a_day_yield_is_the_principal_times_the_daily_percent_rounded_down() -> None:
    assert mining.day_yield(D(1000), D("0.35"), 6) == D("3.5")
    assert mining.day_yield(D("123.456789"), D("0.3333"), 6) == D("0.411481")
    assert mining.day_yield(D(1), D("0.3"), 2) == D(0)
    assert mining.mid_yield(D("0.3"), D("0.4"), 5) == D("1.75")


def test_the_published_rate_is_derived_from_product_and_day_within_the_range() -> None:
    lo, hi = D("0.3"), D("0.4")
    rates = [mining.derived_rate(1, day, lo, hi) for day in range(20000, 20060)]
    assert all(lo <= r <= hi for r in rates)
    assert all(r == floor(r, mining.RATE_PLACES) for r in rates)  # 4 places of a percent
    assert len(set(rates)) > 30  # it moves from day to day
    assert rates == [mining.derived_rate(1, day, lo, hi) for day in range(20000, 20060)]  # anyone can recompute it
    assert mining.derived_rate(1, 20000, lo, hi) != mining.derived_rate(2, 20000, lo, hi)
    assert mining.derived_rate(3, 20000, D("0.5"), D("0.5")) == D("0.5")


def test_an_order_keeps_the_range_it_was_bought_with() -> None:
    assert mining.order_rate(D("0.45"), D("0.3"), D("0.4")) == D("0.4")
    assert mining.order_rate(D("0.2"), D("0.3"), D("0.4")) == D("0.3")
    assert mining.order_rate(D("0.35"), D("0.3"), D("0.4")) == D("0.35")


def test_days_are_utc_day_numbers_shown_as_dates() -> None:
    assert clock.day_of(0) == 0 and clock.day_of(clock.DAY_MS - 1) == 0 and clock.day_of(clock.DAY_MS) == 1
    assert clock.day_text(0) == "1970-01-01"
    assert clock.day_text(20089) == "2025-01-01"


def test_the_house_kinds_and_log_types_are_the_contracts() -> None:
    assert HOUSE_KINDS == ("earn_interest", "earn_penalty", "sale_proceeds", "sale_issue")
    assert LOG_TYPES == ("lock_savings", "mining", "shoufa", "listing")


@dataclass
class FakeOrder:
    id: int
    start_day: int
    end_day: int
    days_booked: int = 0
    status: EarnStatus = EarnStatus.ACTIVE


class FakeStore:
    """One order in memory; booking a day checks it is the next one, as the real write does."""

    def __init__(self, order: FakeOrder) -> None:
        self.order = order
        self.booked: list[int] = []
        self.matured = 0

    async def load(self) -> FakeOrder:
        return replace(self.order)

    async def book(self, seen: FakeOrder, day: int) -> bool:
        if self.order.status != EarnStatus.ACTIVE or self.order.days_booked != day - self.order.start_day - 1:
            return False  # stale
        self.booked.append(day)
        self.order.days_booked += 1
        return True

    async def mature(self, seen: FakeOrder) -> bool:
        if self.order.status != EarnStatus.ACTIVE:
            return False
        self.order.status = EarnStatus.ENDED
        self.matured += 1
        return True

    async def run(self, through: int) -> tuple[int, bool]:
        return await catch_up(self.load, self.book, self.mature, through)


async def test_the_day_loop_books_each_day_once_in_order_then_matures() -> None:
    store = FakeStore(FakeOrder(id=1, start_day=100, end_day=105))
    assert await store.run(100) == (0, False)  # the buy day earns nothing
    assert await store.run(102) == (2, False)
    assert await store.run(102) == (0, False)  # again: nothing repeats
    assert await store.run(110) == (3, True)  # days missed meanwhile, then the maturity
    assert await store.run(111) == (0, False)
    assert store.booked == [101, 102, 103, 104, 105]
    assert store.matured == 1


@pytest.mark.parametrize("through", [99, 100])
async def test_the_day_loop_books_nothing_before_the_first_day(through: int) -> None:
    store = FakeStore(FakeOrder(id=1, start_day=100, end_day=101))
    assert await store.run(through) == (0, False)
    assert store.booked == []


async def test_the_day_loop_leaves_an_ended_order_alone() -> None:
    store = FakeStore(FakeOrder(id=1, start_day=100, end_day=105, days_booked=2, status=EarnStatus.CANCELLED))
    assert await store.run(110) == (0, False)
    assert store.booked == [] and store.matured == 0
