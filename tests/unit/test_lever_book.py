"""The leveraged-contract core without Ray or I/O: the money rules (actors.lever.terms, settle), the
trigger book and what a mark tick decides (actors.lever.book), over hand-made cases and random
price paths (hypothesis): every trigger a path crosses fires once, at the first tick that crosses
it and never before; an account at the liquidation level is liquidated on the tick that takes it
there; no balance goes negative; every movement conserves money."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal as D

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actors.lever import settle, terms
from actors.lever.book import ENTRUSTED, OPEN, Decision, LeverBook, Position
from actors.lever.terms import LONG, SHORT
from actors.lever.triggers import Direction, Trigger, TriggerBook

BTC, ETH = 1, 2


def test_prices_margin_fee_and_profit_follow_the_spec() -> None:
    assert terms.open_price(D("68000"), D("0.05"), LONG, 4) == D("68034")
    assert terms.open_price(D("68000"), D("0.05"), SHORT, 4) == D("67966")
    assert terms.close_price(D("68000"), D("0.05"), LONG, 4) == D("67966")
    assert terms.entrusted_price(D("66000"), D("66010"), D("0.05"), LONG, 4) == D(
        "66010"
    )  # never worse than the target
    assert terms.entrusted_price(D("65000"), D("66010"), D("0.05"), LONG, 4) == D("65032.5")  # better if the mark is
    # spec §5: margin = price x hands x share_num / multiple, fee = value x fee rate
    assert terms.margin(D("68034"), 2, D("0.01"), 10) == D("136.068")
    assert terms.fee(D("68034"), 2, D("0.01"), D("0.001")) == D("1.36068")
    assert terms.margin(D("3"), 1, D("0.1"), 7) == D("0.042858")  # rounded up to 6 places
    assert terms.profit(LONG, D("100"), D("99.99999"), 1, D("1")) == D("-0.00001")
    assert terms.profit(SHORT, D("100"), D("99.9999999"), 1, D("1")) == D("0.000000")  # rounded down: the house's


def test_a_trigger_book_finds_what_a_tick_crosses_and_only_that() -> None:
    book = TriggerBook()
    book.arm(("tp", 1), D("110"), Direction.UP, armed_seq=0)
    book.arm(("sl", 1), D("90"), Direction.DOWN, armed_seq=0)
    book.arm(("tp", 2), D("105"), Direction.UP, armed_seq=5)
    assert book.crossed(D("100"), seq=9) == []
    assert [t.ident for t in book.crossed(D("107"), seq=9)] == [("tp", 2)]
    assert [t.ident for t in book.crossed(D("107"), seq=5)] == []  # armed at seq 5: tick 5 is older
    assert [t.ident for t in book.crossed(D("120"), seq=9)] == [("tp", 2), ("tp", 1)]
    assert [t.ident for t in book.crossed(D("90"), seq=9)] == [("sl", 1)]
    book.arm(("sl", 1), D("80"), Direction.DOWN, armed_seq=0)  # moved
    assert book.crossed(D("90"), seq=9) == [] and len(book) == 3
    book.disarm(("tp", 2))
    assert [t.ident for t in book.crossed(D("200"), seq=9)] == [("tp", 1)]


def opened(pid: int, uid: int, pair: int, side: int, price: str, hands: int = 1, multiple: int = 10,
           share_num: str = "1", **kw: object) -> Position:  # fmt: skip
    margin = terms.margin(D(price), hands, D(share_num), multiple)
    return Position(pid, uid, pair, side, OPEN, hands, D(share_num), multiple, price=D(price), margin=margin, **kw)  # type: ignore[arg-type]


def test_the_liquidation_price_of_one_pair_and_its_tick() -> None:
    book = LeverBook(level=D(50))
    book.set_balance(7, D("0"))
    book.put(opened(1, 7, BTC, LONG, "100", hands=10, multiple=10))  # margin 100, value 1000
    # equity = 100 + 10 (m - 100) <= 50 <=> m <= 95
    assert book.liquidation_price(7, BTC) == (D(95), Direction.DOWN)
    assert book.on_tick(BTC, D("95.01"), seq=1) == []
    (decision,) = book.on_tick(BTC, D("95"), seq=2)
    assert (decision.kind, decision.ident) == ("liquidate", 7)
    assert book.at_risk(7) and book.risk(7) == D(50)


def test_cross_margin_moves_one_pairs_liquidation_price_with_the_others_mark() -> None:
    book = LeverBook(level=D(50))
    book.set_balance(7, D("0"))
    book.put(opened(1, 7, BTC, LONG, "100", hands=10, multiple=10))  # margin 100
    book.put(opened(2, 7, ETH, SHORT, "10", hands=10, multiple=10))  # margin 10
    book.marks.update({BTC: D(100), ETH: D(10)})
    book.set_balance(7, D("0"))
    # equity = 110 + 10 (b - 100) - 10 (e - 10) <= 55
    assert book.liquidation_price(7, BTC) == (D("94.5"), Direction.DOWN)
    assert book.on_tick(ETH, D("12"), seq=1) == []  # -20 on ETH: BTC's price moves up to 96.5
    assert book.liquidation_price(7, BTC) == (D("96.5"), Direction.DOWN)
    decisions = book.on_tick(BTC, D("96.5"), seq=1)
    assert [(d.kind, d.ident) for d in decisions] == [("liquidate", 7)]
    # a tick on one pair re-arms the account's price on the other, and liquidates when it gets there
    book2 = LeverBook(level=D(50))
    for p in (
        opened(1, 7, BTC, LONG, "100", hands=10, multiple=10),
        opened(2, 7, ETH, SHORT, "10", hands=10, multiple=10),
    ):
        book2.put(p)
    book2.marks.update({BTC: D("96"), ETH: D(10)})
    book2.set_balance(7, D("0"))
    assert book2.on_tick(ETH, D("11"), seq=1) == []  # equity 60 > 55
    assert book2.liquidation_price(7, BTC) == (D("95.5"), Direction.DOWN)
    assert [(d.kind, d.ident) for d in book2.on_tick(ETH, D("11.5"), seq=2)] == [("liquidate", 7)]  # 55


def test_a_cross_margin_account_is_armed_within_a_band_and_checked_exactly() -> None:
    book = LeverBook(level=D(50), band=D("0.01"))
    book.put(opened(1, 7, BTC, LONG, "100", hands=10, multiple=10))  # margin 100
    book.put(opened(2, 7, ETH, SHORT, "10", hands=10, multiple=10))  # margin 10
    book.marks.update({BTC: D(100), ETH: D(10)})
    book.set_balance(7, D("0"))
    # equity = 110 + 10 (b - 100) - 10 (e - 10) <= 55, i.e. b - e <= 84.5: exact on BTC 94.5; armed
    # with ETH at its band's adverse edge (10.1): 94.6
    assert book.liquidation_price(7, BTC) == (D("94.5"), Direction.DOWN)
    assert book._books[BTC].get(("liq", 7)).price == D("94.6")  # type: ignore[union-attr]
    rearmed: list[int] = []
    rearm = book._rearm_liquidation
    book._rearm_liquidation = lambda uid: (rearmed.append(uid), rearm(uid))[1]  # type: ignore[method-assign]
    assert book.on_tick(ETH, D("10.05"), seq=1) == [] and rearmed == []  # inside the band: nobody re-armed
    assert book.liquidation_price(7, BTC) == (D("94.55"), Direction.DOWN)  # the exact price moved
    assert book.on_tick(BTC, D("94.58"), seq=1) == []  # crosses the armed 94.6, not the exact 94.55
    assert rearmed == [7] and not book.at_risk(7)  # checked exactly, re-armed around the new marks
    rearmed.clear()
    assert book.on_tick(BTC, D("96"), seq=2) == [] and rearmed == []  # away from it: a quiet tick
    assert [(d.kind, d.ident) for d in book.on_tick(BTC, D("94.55"), seq=3)] == [("liquidate", 7)]  # at 50 %


def test_a_short_at_the_level_at_any_price_of_a_pair_is_checked_on_every_tick_of_it() -> None:
    """Found by the random paths below: a net short on BTC and a short on ETH, wide bands. With ETH at
    its band's adverse edge no BTC price keeps the account above the level (the price solved for is
    below zero); that once disarmed BTC's trigger as if nothing could bring the account down, and BTC
    rising took it to 50 % with nothing fired."""
    book = LeverBook(level=D(50), band=D("0.5"))
    book.marks.update({BTC: D(100), ETH: D(100)})
    book.set_balance(7, D(0))
    book.put(opened(1, 7, BTC, LONG, "100", hands=1, multiple=20))  # margin 5
    book.put(opened(2, 7, BTC, SHORT, "100", hands=2, multiple=5))  # margin 40
    book.put(opened(3, 7, ETH, SHORT, "100", hands=3, multiple=20))  # margin 15
    assert book._books[BTC].get(("liq", 7)) == Trigger(("liq", 7), D(0), Direction.UP, 0)
    assert book.on_tick(ETH, D(107), seq=1) == [] and book.risk(7) == D(65)  # checked exactly: above
    # equity = 60 - (b - 100) - 21 = 30 at BTC 109: the level
    assert [(d.kind, d.ident) for d in book.on_tick(BTC, D(109), seq=2)] == [("liquidate", 7)]


def test_a_loading_shard_arms_its_accounts_at_the_marks_it_loads() -> None:
    book = LeverBook(level=D(50), band=D("0.01"))
    book.put(opened(1, 7, BTC, LONG, "100", hands=10, multiple=10))  # put before any mark is known,
    book.put(opened(2, 7, ETH, SHORT, "10", hands=10, multiple=10))  # as a shard loads its rows
    book.set_balance(7, D("0"))
    book.marks.update({BTC: D(100), ETH: D(12)})  # then the marks of its cursors
    book.seqs.update({BTC: 5, ETH: 5})
    book.rearm_all()
    # b - e <= 84.5 with e at 12 x 1.01: BTC's trigger at 96.62, armed at the cursor's seq
    assert book._books[BTC].get(("liq", 7)) is not None
    assert book._books[BTC].get(("liq", 7)).price == D("96.62")  # type: ignore[union-attr]
    assert book.on_tick(BTC, D("96.6"), seq=6) == []  # crossed, checked exactly: 96.6 - 12 = 84.6, not yet
    assert [(d.kind, d.ident) for d in book.on_tick(BTC, D("96.5"), seq=7)] == [("liquidate", 7)]  # 84.5


def test_an_account_on_one_pair_has_an_exact_trigger_and_no_band() -> None:
    book = LeverBook(level=D(50), band=D("0.1"))
    book.put(opened(1, 7, BTC, LONG, "100", hands=10, multiple=10))
    book.on_tick(BTC, D(100), seq=1)
    book.set_balance(7, D(0))
    assert ("band", 7) not in book._books[BTC] and book._books[BTC].get(("liq", 7)).price == D(95)  # type: ignore[union-attr]
    assert book.on_tick(BTC, D("95.0001"), seq=2) == []
    assert [(d.kind, d.ident) for d in book.on_tick(BTC, D(95), seq=3)] == [("liquidate", 7)]
    assert book.exposure(BTC) == D(10) and book.margins(7) == D(100)
    book.drop(1, 7)
    assert len(book._books[BTC]) == 0 and book.exposure(BTC) == 0 and book.margins(7) == 0 and book.risk(7) is None


def test_money_movements_conserve_and_never_go_below_zero() -> None:
    assert settle.opening(D("100"), D("1")).total() == 0
    assert settle.filling(D("101"), D("95"), D("0.95")).total() == 0
    gap = settle.closing(balance=D("5"), margin=D("100"), profit=D("-120"))
    assert gap.total() == 0 and gap.balance == D("-5") and gap.house == {"lever_pnl": D(120), "insurance": D(-15)}
    win = settle.closing(balance=D("5"), margin=D("100"), profit=D("30"))
    assert win.total() == 0 and win.balance == D(130) and win.house == {"lever_pnl": D(-30), "insurance": 0}
    p = opened(1, 7, BTC, LONG, "100", hands=10, multiple=10)
    moved, closed = settle.liquidating(D("3"), [p], {BTC: D("80")})  # 100 margin, -200: 97 past the balance
    assert moved.total() == 0 and moved.balance == D("-3") and moved.house["insurance"] == D(-97)
    moved, _ = settle.liquidating(D("3"), [p], {BTC: D("95")})  # 50 left to the fund
    assert moved.balance == 0 and moved.house["insurance"] == D(50) and moved.total() == 0
    found = settle.overnight(balance=D("1"), margin=D("10"), floor=D("5"), fee=D("3"))
    assert found is not None
    charged, from_margin = found
    assert (charged.balance, charged.lock, from_margin, charged.total()) == (D(-1), D(-2), D(2), 0)


def test_an_overnight_fee_takes_a_margin_down_to_its_floor_never_below() -> None:
    # the floor is the share of the opening margin the liquidation level keeps, rounded up
    assert terms.floor(D("3.0015"), D(50)) == D("1.50075") and terms.floor(D("0.000001"), D(50)) == D("0.000001")
    found = settle.overnight(balance=D(0), margin=D("5.3"), floor=D(5), fee=D("0.3"))
    assert found is not None and found[0].lock == D("-0.3") and found[0].house == {"overnight": D("0.3")}
    assert settle.overnight(balance=D(0), margin=D("5.2"), floor=D(5), fee=D("0.3")) is None  # would be 4.9
    assert settle.overnight(balance=D("0.1"), margin=D("5.1"), floor=D(5), fee=D("0.3")) is None
    assert settle.overnight(balance=D(1), margin=D(0), floor=D(5), fee=D("0.3")) is None  # below it already


def test_positions_closed_together_net_their_profits_before_the_fund_pays() -> None:
    long = opened(1, 7, BTC, LONG, "100", hands=10, multiple=10)  # margin 100
    short = opened(2, 7, BTC, SHORT, "100", hands=10, multiple=10)
    # a hedge at 125: the short alone loses 250 on 100 of margin and 1 of balance ...
    assert settle.closing(D(1), short.margin, D(-250)).house["insurance"] == D(-149)
    # ... together the long's 250 pays it: everything back, nothing from the fund
    moved, closed = settle.settling(D(1), [(short, D(125)), (long, D(125))], keep=True)
    assert [c.profit for c in closed] == [D(-250), D(250)]
    assert (moved.balance, moved.lock, moved.house, moved.total()) == (
        D(200),
        D(-200),
        {"lever_pnl": D(0), "insurance": D(0)},
        0,
    )
    # a liquidation's remainder is the fund's; a loss past the margins is the balance's (with the
    # frozen funds of the entrustments it cancels) before it is the fund's
    moved, _ = settle.settling(D(3) + D(40), [(long, D(80))], keep=False)  # -200 on 100 of margin
    assert (moved.balance, moved.house["insurance"], moved.total()) == (D(-43), D(-57), 0)


def test_a_fill_past_the_target_opens_near_the_mark_never_at_the_target() -> None:
    # a short entrusted at 100 that the mark jumped past to 110: frozen margin 10 + fee 0.1 at 100
    entrusted = Position(1, 7, BTC, SHORT, ENTRUSTED, 10, D(1), 10, frozen=D("10.1"), target=D(100))
    price, margin, fee = settle.fill(entrusted, D(110), D("0.05"), D("0.001"), 4, balance=D(1000))
    assert (price, margin, fee) == (D("109.945"), D("109.945"), D("1.09945"))  # the spread price, fully held
    price, margin, fee = settle.fill(entrusted, D(110), D("0.05"), D("0.001"), 4, balance=D(0))
    assert (price, margin, fee) == (D("109.945"), D("9.00055"), D("1.09945"))  # what the frozen funds hold
    assert settle.filling(entrusted.frozen, margin, fee).balance == 0


def test_what_may_leave_counts_the_close_spread_and_the_opening_margins() -> None:
    book = LeverBook(level=D(50))
    long = opened(1, 7, BTC, LONG, "100", hands=10, multiple=10, point_rate=D("0.5"))  # margin 100
    book.put(replace(long, margin=D(80), origin_margin=D(100)))  # overnight fees took 20 of it
    book.put(opened(2, 7, ETH, SHORT, "10", hands=10, multiple=10, point_rate=D("1"), origin_margin=D(10)))
    book.marks.update({BTC: D(100), ETH: D(10)})
    book.set_balance(7, D(50))
    places = {BTC: 4, ETH: 4}
    # closing now: the long at 99.5 (-5), the short at 10.1 (-1); the 20 the fees took is owed first
    assert book.free(7, places) == D(24)
    book.marks[ETH] = D(8)  # the short's profit at 8.08 (19.2) backs the long's loss, up to the balance
    assert book.free(7, places) == D("44.2") and book.at_risk_after(7, D(0), D(0)) is False
    book.marks[ETH] = D(7)
    assert book.free(7, places) == D(50)
    book.marks[BTC] = D(90)  # -104.5 at 89.55, 29.3 from the short at 7.07: nothing may leave
    assert book.free(7, places) == 0
    # 50 + (80 - 100) + (10 + 30) = 70 of equity on 90 of margins at the marks: an entrustment that
    # freezes 25 would leave 50 %, the level; 24, 51.1 %
    assert book.at_risk_after(7, D(-25), D(0)) and not book.at_risk_after(7, D(-24), D(0))


def test_the_exposure_cap_counts_the_worst_case_of_pending_entrustments() -> None:
    book = LeverBook(level=D(50))
    book.put(opened(1, 7, BTC, LONG, "100", hands=30))  # 30 long, worth 3,000 at 100
    book.put(Position(2, 7, BTC, LONG, ENTRUSTED, 10, D(1), 10, frozen=D(100), target=D(90)))  # 10 more pending
    assert book.pending(BTC, LONG) == D(10) and book.pending(BTC, SHORT) == 0
    cap = D(4500)
    assert not book.past_cap(BTC, LONG, D(5), D(100), cap, pending=True)  # 45 in the worst case
    assert book.past_cap(BTC, LONG, D(6), D(100), cap, pending=True)  # 46
    assert not book.past_cap(BTC, LONG, D(6), D(100), cap, pending=False)  # 36 filled now
    assert not book.past_cap(BTC, SHORT, D(75), D(100), cap, pending=True)  # 45 short (the longs may not fill)
    assert book.past_cap(BTC, SHORT, D(76), D(100), cap, pending=True)
    book.drop(2, 7)
    assert book.pending(BTC, LONG) == 0 and not book.past_cap(BTC, LONG, D(15), D(100), cap, pending=True)


# -- random price paths ----------------------------------------------------------------------------

PRICES = st.integers(80, 120)
SPEC = st.tuples(
    st.sampled_from([LONG, SHORT]),  # side
    st.integers(1, 5),  # hands
    st.sampled_from([2, 5, 10, 20]),  # multiple
    st.booleans(),  # entrusted
    PRICES,  # target (entrusted)
    st.one_of(st.none(), st.integers(1, 25)),  # take-profit distance
    st.one_of(st.none(), st.integers(1, 25)),  # stop-loss distance
    st.sampled_from([BTC, ETH]),
)


class Simulation:
    """Carries out what the book decides the way the shard does, and keeps the money: every lever
    account's balance and lock, and the house's ledger."""

    def __init__(self, level: D, band: D) -> None:
        self.book = LeverBook(level, band)
        self.balances: dict[int, D] = {}
        self.locks: dict[int, D] = {}
        self.house: dict[str, D] = {}
        self.fired: list[tuple[str, int, int]] = []  # (kind, position id, tick index)

    def move(self, uid: int, m: settle.Movement) -> None:
        self.balances[uid] += m.balance
        self.locks[uid] += m.lock
        for kind, amount in m.house.items():
            self.house[kind] = self.house.get(kind, D(0)) + amount
        assert m.total() == 0 and self.balances[uid] >= 0 and self.locks[uid] >= 0
        self.book.set_balance(uid, self.balances[uid])

    def carry_out(self, tick: int, decisions: list[Decision]) -> None:
        queue = list(decisions)
        while queue:
            d = queue.pop(0)
            if d.kind == "liquidate":
                self.liquidate(tick, d.ident)
                continue
            owner = next(a.uid for a in self.book.accounts.values() if d.ident in a.positions)
            p = self.book.position(d.ident, owner)
            assert p is not None
            if d.kind == "open":
                price, margin, fee = settle.fill(p, d.mark, D(0), D("0.001"), 4, self.balances[owner])
                self.book.put(replace(p, status=OPEN, price=price, margin=margin, frozen=D(0), stop_seq=d.seq))
                self.move(owner, settle.filling(p.frozen, margin, fee))
                if self.book.at_risk(owner):  # a fill at its target far from the mark: as the shard does
                    queue.append(Decision("liquidate", owner, d.pair_id, d.mark, d.seq))
            else:
                profit = terms.profit(p.side, p.price, d.mark, p.hands, p.share_num)
                self.book.drop(p.id, owner)
                self.move(owner, settle.closing(self.balances[owner], p.margin, profit))
            self.fired.append((d.kind, d.ident, tick))

    def liquidate(self, tick: int, uid: int) -> None:
        if not self.book.at_risk(uid):  # a close earlier in the tick saved it
            return
        account = self.book.account(uid)
        moved, closed = settle.liquidating(account.balance, account.open_positions(), self.book.marks)
        for c in closed:
            self.book.drop(c.position_id, uid)
        self.move(uid, moved)
        for p in list(account.positions.values()):  # entrustments are cancelled
            self.book.drop(p.id, uid)
            self.move(uid, settle.cancelling(p.frozen))
        self.fired.append(("liquidate", uid, tick))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    specs=st.lists(SPEC, min_size=1, max_size=12),
    path=st.lists(st.tuples(st.sampled_from([BTC, ETH]), PRICES), min_size=1, max_size=40),
    funds=st.integers(0, 200),
    band=st.sampled_from([D("0.001"), D("0.01"), D("0.1"), D("0.5")]),  # moves past it, and moves inside it
)
def test_random_paths_fire_each_crossed_trigger_once_and_liquidate_at_the_level(
    specs: list[tuple[int, int, int, bool, int, int | None, int | None, int]],
    path: list[tuple[int, int]],
    funds: int,
    band: D,
) -> None:
    sim = Simulation(level=D(50), band=band)
    start = {BTC: D(100), ETH: D(100)}
    sim.book.marks.update(start)
    for pid, (side, hands, multiple, entrusted, target, tp, sl, pair) in enumerate(specs, start=1):
        uid = pid % 3 + 1
        sim.balances.setdefault(uid, D(funds))
        sim.locks.setdefault(uid, D(0))
        sim.book.set_balance(uid, sim.balances[uid])
        up = 1 if side == LONG else -1
        if entrusted:
            if (target >= start[pair]) if side == LONG else (target <= start[pair]):
                continue  # the API refuses an entrustment the mark has already reached
            frozen = terms.margin(D(target), hands, D(1), multiple) + terms.fee(D(target), hands, D(1), D("0.001"))
            if sim.balances[uid] < frozen:
                continue
            sim.book.put(
                Position(pid, uid, pair, side, ENTRUSTED, hands, D(1), multiple, frozen=frozen, target=D(target))
            )
            sim.move(uid, settle.entrusting(frozen))
            continue
        margin = terms.margin(start[pair], hands, D(1), multiple)
        if sim.balances[uid] < margin:
            continue
        position = Position(pid, uid, pair, side, OPEN, hands, D(1), multiple, price=start[pair], margin=margin,
                            tp=start[pair] + up * tp if tp else D(0), sl=start[pair] - up * sl if sl else D(0))  # fmt: skip
        sim.book.put(position)
        sim.move(uid, settle.opening(margin, D(0)))

    for tick, (pair, price) in enumerate(path, start=1):
        before = {uid: {pid: p for pid, p in a.positions.items()} for uid, a in sim.book.accounts.items()}
        sim.carry_out(tick, sim.book.on_tick(pair, D(price), tick))
        # every account at the level after the tick was liquidated by it
        for uid in sim.book.accounts:
            assert not sim.book.at_risk(uid), (tick, uid, sim.book.risk(uid))
        # a position's own trigger fired on this tick exactly when the tick crossed it
        for uid, positions in before.items():
            for pid, p in positions.items():
                if p.pair_id != pair or ("liquidate", uid, tick) in sim.fired:
                    continue
                mine = [k for k, i, t in sim.fired if i == pid and t == tick and k != "liquidate"]
                mark = D(price)
                if p.status == ENTRUSTED:
                    crossed = mark <= p.target if p.side == LONG else mark >= p.target
                    assert mine == (["open"] if crossed else []), (tick, p, mark, mine)
                else:
                    hit_tp = p.tp and (mark >= p.tp if p.side == LONG else mark <= p.tp)
                    hit_sl = p.sl and (mark <= p.sl if p.side == LONG else mark >= p.sl)
                    assert mine == (["take_profit"] if hit_tp else ["stop_loss"] if hit_sl else []), (tick, p, mine)
    # nothing fired twice, and the money is all there
    fired_positions = [(k, i) for k, i, _ in sim.fired if k != "liquidate"]
    assert len(fired_positions) == len(set(fired_positions))
    total = sum(sim.balances.values(), D(0)) + sum(sim.locks.values(), D(0)) + sum(sim.house.values(), D(0))
    assert total == sum((D(funds) for _ in sim.balances), D(0))
