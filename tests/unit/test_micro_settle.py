"""The second-contract rule without Ray or I/O (store.micro.settle), over hand-made cases and random
tick paths (hypothesis): the outcome is a function of (order, ticks) only; a tick at or before the
acceptance is never the entry; ties and windows with no tick refund the stake; every outcome
conserves money (stake = payout + house P&L + fee); the tape (actors.micro.tape) keeps what settles."""

from __future__ import annotations

from decimal import Decimal as D

from hypothesis import given
from hypothesis import strategies as st

from actors.micro.tape import RETRY_MS, Tape
from store.micro import settle as rule

T0 = 1_700_000_000_000


def _terms(kind: int = rule.UP, seconds: int = 30, stake: str = "100", ratio: str = "80", fee: str = "0",
           accepted: int = T0) -> rule.Terms:  # fmt: skip
    return rule.Terms(kind, accepted, seconds, D(stake), D(ratio), D(fee), 6)


def _ticks(*points: tuple[int, str]) -> list[rule.TickView]:
    """Ticks at ``T0 + offset`` ms with the given prices, seq from 1."""
    return [rule.TickView(1000 + i, i + 1, T0 + at, D(price)) for i, (at, price) in enumerate(points)]


def test_up_wins_when_the_exit_is_above_the_entry() -> None:
    path = _ticks((-50, "90"), (40, "100"), (10_000, "105"), (30_040, "101"), (30_041, "50"))
    found = rule.settle(_terms(), path)
    assert (found.outcome, found.entry, found.exit) == (rule.WIN, path[1], path[3])  # exit at entry + 30 s exactly
    assert (found.payout, found.fact_profits, found.fee, found.house_pnl) == (D(180), D(80), D(0), D(-80))


def test_down_loses_the_same_path_and_the_house_keeps_the_stake() -> None:
    path = _ticks((40, "100"), (30_000, "101"))
    found = rule.settle(_terms(rule.DOWN), path)
    assert (found.outcome, found.payout, found.fact_profits, found.house_pnl) == (rule.LOSS, D(0), D(-100), D(100))


def test_a_tick_at_the_acceptance_is_not_the_entry() -> None:
    path = _ticks((0, "100"), (1, "99"), (30_001, "98"))
    found = rule.settle(_terms(rule.DOWN), path)
    assert found.entry == path[1] and found.exit == path[2] and found.outcome == rule.WIN


def test_equal_prices_tie_and_refund() -> None:
    found = rule.settle(_terms(), _ticks((5, "100"), (20_000, "130"), (29_000, "100")))
    assert (found.outcome, found.payout, found.house_pnl, found.fee) == (rule.TIE, D(100), D(0), D(0))


def test_one_tick_in_the_window_ties() -> None:
    found = rule.settle(_terms(), _ticks((5, "100"), (40_000, "130")))
    assert found.outcome == rule.TIE and found.exit == found.entry


def test_no_tick_in_the_window_voids() -> None:
    assert rule.settle(_terms(), _ticks((-5, "100"), (30_001, "130"))).outcome == rule.VOID
    assert rule.settle(_terms(), []).outcome == rule.VOID
    assert rule.settle(_terms(), _ticks((30_000, "100"), (30_100, "101"))).outcome == rule.WIN  # just in time


def test_the_fee_is_taken_from_the_profit_rounded_up() -> None:
    found = rule.settle(_terms(stake="10.000001", ratio="85", fee="3"), _ticks((1, "1"), (2, "2")))
    profit = D("8.500000")  # 8.50000085 rounded down to 6 places
    fee = D("0.255000")  # 3 % of it, rounded up
    assert (found.fact_profits, found.fee, found.payout) == (profit - fee, fee, D("10.000001") + profit - fee)
    assert found.house_pnl == -profit


def test_decided_by_is_the_end_after_entry_or_the_entry_deadline() -> None:
    assert rule.decided_by(_terms(), []) == T0 + 30_000
    assert rule.decided_by(_terms(), _ticks((-1, "1"), (250, "1"))) == T0 + 30_250


prices = st.integers(min_value=1, max_value=50).map(lambda n: D(n) / 10)
paths = st.lists(st.tuples(st.integers(min_value=-5_000, max_value=70_000), prices), max_size=40).map(
    lambda items: _ticks(*((at, str(p)) for at, p in sorted({at: p for at, p in items}.items())))
)
orders = st.builds(
    _terms,
    kind=st.sampled_from([rule.UP, rule.DOWN]),
    seconds=st.sampled_from([1, 30, 60]),
    stake=st.sampled_from(["1", "10", "99.999999", "1000"]),
    ratio=st.sampled_from(["80", "85", "90"]),
    fee=st.sampled_from(["0", "1", "2.5"]),
)


@given(orders, paths)
def test_the_outcome_follows_the_rule_and_conserves_money(terms: rule.Terms, path: list[rule.TickView]) -> None:
    found = rule.settle(terms, path)
    assert found == rule.settle(terms, list(path))  # a pure function of the order and the ticks
    assert found.payout + found.house_pnl + found.fee == terms.stake
    assert found.payout >= 0 and found.fee >= 0
    after = [t for t in path if t.time_ms > terms.accepted_ms]
    if not after or after[0].time_ms > terms.entry_deadline_ms:
        assert found.outcome == rule.VOID and found.payout == terms.stake
        return
    entry = after[0]
    end = entry.time_ms + terms.window_ms
    exit_ = [t for t in path if t.time_ms <= end][-1]
    assert (found.entry, found.exit) == (entry, exit_)
    if exit_.price == entry.price:
        assert found.outcome == rule.TIE and found.payout == terms.stake
    else:
        up = exit_.price > entry.price
        assert found.outcome == (rule.WIN if up == (terms.type == rule.UP) else rule.LOSS)


@given(orders, paths, st.integers(min_value=0, max_value=80_000))
def test_ticks_after_the_decision_time_change_nothing(terms: rule.Terms, path: list[rule.TickView], cut: int) -> None:
    """What the tape must hold: every tick before ``decided_by``; later ticks never matter."""
    limit = rule.decided_by(terms, path)
    known = [t for t in path if t.time_ms <= limit]
    assert rule.settle(terms, known) == rule.settle(terms, path)
    assert rule.decided_by(terms, known) == limit


@given(orders, paths)
def test_a_trimmed_tape_settles_as_the_whole_log(terms: rule.Terms, path: list[rule.TickView]) -> None:
    tape = Tape()
    for tick in path:
        assert tape.append(tick)
    assert not tape.append(rule.TickView(1, tape.last_seq + 2, T0 + 10**6, D(1)))  # a gap is refused
    tape.trim(terms.accepted_ms)
    assert rule.settle(terms, tape.ticks, tape.times) == rule.settle(terms, path)
    assert not path or tape.complete_before == path[-1].time_ms + 1
    assert tape.fenced(tape.last_seq, T0 + 10**7) and tape.complete_before == T0 + 10**7
    assert not tape.fenced(tape.last_seq + 1, T0 + 10**8)


def test_a_contract_whose_entry_came_after_it_was_scheduled_wakes_at_its_end() -> None:
    """A contract is first scheduled at its entry deadline (its entry is still to come); woken there with
    its entry on the tape 50 ms after acceptance, it is due at its end, not a retry later (on a pair
    whose marks tick every 100 ms that retry made most contracts settle up to 200 ms late)."""
    terms = _terms(seconds=30)
    tape = Tape()
    assert all(tape.append(tick) for tick in _ticks((-50, "90"), (50, "100")))
    now = terms.entry_deadline_ms + 1  # woken at the deadline
    end = rule.decided_by(terms, tape.ticks, tape.times)
    assert end == T0 + 50 + 30_000
    assert tape.wake_at(end, now) == end + 1
    assert tape.fenced(tape.last_seq, end + 5) and tape.wake_at(end, end + 6) is None  # then decided
    behind = Tape()  # a pair that has not confirmed its ticks up to a decision time already past
    assert behind.append(_ticks((-50, "90"))[0])
    assert behind.wake_at(T0 + 1_000, T0 + 1_010) == T0 + 1_010 + RETRY_MS
