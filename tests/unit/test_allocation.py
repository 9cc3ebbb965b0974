"""The pro-rata rules of token sales and listing applications (store/earn/allocation.py): nothing
issued beyond the supply, no one given more than they asked, every lock split exactly into cost and
refund, the same answer from the stored rows in any order, and all asks met when they fit."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from store.earn.allocation import (
    Application,
    Subscription,
    allocate_listing,
    allocate_sale,
    is_whole,
    least_tokens,
    sale_lock,
    step,
)

PRICES = st.sampled_from(["0.05", "0.1", "0.3", "0.5", "1", "2", "0.0123", "7.77", "0.000001", "12345.6789"]).map(
    Decimal
)
PLACES = st.sampled_from([(8, 6), (6, 6), (2, 6), (0, 6), (8, 2), (18, 8)])  # (token places, asset places)


def _decimal(units: int, places: int) -> Decimal:
    return Decimal(units).scaleb(-places)


@st.composite
def sales(draw: st.DrawFn) -> tuple[Decimal, list[Subscription], int, int]:
    """A sale's supply and subscriptions of whole steps at its price (sometimes one at an older price)."""
    token_places, asset_places = draw(PLACES)
    price = draw(PRICES)
    unit = step(price, token_places, asset_places)
    total = unit * draw(st.integers(0, 10**7))
    subs = []
    for n in range(draw(st.integers(0, 12))):
        sub_price = price if draw(st.booleans()) else draw(PRICES)
        steps = draw(st.integers(1, 10**7))
        nums = step(sub_price, token_places, asset_places) * steps
        subs.append(Subscription(n + 1, nums, sub_price, sale_lock(nums, sub_price)))
    return total, subs, token_places, asset_places


@given(sales())
def test_a_sale_never_issues_more_than_its_supply_and_splits_every_lock_exactly(
    sale: tuple[Decimal, list[Subscription], int, int],
) -> None:
    total, subs, token_places, asset_places = sale
    found = allocate_sale(total, subs, token_places=token_places, asset_places=asset_places)
    assert found.issued == sum((line.allocated for line in found.lines), Decimal(0)) <= total
    assert found.dust >= 0 and found.issued + found.dust == min(total, found.asked)
    for sub, line in zip(subs, found.lines, strict=True):
        assert line.id == sub.id
        assert 0 <= line.allocated <= sub.nums
        assert is_whole(line.allocated, step(sub.price, token_places, asset_places))
        assert line.cost == line.allocated * sub.price  # the user pays for exactly what they got
        assert line.cost + line.refund == sub.locked and line.refund >= 0
        assert is_whole(line.cost, _decimal(1, asset_places)) and is_whole(line.allocated, _decimal(1, token_places))
    assert found.proceeds == sum((line.cost for line in found.lines), Decimal(0))


@given(sales(), st.randoms())
def test_recomputing_a_sale_from_its_stored_rows_in_any_order_gives_the_same_answer(
    sale: tuple[Decimal, list[Subscription], int, int], rng: object
) -> None:
    total, subs, token_places, asset_places = sale
    first = allocate_sale(total, subs, token_places=token_places, asset_places=asset_places)
    shuffled = list(subs)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    again = allocate_sale(total, shuffled, token_places=token_places, asset_places=asset_places)
    assert sorted(again.lines, key=lambda line: line.id) == list(first.lines)
    assert (again.issued, again.dust, again.proceeds) == (first.issued, first.dust, first.proceeds)


@given(sales())
def test_an_undersubscribed_sale_gives_everyone_all_they_asked(
    sale: tuple[Decimal, list[Subscription], int, int],
) -> None:
    _, subs, token_places, asset_places = sale
    asked = sum((s.nums for s in subs), Decimal(0))
    found = allocate_sale(asked, subs, token_places=token_places, asset_places=asset_places)  # exactly full
    assert [line.allocated for line in found.lines] == [s.nums for s in subs]
    assert all(line.refund == 0 for line in found.lines) and found.dust == 0
    more = allocate_sale(asked + 1, subs, token_places=token_places, asset_places=asset_places)
    assert more.lines == found.lines and more.dust == 0


@given(sales())
def test_an_oversubscribed_sale_leaves_less_than_a_step_per_subscription_as_dust(
    sale: tuple[Decimal, list[Subscription], int, int],
) -> None:
    total, subs, token_places, asset_places = sale
    found = allocate_sale(total, subs, token_places=token_places, asset_places=asset_places)
    if found.asked > total:
        for sub, line in zip(subs, found.lines, strict=True):
            share = Fraction(total) * Fraction(sub.nums) / Fraction(found.asked)
            assert share - Fraction(step(sub.price, token_places, asset_places)) < line.allocated <= share
        assert found.dust < sum((step(s.price, token_places, asset_places) for s in subs), Decimal(0))


def test_the_worked_example_in_decisions_md() -> None:
    """1000 tokens at 0.5 USDT; alice asks 1000, bob 600, carol 400 (2000 asked): half each, no dust."""
    subs = [Subscription(1, Decimal(1000), Decimal("0.5"), Decimal(500)),
            Subscription(2, Decimal(600), Decimal("0.5"), Decimal(300)),
            Subscription(3, Decimal(400), Decimal("0.5"), Decimal(200))]  # fmt: skip
    found = allocate_sale(Decimal(1000), subs, token_places=8, asset_places=6)
    assert [(line.allocated, line.cost, line.refund) for line in found.lines] == [
        (500, 250, 250), (300, 150, 150), (200, 100, 100)]  # fmt: skip
    # three equal asks of 1 token for 1 token, 0 places: 1/3 each rounds down to 0; the token stays unissued
    thirds = [Subscription(n, Decimal(1), Decimal(2), Decimal(2)) for n in (1, 2, 3)]
    found = allocate_sale(Decimal(1), thirds, token_places=0, asset_places=6)
    assert [line.allocated for line in found.lines] == [0, 0, 0] and found.dust == 1
    assert [line.refund for line in found.lines] == [2, 2, 2]


def test_the_step_makes_the_cost_of_every_allocation_exact() -> None:
    assert step(Decimal("0.5"), 8, 6) == Decimal("0.000002")  # 2e-6 tokens cost 1e-6 USDT
    assert step(Decimal("0.3"), 8, 6) == Decimal("0.00001")  # 1e-5 tokens cost 3e-6 USDT
    assert step(Decimal(2), 8, 6) == Decimal("0.0000005")  # half a micro-token costs 1e-6 USDT
    assert step(Decimal("0.000001"), 2, 6) == 1  # a micro-USDT a token: whole tokens
    assert step(Decimal("0.0000001"), 0, 6) == Decimal(10)  # a tenth of a micro-USDT a token: 10 at a time


@given(PRICES, PLACES, st.integers(1, 10**12))
def test_the_least_subscription_is_the_fewest_steps_that_cost_the_minimum(
    price: Decimal, places: tuple[int, int], units: int
) -> None:
    token_places, asset_places = places
    least, unit = _decimal(units, asset_places), step(price, token_places, asset_places)
    tokens = least_tokens(least, price, unit)
    assert is_whole(tokens, unit) and sale_lock(tokens, price) >= least
    assert tokens == unit or sale_lock(tokens - unit, price) < least


# -- listing applications ------------------------------------------------------------------------------


@st.composite
def listings(draw: st.DrawFn) -> tuple[Decimal, list[Application], int, int]:
    token_places, asset_places = draw(PLACES)
    price = draw(PRICES)
    remaining = _decimal(draw(st.integers(0, 10**12)), token_places)
    apps = [Application(n + 1, _decimal(draw(st.integers(1, 10**12)), asset_places), price)
            for n in range(draw(st.integers(0, 12)))]  # fmt: skip
    return remaining, apps, token_places, asset_places


@given(listings())
def test_a_listing_never_gives_more_than_remains_and_splits_every_lock_exactly(
    listing: tuple[Decimal, list[Application], int, int],
) -> None:
    remaining, apps, token_places, asset_places = listing
    lines = allocate_listing(remaining, apps, token_places=token_places, asset_places=asset_places)
    assert sum((line.won_tokens for line in lines), Decimal(0)) <= remaining
    for app, line in zip(apps, lines, strict=True):
        assert line.id == app.id and line.won == (line.won_tokens > 0)
        assert line.won_usdt == line.won_tokens * app.price <= app.nums  # paid for exactly what was won
        assert line.won_usdt + line.rest == app.nums and line.rest >= 0
        assert is_whole(line.won_usdt, _decimal(1, asset_places)) and is_whole(
            line.won_tokens, _decimal(1, token_places)
        )
    again = allocate_listing(remaining, list(reversed(apps)), token_places=token_places, asset_places=asset_places)
    assert sorted(again, key=lambda line: line.id) == list(lines)


@given(listings())
def test_an_undersubscribed_listing_gives_everyone_all_they_applied_for_to_a_step(
    listing: tuple[Decimal, list[Application], int, int],
) -> None:
    _, apps, token_places, asset_places = listing
    asked = sum((Fraction(a.nums) / Fraction(a.price) for a in apps), Fraction(0))
    room = Decimal(int(asked) + 1)  # more than everything asked
    for app, line in zip(apps, allocate_listing(room, apps, token_places=token_places, asset_places=asset_places),
                         strict=True):  # fmt: skip
        unit_cost = step(app.price, token_places, asset_places) * app.price
        assert line.rest < unit_cost  # all of it but less than one step's price


def test_a_listing_worked_example() -> None:
    """10000 tokens left at 0.5 USDT (5000 USDT of room); 4000 and 6000 USDT applied: 40 % and 60 %."""
    apps = [Application(1, Decimal(4000), Decimal("0.5")), Application(2, Decimal(6000), Decimal("0.5"))]
    lines = allocate_listing(Decimal(10000), apps, token_places=8, asset_places=6)
    assert [(line.won_tokens, line.won_usdt, line.rest) for line in lines] == [(4000, 2000, 2000), (6000, 3000, 3000)]


# -- the close's cost grows with the subscriptions, not with their square ------------------------------


class _CountedId(int):
    """A subscription id that counts how often it is compared or hashed."""

    seen = 0

    def __eq__(self, other: object) -> bool:
        _CountedId.seen += 1
        return int(self) == other

    def __hash__(self) -> int:
        _CountedId.seen += 1
        return int.__hash__(self)


def test_allocating_and_looking_up_every_subscription_is_linear_in_their_number() -> None:
    """The close allocates a sale and then finds each subscription's line: a scan per lookup made that
    quadratic (enough micro-USDT subscriptions kept a close past the Scheduler's run timeout).
    Counted, not timed: 3,000 subscriptions may cost a few operations each, not thousands."""
    n = 3000
    subs = [Subscription(_CountedId(i + 1), Decimal(i % 7 + 1), Decimal("0.5"), Decimal(i % 7 + 1) / 2)
            for i in range(n)]  # fmt: skip
    _CountedId.seen = 0
    found = allocate_sale(Decimal(5000), subs, token_places=8, asset_places=6)
    lines = [found.line(sub.id) for sub in subs]
    assert _CountedId.seen <= 10 * n, f"{_CountedId.seen} comparisons and hashes for {n} subscriptions"
    assert [line.id for line in lines] == [sub.id for sub in subs]
    assert found.issued + found.dust == 5000 and all(line.cost + line.refund == s.locked for s, line in
                                                      zip(subs, lines, strict=True))  # fmt: skip
