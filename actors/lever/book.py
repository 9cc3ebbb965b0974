"""The leveraged positions and lever accounts of one shard, and what a mark tick decides (pure).

The ``LeverBook`` holds, for its users: each lever account's free balance and its positions (open
ones and entrustments), and for each pair a ``TriggerBook`` of the prices that make something happen:
entrustments, take-profits, stop-losses, and each account's liquidation price on that pair. It only
decides: ``on_tick`` answers the decisions a mark tick makes, the shard's actor carries each out
durably, then tells the book what changed (``put``, ``drop``, ``set_balance``).

Cross margin (the risk rate counts every open position of the account): an account's liquidation
price on a pair is where its risk rate reaches the level with the other pairs at their current marks.
It moves when those marks move, so a tick on one pair re-arms the liquidation triggers, on their
other pairs, of the accounts that hold this pair and another (an account on one pair only costs
nothing), and checks those accounts' risk rate at once. A tick that crosses nothing costs O(log n)
plus O(log n) per such multi-pair account.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from decimal import Decimal

from actors.lever import terms
from actors.lever.terms import HUNDRED, LONG, SHORT
from actors.lever.triggers import Direction, Ident, TriggerBook

ENTRUSTED, OPEN = 0, 1  # LeverStatus values the book holds (closed and cancelled ones leave it)
ZERO = Decimal(0)


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
class Account:
    uid: int
    balance: Decimal = ZERO  # free balance of the lever account
    positions: dict[int, Position] = field(default_factory=dict)

    def open_positions(self) -> list[Position]:
        return [p for p in self.positions.values() if p.status == OPEN]

    def pairs(self) -> set[int]:
        return {p.pair_id for p in self.positions.values() if p.status == OPEN}


class LeverBook:
    """Accounts, positions and per-pair trigger books of one shard. See the module docstring."""

    def __init__(self, level: Decimal) -> None:
        self.level = level  # liquidation at or below this risk rate, percent
        self.accounts: dict[int, Account] = {}
        self.marks: dict[int, Decimal] = {}
        self.seqs: dict[int, int] = {}
        self._books: dict[int, TriggerBook] = defaultdict(TriggerBook)
        self._holders: dict[int, set[int]] = defaultdict(set)  # pair -> users with open positions on it

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
        account.positions[position.id] = position
        book = self._books[position.pair_id]
        if position.status == ENTRUSTED:
            direction = Direction.DOWN if position.side == LONG else Direction.UP
            book.arm(("entrust", position.id), position.target, direction, position.armed_seq)
        elif position.status == OPEN:
            self._holders[position.pair_id].add(position.uid)
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
            if position.pair_id not in account.pairs():
                self._holders[position.pair_id].discard(uid)
                self._books[position.pair_id].disarm(("liq", uid))
            self._rearm_liquidation(uid)
        return position

    def position(self, position_id: int, uid: int) -> Position | None:
        return self.account(uid).positions.get(position_id)

    # -- what the book works out ---------------------------------------------------------------------

    def margins(self, uid: int) -> Decimal:
        return sum((p.margin for p in self.account(uid).open_positions()), ZERO)

    def unrealised(self, position: Position) -> Decimal:
        mark = self.marks.get(position.pair_id, position.price)
        return terms.unrealised(position.side, position.price, mark, position.hands, position.share_num)

    def equity(self, uid: int) -> Decimal:
        account = self.account(uid)
        opened = account.open_positions()
        return account.balance + sum((p.margin + self.unrealised(p) for p in opened), ZERO)

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
        marks (None when the pair does not move its equity, or no positive price does it)."""
        account = self.account(uid)
        opened = account.open_positions()
        margins = sum((p.margin for p in opened), ZERO)
        here = [p for p in opened if p.pair_id == pair_id]
        k = sum((p.signed_qty for p in here), ZERO)
        if not margins or not k:
            return None
        others = sum((p.margin + self.unrealised(p) for p in opened if p.pair_id != pair_id), ZERO)
        constant = account.balance + others + sum((p.margin - p.signed_qty * p.price for p in here), ZERO)
        price = (self.level / HUNDRED * margins - constant) / k
        if price <= 0:
            return None  # a long account that no fall of this pair can bring down
        return price, Direction.DOWN if k > 0 else Direction.UP

    def exposure(self, pair_id: int) -> Decimal:
        """The house's net position on the pair from this shard's users: longs minus shorts, in base."""
        return sum(
            (p.signed_qty for uid in self._holders.get(pair_id, ()) for p in self.account(uid).open_positions()
             if p.pair_id == pair_id),
            ZERO,
        )  # fmt: skip

    # -- a tick ------------------------------------------------------------------------------------

    def on_tick(self, pair_id: int, mark: Decimal, seq: int) -> list[Decision]:
        """Take a mark tick of a pair and answer what it decides: take-profits and stop-losses first,
        then entrustments, then liquidations (the actor checks an account's risk again before it
        liquidates: a close before it may have saved it). A seq not after the last one is ignored."""
        if seq <= self.seqs.get(pair_id, 0):
            return []
        self.marks[pair_id] = mark
        self.seqs[pair_id] = seq
        closes: list[Decision] = []
        opens: list[Decision] = []
        liquidations: dict[int, Decision] = {}
        for trigger in self._books[pair_id].crossed(mark, seq):
            kind, ident = trigger.ident
            if kind == "liq":
                liquidations[ident] = Decision("liquidate", ident, pair_id, mark, seq)
            elif kind == "entrust":
                opens.append(Decision("open", ident, pair_id, mark, seq))
            else:
                closes.append(Decision("take_profit" if kind == "tp" else "stop_loss", ident, pair_id, mark, seq))
        for uid in list(self._holders.get(pair_id, ())):
            if len(self.account(uid).pairs()) > 1 and uid not in liquidations:
                self._rearm_liquidation(uid)
                if self.at_risk(uid):
                    liquidations[uid] = Decision("liquidate", uid, pair_id, mark, seq)
        return closes + opens + list(liquidations.values())

    # -- internals ---------------------------------------------------------------------------------

    def _disarm(self, position: Position) -> None:
        book = self._books[position.pair_id]
        for kind in ("entrust", "tp", "sl"):
            book.disarm((kind, position.id))

    def _rearm_liquidation(self, uid: int) -> None:
        """Put the account's liquidation price on each pair it holds (or take it off)."""
        account = self.account(uid)
        for pair_id in account.pairs():
            found = self.liquidation_price(uid, pair_id)
            ident: Ident = ("liq", uid)
            if found is None:
                self._books[pair_id].disarm(ident)
            else:
                price, direction = found
                self._books[pair_id].arm(ident, price, direction, self.seqs.get(pair_id, 0))


def with_status(position: Position, **changes: object) -> Position:
    """A copy of ``position`` with ``changes`` (positions are immutable in the book)."""
    return replace(position, **changes)  # type: ignore[arg-type]


__all__ = ["ENTRUSTED", "LONG", "OPEN", "SHORT", "Account", "Decision", "LeverBook", "Position", "with_status"]
