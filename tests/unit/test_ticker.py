"""The rolling 24 h ticker: change against 24 h ago, window edges, expiry, late trades, restore."""

from __future__ import annotations

import pickle
from datetime import UTC, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actors.market import CandleBook, Ticker24h
from actors.market.periods import DAY_MS, MINUTE_MS, ONE_MINUTE

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
HOUR_MS = 3_600_000


def at(text: str) -> int:
    """Milliseconds since the epoch of a UTC wall-clock time such as ``2024-03-10 12:34:56.789``."""
    return (datetime.fromisoformat(text).replace(tzinfo=UTC) - _EPOCH) // timedelta(milliseconds=1)


def D(value: str | int) -> Decimal:  # noqa: N802 - reads like the type
    return Decimal(value)


NOW = at("2024-03-10 12:34:56.789")


def test_change_is_against_a_trade_exactly_24_hours_ago() -> None:
    ticker = Ticker24h()
    ticker.on_trade(NOW - DAY_MS, D("100"), D("5"))  # yesterday's price, outside today's volume
    ticker.on_trade(NOW - HOUR_MS, D("112"), D("1"))
    ticker.on_trade(NOW - 1, D("110"), D("2"))
    assert ticker.snapshot(NOW) == {
        "close": D("110"),
        "change": D("10.00"),
        "high": D("112"),
        "low": D("110"),
        "volume": D("3"),
        "amount": D("332"),
    }


def test_the_last_trade_before_the_window_wins_over_older_ones() -> None:
    ticker = Ticker24h()
    ticker.on_trade(NOW - 3 * DAY_MS, D("50"), D("1"))
    ticker.on_trade(NOW - DAY_MS - 5 * MINUTE_MS, D("80"), D("1"))
    ticker.on_trade(NOW - 2 * HOUR_MS, D("100"), D("1"))
    assert ticker.snapshot(NOW)["change"] == D("25.00")


def test_with_no_trade_before_the_window_change_is_against_the_first_in_it() -> None:
    ticker = Ticker24h()
    ticker.on_trade(NOW - 2 * HOUR_MS, D("90"), D("1"))
    ticker.on_trade(NOW - HOUR_MS, D("120"), D("1"))
    ticker.on_trade(NOW - 23 * HOUR_MS, D("100"), D("1"))  # arrives last, yet is the window's first trade
    snap = ticker.snapshot(NOW)
    assert snap["close"] == D("120")  # the newest trade, not the last to arrive
    assert snap["change"] == D("20.00")
    assert (snap["high"], snap["low"], snap["volume"]) == (D("120"), D("90"), D("3"))


def test_change_rounds_half_up_to_two_places() -> None:
    ticker = Ticker24h()
    ticker.on_trade(NOW - DAY_MS, D("200"), D("1"))
    ticker.on_trade(NOW, D("200.01"), D("1"))  # +0.005 %
    assert ticker.snapshot(NOW)["change"] == D("0.01")
    ticker.on_trade(NOW + 1, D("199.99"), D("1"))  # -0.005 %
    assert ticker.snapshot(NOW + 1)["change"] == D("-0.01")
    ticker.on_trade(NOW + 2, D("200.006"), D("1"))  # +0.003 %
    assert str(ticker.snapshot(NOW + 2)["change"]) == "0.00"


def test_after_every_trade_expires_volume_is_zero_and_close_stays() -> None:
    ticker = Ticker24h()
    ticker.on_trade(NOW - HOUR_MS, D("100"), D("1"))
    ticker.on_trade(NOW, D("105"), D("2"))
    later = ticker.snapshot(NOW + 25 * HOUR_MS)
    assert later == {
        "close": D("105"),
        "change": D("0.00"),
        "high": D("105"),
        "low": D("105"),
        "volume": D("0"),
        "amount": D("0"),
    }
    assert ticker.snapshot(NOW + 365 * DAY_MS)["close"] == D("105")


def test_a_fresh_pair_quotes_zeros() -> None:
    assert set(Ticker24h().snapshot(NOW).values()) == {Decimal(0)}


def test_a_reused_minute_slot_keeps_its_price_as_the_reference() -> None:
    ticker = Ticker24h()
    start = at("2024-03-10 00:00")
    ticker.on_trade(start, D("100"), D("1"))
    # 1441 minutes later the same ring slot is taken over by a new minute
    ticker.on_trade(start + 1441 * MINUTE_MS, D("130"), D("1"))
    snap = ticker.snapshot(start + 1441 * MINUTE_MS + 30_000)
    assert (snap["change"], snap["volume"]) == (D("30.00"), D("1"))
    # a late trade whose slot a newer minute holds still counts as a reference if it is the newest such
    ticker.on_trade(start + 30_000, D("104"), D("7"))
    snap = ticker.snapshot(start + 1441 * MINUTE_MS + 30_000)
    assert (snap["change"], snap["volume"]) == (D("25.00"), D("1"))


def test_memory_stays_bounded_over_days_of_trades() -> None:
    ticker = Ticker24h()
    for minute in range(3 * 1440):
        ticker.on_trade(NOW + minute * MINUTE_MS, D(100 + minute % 7), D(1))
    assert len(ticker._ring) == 1441
    assert ticker.snapshot(NOW + (3 * 1440 - 1) * MINUTE_MS)["volume"] == D(1440)


def test_restore_from_one_minute_bars_gives_the_same_quotation() -> None:
    book, live = CandleBook(), Ticker24h()
    for i in range(300):
        ts = NOW - 30 * HOUR_MS + i * 6 * 60_000 + i
        price, qty = Decimal(1000 + (i * 37) % 101), Decimal(i % 5 + 1).scaleb(-1)
        book.on_trade(ts, price, qty)
        live.on_trade(ts, price, qty)
    restored = Ticker24h()
    restored.on_trade(NOW, D("1"), D("1"))  # state from before the restart is discarded
    restored.restore(book.bars(ONE_MINUTE, NOW - 2 * DAY_MS, NOW), live.snapshot(NOW)["close"])
    assert restored.snapshot(NOW) == live.snapshot(NOW)
    for ticker in (restored, live):  # and both carry on alike
        ticker.on_trade(NOW + 10, D("1200"), D("1"))
    assert restored.snapshot(NOW + 10) == live.snapshot(NOW + 10)


def test_restore_with_no_recent_bars_uses_the_last_price_as_reference() -> None:
    ticker = Ticker24h()
    ticker.restore([], D("100"))
    assert ticker.snapshot(NOW)["close"] == D("100")
    ticker.on_trade(NOW, D("105"), D("1"))
    assert ticker.snapshot(NOW)["change"] == D("5.00")


def test_trades_must_be_positive_decimals() -> None:
    ticker = Ticker24h()
    with pytest.raises(TypeError):
        ticker.on_trade(NOW, D("1"), 1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ticker.on_trade(NOW, D("-1"), D("1"))
    assert ticker.snapshot(NOW)["close"] == Decimal(0)


# --- property: the ring agrees with a brute-force window over every trade --------------------------

START = at("2024-03-08 00:00")


def _brute(stream: list[tuple[int, Decimal, Decimal]], now: int) -> dict[str, Decimal]:
    boundary = now // MINUTE_MS - 1440
    ordered = sorted(stream, key=lambda t: t[0])  # stable: ties stay in arrival order
    inside = [t for t in ordered if boundary < t[0] // MINUTE_MS <= now // MINUTE_MS]
    before = [t for t in ordered if t[0] // MINUTE_MS <= boundary]
    close = ordered[-1][1]
    reference = before[-1][1] if before else inside[0][1] if inside else None
    change = (close - reference) * 100 / reference if reference else Decimal(0)
    return {
        "close": close,
        "change": change.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP),
        "high": max((p for _, p, _ in inside), default=close),
        "low": min((p for _, p, _ in inside), default=close),
        "volume": sum((q for _, _, q in inside), Decimal(0)),
        "amount": sum((p * q for _, p, q in inside), Decimal(0)),
    }


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(START, START + 3 * DAY_MS),
            st.integers(1, 10**6).map(lambda n: Decimal(n).scaleb(-2)),
            st.integers(1, 10**4).map(lambda n: Decimal(n).scaleb(-3)),
        ),
        min_size=1,
        max_size=80,
    ),
    st.integers(0, 2 * DAY_MS),
)
def test_snapshot_matches_a_brute_force_window(stream: list[tuple[int, Decimal, Decimal]], after: int) -> None:
    ticker = Ticker24h()
    for ts, price, qty in stream:
        ticker.on_trade(ts, price, qty)
    now = max(ts for ts, _, _ in stream) + after
    assert ticker.snapshot(now) == _brute(stream, now)


def test_a_copy_taken_earlier_catches_up_with_the_minutes_traded_since() -> None:
    """A move's standby holds the ticker as it was when the tail began; the buckets of the minutes the
    tail's trades fell in, and the last trade, make it the moving actor's again: a day of minutes
    without shipping them."""
    ticker = Ticker24h()
    for minute in range(0, 1500, 7):  # a day and more of trades: the oldest fold into the reference
        ticker.on_trade(NOW - DAY_MS - HOUR_MS + minute * MINUTE_MS, D(100 + minute % 13), D(1))
    copy = pickle.loads(pickle.dumps(ticker))
    traded = []
    for ts, price in ((NOW - 90_000, "120"), (NOW - 30_000, "95"), (NOW, "101")):
        ticker.on_trade(ts, D(price), D("0.5"))
        traded.append(ts // MINUTE_MS)
    copy.catch_up(ticker.part(traded))
    for later in (NOW, NOW + HOUR_MS, NOW + DAY_MS - MINUTE_MS):
        assert copy.snapshot(later) == ticker.snapshot(later)
