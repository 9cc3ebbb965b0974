"""Chart periods and the candle book: bucket edges, aliases, OHLCV, late trades, gaps, memory, dirt."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actors.market import ALL_PERIODS, Bar, CandleBook, Period, parse_period
from actors.market.periods import DAY_MS, FIVE_MINUTES, MINUTE_MS, ONE_DAY, ONE_MINUTE

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def at(text: str) -> int:
    """Milliseconds since the epoch of a UTC wall-clock time such as ``2024-03-10 12:34:56.789``."""
    return (datetime.fromisoformat(text).replace(tzinfo=UTC) - _EPOCH) // timedelta(milliseconds=1)


def D(value: str | int) -> Decimal:  # noqa: N802 - reads like the type
    return Decimal(value)


# --- periods -------------------------------------------------------------------------------------

NOW = "2024-03-10 12:34:56.789"  # a Sunday
EXPECTED_BUCKETS = {
    "1min": ("2024-03-10 12:34", "2024-03-10 12:35"),
    "3min": ("2024-03-10 12:33", "2024-03-10 12:36"),
    "5min": ("2024-03-10 12:30", "2024-03-10 12:35"),
    "15min": ("2024-03-10 12:30", "2024-03-10 12:45"),
    "30min": ("2024-03-10 12:30", "2024-03-10 13:00"),
    "60min": ("2024-03-10 12:00", "2024-03-10 13:00"),
    "120min": ("2024-03-10 12:00", "2024-03-10 14:00"),
    "240min": ("2024-03-10 12:00", "2024-03-10 16:00"),
    "360min": ("2024-03-10 12:00", "2024-03-10 18:00"),
    "720min": ("2024-03-10 12:00", "2024-03-11 00:00"),
    "1day": ("2024-03-10", "2024-03-11"),
    "3day": ("2024-03-09", "2024-03-12"),  # epoch day 19791 = 3 × 6597
    "1week": ("2024-03-04", "2024-03-11"),  # Monday to Monday
    "1mon": ("2024-03-01", "2024-04-01"),
}


def test_every_canonical_period_has_an_expected_bucket() -> None:
    assert [p.name for p in ALL_PERIODS] == list(EXPECTED_BUCKETS)


@pytest.mark.parametrize("name", list(EXPECTED_BUCKETS))
def test_bucket_edges(name: str) -> None:
    period = parse_period(name)
    start, nxt = (at(t) for t in EXPECTED_BUCKETS[name])
    assert period.bucket_start(at(NOW)) == start
    assert period.next_start(start) == nxt
    assert period.next_start(at(NOW)) == nxt  # any instant of the bucket will do
    # half-open: the first millisecond belongs, the last one too, the next bucket's first does not
    assert period.bucket_start(start) == start
    assert period.bucket_start(nxt - 1) == start
    assert period.bucket_start(nxt) == nxt
    assert period.bucket_start(start - 1) < start


def test_weeks_start_on_monday_midnight_utc() -> None:
    week = parse_period("1W")
    assert week.bucket_start(at("2024-03-11 00:00")) == at("2024-03-11")  # Monday is its own start
    assert week.bucket_start(at("2024-03-10 23:59:59.999")) == at("2024-03-04")  # Sunday is the end
    assert week.bucket_start(0) == at("1969-12-29")  # the epoch was a Thursday
    assert week.next_start(at("2024-12-30")) == at("2025-01-06")  # across a year end


@pytest.mark.parametrize(
    ("instant", "start", "nxt"),
    [
        ("2024-01-31 23:59:59.999", "2024-01-01", "2024-02-01"),  # Jan 31 → Feb
        ("2024-02-29 12:00", "2024-02-01", "2024-03-01"),  # leap day
        ("2023-02-28 23:59:59.999", "2023-02-01", "2023-03-01"),  # common year
        ("2023-12-31 23:59:59.999", "2023-12-01", "2024-01-01"),  # Dec → Jan
        ("2024-03-01 00:00", "2024-03-01", "2024-04-01"),
        ("1969-12-31 23:59", "1969-12-01", "1970-01-01"),
    ],
)
def test_months_are_calendar_months(instant: str, start: str, nxt: str) -> None:
    month = parse_period("1M")
    assert month.bucket_start(at(instant)) == at(start)
    assert month.next_start(at(start)) == at(nxt)
    assert month.length_ms is None


def test_three_day_buckets_align_to_epoch_days_divisible_by_three() -> None:
    three = parse_period("3D")
    assert three.bucket_start(0) == 0
    assert three.bucket_start(3 * DAY_MS - 1) == 0
    assert three.next_start(0) == 3 * DAY_MS
    for day in range(19_780, 19_800):
        assert (three.bucket_start(day * DAY_MS + 5) // DAY_MS) % 3 == 0


@pytest.mark.parametrize(
    ("aliases", "canonical"),
    [
        (["1min", "1"], "1min"),
        (["60min", "60", "1hour"], "60min"),
        (["1day", "1D", "D"], "1day"),
        (["3day", "3D"], "3day"),
        (["1week", "1W", "W"], "1week"),
        (["1mon", "1M", "M"], "1mon"),
        (["720min", "720"], "720min"),
    ],
)
def test_aliases_map_to_one_period(aliases: list[str], canonical: str) -> None:
    periods = {parse_period(name) for name in aliases}
    assert len(periods) == 1 and periods.pop().name == canonical


def test_every_name_the_product_sends_parses() -> None:
    spot = ["1min", "5min", "15min", "30min", "60min", "1day", "1week", "1mon", "1hour"]
    lever = ["1", "3", "5", "15", "30", "60", "120", "240", "360", "720", "1D", "3D", "1W", "1M"]
    assert {parse_period(n) for n in spot + lever} == set(ALL_PERIODS)
    assert len(set(ALL_PERIODS)) == len(ALL_PERIODS) == 14
    assert all(len(p.name) <= 8 for p in ALL_PERIODS)  # the klines.period column


@pytest.mark.parametrize("name", ["", "1m", "2min", "1h", "1y", "4H", "Time", "1d"])
def test_unknown_period_names_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="unknown chart period"):
        parse_period(name)


# --- the candle book -----------------------------------------------------------------------------


def bar(start: str, o: str, h: str, lo: str, c: str, v: str, a: str) -> Bar:
    return Bar(at(start), D(o), D(h), D(lo), D(c), D(v), D(a))


def trade(book: CandleBook, when: str, price: str, qty: str) -> list[tuple[Period, Bar]]:
    return book.on_trade(at(when), D(price), D(qty))


def test_ohlcv_of_a_trade_sequence_for_1min_and_5min() -> None:
    book = CandleBook()
    trade(book, "2024-03-10 12:00:05", "100", "1")  # bob sells 1 BTC to alice at 100
    trade(book, "2024-03-10 12:00:30", "105", "2")
    trade(book, "2024-03-10 12:00:50", "95", "0.5")
    trade(book, "2024-03-10 12:01:10", "101", "1")
    trade(book, "2024-03-10 12:04:59.999", "102", "3")
    trade(book, "2024-03-10 12:05:00", "110", "1")
    window = (at("2024-03-10 12:00"), at("2024-03-10 12:10"))
    assert book.bars(ONE_MINUTE, *window) == [
        bar("2024-03-10 12:00", "100", "105", "95", "95", "3.5", "357.5"),
        bar("2024-03-10 12:01", "101", "101", "101", "101", "1", "101"),
        bar("2024-03-10 12:04", "102", "102", "102", "102", "3", "306"),
        bar("2024-03-10 12:05", "110", "110", "110", "110", "1", "110"),
    ]
    assert book.bars(FIVE_MINUTES, *window) == [
        bar("2024-03-10 12:00", "100", "105", "95", "102", "7.5", "764.5"),
        bar("2024-03-10 12:05", "110", "110", "110", "110", "1", "110"),
    ]
    assert book.last(ONE_DAY) == bar("2024-03-10", "100", "110", "95", "110", "8.5", "874.5")


def test_each_trade_returns_the_changed_bar_of_every_period() -> None:
    book = CandleBook()
    changed = trade(book, "2024-03-10 12:34:56", "100", "2")
    assert [p for p, _ in changed] == list(ALL_PERIODS)
    for period, b in changed:
        assert b.start == period.bucket_start(at("2024-03-10 12:34:56"))
        assert (b.close, b.volume, b.amount) == (D("100"), D("2"), D("200"))


def test_a_late_trade_updates_the_older_bar_it_belongs_to() -> None:
    book = CandleBook()
    trade(book, "2024-03-10 12:00:10", "100", "1")
    trade(book, "2024-03-10 12:01:10", "101", "1")
    changed = dict(trade(book, "2024-03-10 12:00:40", "120", "1"))  # arrives after the 12:01 trade
    assert changed[ONE_MINUTE] == bar("2024-03-10 12:00", "100", "120", "100", "120", "2", "220")
    trade(book, "2024-03-10 12:00:01", "90", "1")  # earlier than anything in that minute: a new open
    minute = book.bars(ONE_MINUTE, at("2024-03-10 12:00"), at("2024-03-10 12:02"))
    assert minute == [
        bar("2024-03-10 12:00", "90", "120", "90", "120", "3", "310"),
        bar("2024-03-10 12:01", "101", "101", "101", "101", "1", "101"),
    ]
    assert book.last(ONE_MINUTE) == minute[1]
    assert book.last(FIVE_MINUTES) == bar("2024-03-10 12:00", "90", "120", "90", "101", "4", "411")


def test_quiet_buckets_are_gaps_not_invented_bars() -> None:
    book = CandleBook()
    trade(book, "2024-03-10 12:00:00", "100", "1")
    trade(book, "2024-03-10 12:03:00", "103", "1")
    trade(book, "2024-03-10 12:01:30", "101", "1")  # a late trade fills its own minute, no other
    starts = [b.start for b in book.bars(ONE_MINUTE, at("2024-03-10 11:00"), at("2024-03-10 13:00"))]
    assert starts == [at("2024-03-10 12:00"), at("2024-03-10 12:01"), at("2024-03-10 12:03")]


def test_bars_range_is_inclusive_and_limit_keeps_the_newest() -> None:
    book = CandleBook()
    for minute in range(10):
        book.on_trade(at("2024-03-10 12:00") + minute * MINUTE_MS + 1, D(100 + minute), D(1))
    # from inside a bucket still returns that bucket; to on a bucket start includes it
    got = book.bars(ONE_MINUTE, at("2024-03-10 12:02:30"), at("2024-03-10 12:05"))
    assert [b.close for b in got] == [D(102), D(103), D(104), D(105)]
    assert [b.close for b in book.bars(ONE_MINUTE, 0, at("2024-03-11"), limit=3)] == [D(107), D(108), D(109)]
    assert book.bars(ONE_MINUTE, at("2024-03-10 13:00"), at("2024-03-10 12:00")) == []
    assert book.bars(ONE_MINUTE, 0, at("2024-03-11"), limit=0) == []
    assert book.last(parse_period("1mon")) is not None and CandleBook().last(ONE_MINUTE) is None


def test_memory_keeps_at_most_max_bars_per_period() -> None:
    book = CandleBook(max_bars=3)
    for minute in range(5):
        book.on_trade(at("2024-03-10 12:00") + minute * MINUTE_MS, D(100 + minute), D(1))
    held = book.bars(ONE_MINUTE, 0, at("2024-03-11"))
    assert [b.start for b in held] == [at("2024-03-10 12:02"), at("2024-03-10 12:03"), at("2024-03-10 12:04")]
    assert book.horizon(ONE_MINUTE) == at("2024-03-10 12:02")
    assert book.horizon(FIVE_MINUTES) is None  # one 5-minute bar, nothing dropped
    # a late trade for a dropped minute leaves 1min alone (only the database has that bar) …
    changed = dict(book.on_trade(at("2024-03-10 12:00:30"), D("99"), D(1)))
    assert ONE_MINUTE not in changed and len(book.bars(ONE_MINUTE, 0, at("2024-03-11"))) == 3
    # … but still counts in the periods that hold its bucket
    assert changed[FIVE_MINUTES].volume == D(6) and changed[FIVE_MINUTES].low == D(99)
    # dropped bars stay dirty until persisted
    assert at("2024-03-10 12:00") in {b.start for p, b in book.dirty() if p == ONE_MINUTE}


def test_dirty_lists_the_newest_version_of_each_changed_bar() -> None:
    book = CandleBook()
    trade(book, "2024-03-10 12:00:10", "100", "1")
    trade(book, "2024-03-10 12:00:20", "101", "1")
    trade(book, "2024-03-10 12:01:00", "102", "1")
    dirty = book.dirty()
    minute_bars = sorted((b for p, b in dirty if p == ONE_MINUTE), key=lambda b: b.start)
    assert minute_bars == book.bars(ONE_MINUTE, 0, at("2024-03-11"))
    assert sum(1 for p, _ in dirty if p == FIVE_MINUTES) == 1
    assert len(dirty) == len(ALL_PERIODS) + 1  # two minutes, one bar for every longer period
    book.clear_dirty()
    assert book.dirty() == []
    trade(book, "2024-03-10 12:01:30", "103", "1")
    assert len(book.dirty()) == len(ALL_PERIODS)


def test_clearing_what_was_persisted_keeps_changes_made_meanwhile() -> None:
    book = CandleBook()
    trade(book, "2024-03-10 12:00:10", "100", "1")
    taken = book.dirty()  # the owner starts writing these …
    trade(book, "2024-03-10 12:00:20", "101", "1")  # … and a trade lands before the write returns
    trade(book, "2024-03-10 12:05:00", "102", "1")
    book.clear_dirty(taken)
    still = book.dirty()
    assert (ONE_MINUTE, book.bars(ONE_MINUTE, at("2024-03-10 12:00"), at("2024-03-10 12:00"))[0]) in still
    assert {p for p, _ in still} == set(ALL_PERIODS)
    book.clear_dirty(still)
    assert book.dirty() == []


def test_loaded_bars_are_clean_extend_with_trades_and_set_the_horizon() -> None:
    book = CandleBook()
    stored = [
        bar("2024-03-10 12:01", "101", "102", "100", "102", "2", "203"),
        bar("2024-03-10 12:00", "100", "100", "100", "100", "1", "100"),
    ]
    book.load(ONE_MINUTE, stored)
    assert book.dirty() == [] and book.horizon(ONE_MINUTE) == at("2024-03-10 12:00")
    assert book.last(ONE_MINUTE) == stored[0]
    changed = dict(trade(book, "2024-03-10 12:01:30", "99", "1"))
    assert changed[ONE_MINUTE] == bar("2024-03-10 12:01", "101", "102", "99", "99", "3", "302")
    assert ONE_MINUTE not in dict(trade(book, "2024-03-10 11:59:59", "98", "1"))  # before the horizon
    with pytest.raises(ValueError, match="not a 1min bucket start"):
        book.load(ONE_MINUTE, [bar("2024-03-10 12:02:30", "1", "1", "1", "1", "1", "1")])


def test_a_grafted_bar_carries_on_as_in_the_book_it_came_from() -> None:
    """A copy loaded from the database knows a bar's values, not its first and last trade instants; the
    bars grafted from the original do, so a late trade opens or closes them the same on both."""
    original = CandleBook()
    trade(original, "2024-03-10 12:00:20", "100", "1")
    trade(original, "2024-03-10 12:00:40", "110", "1")
    copy = CandleBook()
    copy.load(ONE_MINUTE, original.bars(ONE_MINUTE, 0, at("2024-03-10 13:00")))
    touched = [(period, bar.start) for period, bar in original.dirty()]
    copy.graft(original.cells(touched))
    assert copy.dirty() == []
    for book in (original, copy):
        trade(book, "2024-03-10 12:00:30", "90", "1")  # between the two: neither opens nor closes the bar
    assert (
        copy.last(ONE_MINUTE)
        == original.last(ONE_MINUTE)
        == bar("2024-03-10 12:00", "100", "110", "90", "110", "3", "300")
    )
    assert copy.last(FIVE_MINUTES) == original.last(FIVE_MINUTES)


def test_loading_more_than_max_bars_keeps_the_newest() -> None:
    book = CandleBook(max_bars=2)
    day = [Bar(d * DAY_MS, D(1), D(1), D(1), D(1), D(1), D(1)) for d in range(19_790, 19_795)]
    book.load(ONE_DAY, day)
    assert book.bars(ONE_DAY, 0, 20_000 * DAY_MS) == day[-2:]
    assert book.horizon(ONE_DAY) == day[-2].start


def test_trades_must_be_positive_decimals() -> None:
    book = CandleBook()
    with pytest.raises(TypeError):
        book.on_trade(0, 100.0, D(1))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        book.on_trade(0, D(100), D(0))
    with pytest.raises(ValueError):
        CandleBook(max_bars=0)
    assert book.dirty() == []


# --- property: bars equal brute-force aggregates of the trades they cover --------------------------

BASE = at("2024-02-28 20:00")  # spans a leap day, a month end and a week start
trades_strategy = st.lists(
    st.tuples(
        st.integers(BASE, BASE + 2 * DAY_MS),
        st.integers(1, 10**7).map(lambda n: Decimal(n).scaleb(-2)),
        st.integers(1, 10**6).map(lambda n: Decimal(n).scaleb(-4)),
    ),
    min_size=1,
    max_size=120,
)


def _expected(period: Period, stream: list[tuple[int, Decimal, Decimal]]) -> list[Bar]:
    """Bars from first principles: group by bucket; open/close by time (ties by arrival order)."""
    buckets: dict[int, list[tuple[int, Decimal, Decimal]]] = {}
    for ts, price, qty in sorted(stream, key=lambda t: t[0]):  # sorted() is stable
        buckets.setdefault(period.bucket_start(ts), []).append((ts, price, qty))
    return [
        Bar(
            start,
            ts_[0][1],
            max(p for _, p, _ in ts_),
            min(p for _, p, _ in ts_),
            ts_[-1][1],
            sum((q for _, _, q in ts_), Decimal(0)),
            sum((p * q for _, p, q in ts_), Decimal(0)),
        )
        for start, ts_ in sorted(buckets.items())
    ]


@settings(max_examples=150, deadline=None)
@given(trades_strategy)
def test_bars_match_the_trades_they_cover(stream: list[tuple[int, Decimal, Decimal]]) -> None:
    book = CandleBook(max_bars=5000)  # keeps all; the stream arrives in any order
    for ts, price, qty in stream:
        book.on_trade(ts, price, qty)
    everything = (BASE - 40 * DAY_MS, BASE + 40 * DAY_MS)

    for day in book.bars(ONE_DAY, *everything):
        in_day = [(p, q) for ts, p, q in stream if day.start <= ts < ONE_DAY.next_start(day.start)]
        assert day.high == max(p for p, _ in in_day)
        assert day.low == min(p for p, _ in in_day)
        assert day.volume == sum((q for _, q in in_day), Decimal(0))

    minutes = book.bars(ONE_MINUTE, *everything)
    fives = book.bars(FIVE_MINUTES, *everything)
    assert [f.start for f in fives] == sorted({FIVE_MINUTES.bucket_start(m.start) for m in minutes})
    for five in fives:
        inner = [m for m in minutes if FIVE_MINUTES.bucket_start(m.start) == five.start]
        assert five == Bar(
            five.start,
            inner[0].open,
            max(m.high for m in inner),
            min(m.low for m in inner),
            inner[-1].close,
            sum((m.volume for m in inner), Decimal(0)),
            sum((m.amount for m in inner), Decimal(0)),
        )

    for period in ALL_PERIODS:
        assert book.bars(period, *everything) == _expected(period, stream)
