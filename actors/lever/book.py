"""The leveraged positions and lever accounts of one shard, and what a mark tick decides (pure).

The ``LeverBook`` holds, for its users: each lever account's free balance and its positions (open
ones and entrustments), and for each pair a ``TriggerBook`` of the prices that make something happen:
entrustments, take-profits, stop-losses, and each account's liquidation price on that pair. It only
decides: ``on_tick`` answers the decisions a mark tick makes, the shard's actor carries each out
durably, then tells the book what changed (``put``, ``drop``, ``set_balance``).

Cross margin (the risk rate counts every open position of the account): an account's liquidation
price on a pair is where its risk rate reaches the level with its other pairs' marks held fixed. Those
marks move, so for an account on several pairs the price is armed **conservatively**: each other pair
at the adverse edge of a band (``band``, 1 %) around the mark it had when the account was armed (a
net long's edge below, a net short's above). While every mark stays inside its band the armed price is
reached no later than the true one, so nothing is missed; a ``band`` trigger on each pair fires when
its mark leaves the band, and the account is re-armed around the new marks. A conservative trigger
that fires is checked exactly (the risk rate at the marks) and re-armed when the account is still
above the level. An account on one pair has no other marks: its price is exact and needs no band.

So a tick costs O(log n) plus O(pairs held) for each account whose band or trigger it crosses; the
risk rate, equity and liquidation price read per-pair sums kept with the positions (net quantity,
cost, margin), O(pairs held), never a pass over an account's positions.

The book also answers what the house's money needs before the actor moves any: what may leave an
account or back a new position (``free``, ``at_risk_after``) and whether an order or a fill takes
the shard past its share of a pair's exposure cap (``past_cap``, counting pending entrustments).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import ROUND_DOWN, Decimal

from actors.lever import terms
from actors.lever.terms import HUNDRED, LONG, SHORT
from actors.lever.triggers import Direction, TriggerBook

ENTRUSTED, OPEN = 0, 1  # LeverStatus values the book holds (closed and cancelled ones leave it)
ZERO = Decimal(0)
BAND = Decimal("0.01")  # see the module docstring: cross-margin triggers assume other marks move at most 1 %


@dataclass(frozen=True)
class Position:
    """What the book needs of a position (the actor keeps the full row)."""

    id: int
    uid: int
    pair_id: int
    side: int  # LONG or SHORT
    status: int  # ENTRUSTED or OPEN
    hands: int
    share_num: Decimal
    multiple: int
    price: Decimal = ZERO  # the open price (0 while entrusted)
    margin: Decimal = ZERO  # held while open
    frozen: Decimal = ZERO  # held while entrusted (margin and fee at the target)
    target: Decimal = ZERO  # an entrustment's price
    tp: Decimal = ZERO  # take-profit, 0: none
    sl: Decimal = ZERO  # stop-loss, 0: none
    armed_seq: int = 0  # the pair's tick seq when the entrustment was made
    stop_seq: int = 0  # ... and when its take-profit and stop-loss were set
    origin_margin: Decimal = ZERO  # its margin when it opened (overnight fees may have taken some since)
    point_rate: Decimal = ZERO  # its spread, percent: what a close pays

    @property
    def qty(self) -> Decimal:
        return terms.quantity(self.hands, self.share_num)

    @property
    def signed_qty(self) -> Decimal:
        return self.qty if self.side == LONG else -self.qty


@dataclass(frozen=True)
class Decision:
    """What a tick decided: ``open`` an entrustment, close a position on ``take_profit`` or
    ``stop_loss``, or ``liquidate`` an account (``ident`` is the position id, or the user id)."""

    kind: str
    ident: int
    pair_id: int
    mark: Decimal
    seq: int


@dataclass
class Holding:
    """An account's open positions on one pair, summed: all its risk needs of them."""

    count: int = 0
    qty: Decimal = ZERO  # net signed quantity (longs - shorts), base units
    cost: Decimal = ZERO  # sum of signed quantity x open price
    margin: Decimal = ZERO

    def add(self, position: Position, sign: int) -> None:
        self.count += sign
        self.qty += sign * position.signed_qty
        self.cost += sign * position.signed_qty * position.price
        self.margin += sign * position.margin

    def value(self, mark: Decimal | None) -> Decimal:
        """Margins plus unrealised profit at ``mark`` (no mark yet: at the open prices, i.e. none)."""
        return self.margin if mark is None else self.margin + self.qty * mark - self.cost


@dataclass
class Account:
    uid: int
    balance: Decimal = ZERO  # free balance of the lever account
    positions: dict[int, Position] = field(default_factory=dict)
    holdings: dict[int, Holding] = field(default_factory=dict)  # pair -> its open positions, summed
    margins: Decimal = ZERO  # of every open position

    def open_positions(self) -> list[Position]:
        return [p for p in self.positions.values() if p.status == OPEN]

    def pairs(self) -> set[int]:
        return set(self.holdings)


class LeverBook:
    """Accounts, positions and per-pair trigger books of one shard. See the module docstring."""

    def __init__(self, level: Decimal, band: Decimal = BAND) -> None:
        self.level = level  # liquidation at or below this risk rate, percent
        self.band = band  # how far another pair's mark may move before a cross-margin account is re-armed
        self.accounts: dict[int, Account] = {}
        self.marks: dict[int, Decimal] = {}
        self.seqs: dict[int, int] = {}
        self._books: dict[int, TriggerBook] = defaultdict(TriggerBook)
        self._holders: dict[int, set[int]] = defaultdict(set)  # pair -> users with open positions on it
        self._net: dict[int, Decimal] = defaultdict(Decimal)  # pair -> net signed quantity of this shard
        self._pending: dict[tuple[int, int], Decimal] = defaultdict(Decimal)  # (pair, side) -> entrusted quantity

    # -- what the actor tells the book ---------------------------------------------------------------

    def account(self, uid: int) -> Account:
        if uid not in self.accounts:
            self.accounts[uid] = Account(uid)
        return self.accounts[uid]

    def set_balance(self, uid: int, balance: Decimal) -> None:
        self.account(uid).balance = balance
        self._rearm_liquidation(uid)

    def put(self, position: Position) -> None:
        """Add or replace a position (entrusted or open) and its triggers."""
        account = self.account(position.uid)
        old = account.positions.get(position.id)
        if old is not None:
            self._disarm(old)
            self._hold(account, old, -1)
        account.positions[position.id] = position
        self._hold(account, position, 1)
        book = self._books[position.pair_id]
        if position.status == ENTRUSTED:
            direction = Direction.DOWN if position.side == LONG else Direction.UP
            book.arm(("entrust", position.id), position.target, direction, position.armed_seq)
        elif position.status == OPEN:
            if position.tp:
                direction = Direction.UP if position.side == LONG else Direction.DOWN
                book.arm(("tp", position.id), position.tp, direction, position.stop_seq)
            if position.sl:
                direction = Direction.DOWN if position.side == LONG else Direction.UP
                book.arm(("sl", position.id), position.sl, direction, position.stop_seq)
        self._rearm_liquidation(position.uid)

    def drop(self, position_id: int, uid: int) -> Position | None:
        """Remove a position (closed or cancelled) and its triggers."""
        account = self.account(uid)
        position = account.positions.pop(position_id, None)
        if position is not None:
            self._disarm(position)
            self._hold(account, position, -1)
            self._rearm_liquidation(uid)
        return position

    def rearm_all(self) -> None:
        """Arm every account's liquidation triggers at the current marks: after ``marks`` and ``seqs``
        were set directly (a shard loading from its cursors), not through ``on_tick``."""
        for uid in self.accounts:
            self._rearm_liquidation(uid)

    def position(self, position_id: int, uid: int) -> Position | None:
        return self.account(uid).positions.get(position_id)

    # -- what the book works out ---------------------------------------------------------------------

    def margins(self, uid: int) -> Decimal:
        return self.account(uid).margins

    def unrealised(self, position: Position) -> Decimal:
        mark = self.marks.get(position.pair_id, position.price)
        return terms.unrealised(position.side, position.price, mark, position.hands, position.share_num)

    def equity(self, uid: int) -> Decimal:
        account = self.account(uid)
        return account.balance + sum((h.value(self.marks.get(pair)) for pair, h in account.holdings.items()), ZERO)

    def risk(self, uid: int) -> Decimal | None:
        """The risk rate in percent: equity / margins x 100; None without open positions."""
        margins = self.margins(uid)
        return self.equity(uid) / margins * HUNDRED if margins else None

    def at_risk(self, uid: int) -> bool:
        """Whether the account's risk rate is at or below the liquidation level."""
        rate = self.risk(uid)
        return rate is not None and rate <= self.level

    def liquidation_price(self, uid: int, pair_id: int) -> tuple[Decimal, Direction] | None:
        """The mark of ``pair_id`` at which the account reaches the level, the other pairs at their
        marks (None when the pair does not move its equity, or no positive price does it). Exact: the
        armed trigger of an account on several pairs is the conservative one (the module docstring)."""
        account = self.account(uid)
        holding = account.holdings.get(pair_id)
        if holding is None:
            return None
        others = sum((h.value(self.marks.get(p)) for p, h in account.holdings.items() if p != pair_id), ZERO)
        return self._price_for(account, holding, others)

    def exposure(self, pair_id: int) -> Decimal:
        """The house's net position on the pair from this shard's users: longs minus shorts, in base."""
        return self._net.get(pair_id, ZERO)

    def pending(self, pair_id: int, side: int) -> Decimal:
        """The quantity of this shard's entrustments on that side of the pair, in base."""
        return self._pending.get((pair_id, side), ZERO)

    def past_cap(self, pair_id: int, side: int, qty: Decimal, mark: Decimal, cap: Decimal, *, pending: bool) -> bool:
        """Whether ``qty`` more on ``side`` takes the shard's exposure that way past ``cap`` (valued at
        ``mark``) and further from zero than it was. With ``pending``, the exposure is the worst case of
        an order: every entrustment on that side filled too; without, what a fill makes it now."""
        net = self.exposure(pair_id)
        before = (net if side == LONG else -net) + (self.pending(pair_id, side) if pending else ZERO)
        after = before + qty
        return after * mark > cap and after > abs(before)

    def free(self, uid: int, places: Mapping[int, int]) -> Decimal:
        """What may leave the account: its free balance, as far as the equity counted at what closing
        every open position now would pay (the mark moved by its spread, ``places`` the pairs' price
        places) stays at or above the margins the positions were opened with (the part overnight fees
        took from a margin is owed before anything leaves). Rounded down to USDT's places. A pass over
        the account's open positions (a transfer is rare)."""
        account = self.account(uid)
        worth = account.balance
        for p in account.open_positions():
            mark = self.marks.get(p.pair_id, p.price)
            price = terms.close_price(mark, p.point_rate, p.side, places[p.pair_id])
            owed = max(p.origin_margin, p.margin) - p.margin
            worth += terms.unrealised(p.side, p.price, price, p.hands, p.share_num) - owed
        spare = max(ZERO, min(account.balance, worth))
        return spare.quantize(terms.step(terms.QUOTE_PLACES), rounding=ROUND_DOWN)

    def at_risk_after(self, uid: int, equity: Decimal, margins: Decimal) -> bool:
        """Whether the account would be at or below the level with ``equity`` and ``margins`` more
        (an entrustment's frozen funds leave the equity; an open adds its margin and costs its fee and
        spread): such an order is refused rather than liquidated at once."""
        total = self.margins(uid) + margins
        return total > 0 and (self.equity(uid) + equity) / total * HUNDRED <= self.level

    # -- a tick ------------------------------------------------------------------------------------

    def on_tick(self, pair_id: int, mark: Decimal, seq: int) -> list[Decision]:
        """Take a mark tick of a pair and answer what it decides: take-profits and stop-losses first,
        then entrustments, then liquidations (the actor checks an account's risk again before it
        liquidates: a close before it may have saved it). A seq not after the last one is ignored."""
        if seq <= self.seqs.get(pair_id, 0):
            return []
        first = pair_id not in self.marks
        self.marks[pair_id] = mark
        self.seqs[pair_id] = seq
        closes: list[Decision] = []
        opens: list[Decision] = []
        liquidations: dict[int, Decision] = {}
        recheck: set[int] = set()  # accounts armed conservatively whose trigger or band the tick crossed
        if first:  # the other pairs' triggers counted this one at its open prices: arm them at a mark
            recheck.update(uid for uid in self._holders.get(pair_id, ()) if len(self.account(uid).holdings) > 1)
        for trigger in self._books[pair_id].crossed(mark, seq):
            kind, ident = trigger.ident
            if kind == "band" or (kind == "liq" and len(self.account(ident).holdings) > 1):
                recheck.add(ident)
            elif kind == "liq":
                liquidations[ident] = Decision("liquidate", ident, pair_id, mark, seq)
            elif kind == "entrust":
                opens.append(Decision("open", ident, pair_id, mark, seq))
            else:
                closes.append(Decision("take_profit" if kind == "tp" else "stop_loss", ident, pair_id, mark, seq))
        for uid in sorted(recheck):
            self._rearm_liquidation(uid)
            if self.at_risk(uid):
                liquidations[uid] = Decision("liquidate", uid, pair_id, mark, seq)
        return closes + opens + list(liquidations.values())

    # -- internals ---------------------------------------------------------------------------------

    def _disarm(self, position: Position) -> None:
        book = self._books[position.pair_id]
        for kind in ("entrust", "tp", "sl"):
            book.disarm((kind, position.id))

    def _hold(self, account: Account, position: Position, sign: int) -> None:
        """Count a position into (``sign`` 1) or out of (-1) what the book sums: an entrustment into the
        pair's pending quantity, an open position into its account's holding on its pair."""
        pair_id = position.pair_id
        if position.status == ENTRUSTED:
            self._pending[(pair_id, position.side)] += sign * position.qty
            return
        if position.status != OPEN:
            return
        holding = account.holdings.setdefault(pair_id, Holding())
        holding.add(position, sign)
        account.margins += sign * position.margin
        self._net[pair_id] += sign * position.signed_qty
        if holding.count:
            self._holders[pair_id].add(account.uid)
        else:
            del account.holdings[pair_id]
            self._holders[pair_id].discard(account.uid)
            self._books[pair_id].disarm(("liq", account.uid))
            self._books[pair_id].disarm(("band", account.uid))

    def _edge(self, pair_id: int, holding: Holding) -> Decimal | None:
        """The pair's mark at the adverse edge of its band: below it for a net long, above for a net short."""
        mark = self.marks.get(pair_id)
        if mark is None or not holding.qty:
            return mark
        return mark * (1 - self.band) if holding.qty > 0 else mark * (1 + self.band)

    def _price_for(self, account: Account, holding: Holding, others: Decimal) -> tuple[Decimal, Direction] | None:
        """Where the mark of ``holding``'s pair takes the account to the level, its other pairs worth
        ``others`` (their margins and unrealised profit)."""
        k = holding.qty
        if not account.margins or not k:
            return None
        constant = account.balance + others + holding.margin - holding.cost
        price = (self.level / HUNDRED * account.margins - constant) / k
        if price <= 0:
            if k > 0:
                return None  # a long account that no fall of this pair can bring down
            # A net short that is at the level at any price of this pair (its other pairs counted at the
            # edges of their bands): every tick of the pair crosses it, and the exact check decides.
            return ZERO, Direction.UP
        return price, Direction.DOWN if k > 0 else Direction.UP

    def _rearm_liquidation(self, uid: int) -> None:
        """Put the account's liquidation price on each pair it holds (or take it off); on several pairs,
        conservatively, with a band trigger on each (the module docstring). O(pairs held x log n)."""
        account = self.account(uid)
        holdings = account.holdings
        cross = len(holdings) > 1
        worst = {p: h.value(self._edge(p, h) if cross else self.marks.get(p)) for p, h in holdings.items()}
        total = sum(worst.values(), ZERO)
        for pair_id, holding in holdings.items():
            book, seq = self._books[pair_id], self.seqs.get(pair_id, 0)
            found = self._price_for(account, holding, total - worst[pair_id])
            if found is None:
                book.disarm(("liq", uid))
            else:
                book.arm(("liq", uid), found[0], found[1], seq)
            edge = self._edge(pair_id, holding) if cross else None
            if edge is None or edge == self.marks.get(pair_id):
                book.disarm(("band", uid))
            else:
                book.arm(("band", uid), edge, Direction.DOWN if holding.qty > 0 else Direction.UP, seq)


def with_status(position: Position, **changes: object) -> Position:
    """A copy of ``position`` with ``changes`` (positions are immutable in the book)."""
    return replace(position, **changes)  # type: ignore[arg-type]


__all__ = [
    "BAND",
    "ENTRUSTED",
    "LONG",
    "OPEN",
    "SHORT",
    "Account",
    "Decision",
    "Holding",
    "LeverBook",
    "Position",
    "with_status",
]
