"""How a LeverShard follows the marks: it loads its users' positions and balances (``read_shard``), takes
every lever pair's ticks in order (Redis pub/sub as they come, the tick log for any it missed), replays
the log from its durable cursor after a restart, and keeps the cursors (``LeverFeed``, an object the
shard owns).

The pairs it follows are those open for lever plus those its positions are on (a pair an operator
closed for lever keeps its positions' triggers and closes); the shard reads the pairs' terms again
while it runs (the console's change): new positions take them, positions already made keep the terms
copied onto them, and a pair newly opened is followed from its last tick on (``LeverFeed.follow_new``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from decimal import Decimal
from typing import Any

from redis.asyncio import Redis
from tortoise.expressions import Q

from actors.lever.book import Decision, LeverBook
from actors.lever.state import USD, PairTerms, position_of
from store import channels, lever, marks, ticks
from store.models import Account, AccountType, Currency, CurrencyMatch, LeverCursor, LeverPosition
from store.times import now_ms

log = logging.getLogger(__name__)
CURSOR_FLUSH_S = 1.0
REPLAY_PAGE = 1000

Tick = tuple[int, int, Decimal, int]  # (pair, seq, price, tick id)


async def read_shard(
    index: int, shards: int, level: Decimal
) -> tuple[int, LeverBook, dict[int, LeverPosition], dict[int, PairTerms]]:
    """Shard ``index``'s USDT currency id, its book (active positions and their accounts' balances), the
    positions' rows, and the pairs it follows (open for lever, or holding its positions)."""
    usdt = (await Currency.get(code=USD)).id
    book = LeverBook(level)
    rows = {row.id: row for row in await lever.active() if row.user_id % shards == index}
    pairs = await read_terms(held(rows))
    for row in rows.values():
        book.put(position_of(row))
    for uid in {p.uid for a in book.accounts.values() for p in a.positions.values()}:
        book.set_balance(uid, await stored_balance(uid, usdt))
    return usdt, book, rows, pairs


async def stored_balance(uid: int, usdt: int) -> Decimal:
    """The lever account's free balance as stored."""
    row = await Account.get_or_none(user_id=uid, currency_id=usdt, account_type=AccountType.LEVER)
    return row.balance if row else Decimal(0)


def held(rows: dict[int, LeverPosition]) -> set[int]:
    """The pairs these active positions are on."""
    return {row.currency_match_id for row in rows.values()}


async def read_terms(also: set[int]) -> dict[int, PairTerms]:
    """The terms of the USDT pairs open for lever, and of the pairs in ``also`` (open or not)."""
    rows = await CurrencyMatch.filter(
        Q(open_lever=True) | Q(id__in=sorted(also)), quote_currency__code=USD
    ).prefetch_related("base_currency", "quote_currency")
    return {p.id: PairTerms.of(p) for p in rows}


class LeverFeed:
    """Owned by the LeverShard: the queue of ticks, the cursors (``done``: per pair, the last tick whose
    decisions are all durable; written to ``lever_cursors``), replay and the listener. The shard's book
    and pairs are read through ``book`` and ``pairs`` (a load replaces them); what a tick decides is
    carried out by ``carry_out``."""

    def __init__(
        self,
        index: int,
        redis: Redis,
        book: Callable[[], LeverBook],
        pairs: Callable[[], dict[int, PairTerms]],
        carry_out: Callable[[list[Decision], int], Awaitable[None]],
        loops: dict[str, int],
    ) -> None:
        self._index = index
        self._redis = redis
        self._book = book
        self._pairs = pairs
        self._carry_out = carry_out
        self._loops = loops  # the shard's record of its loops' last runs ("ticks", "cursors")
        self.queue: asyncio.Queue[Tick] = asyncio.Queue()
        self.done: dict[int, int] = {}  # pair -> last tick seq whose decisions are all durable
        self._flushed: dict[int, int] = {}
        self._version = 0  # moves when the set of followed pairs changes: the listener subscribes again

    async def follow(self, held: set[int]) -> None:
        """After a load: the cursors of every followed pair, the marks they start from, then every tick
        after them from the log."""
        self._version += 1
        book, pairs = self._book(), self._pairs()
        # Drain what arrived while loading: the replay below reads the log itself.
        while not self.queue.empty():
            self.queue.get_nowait()
        cursors = {c.currency_match_id: c.seq for c in await LeverCursor.filter(shard=self._index)}
        for pair_id in pairs:
            if pair_id not in cursors or pair_id not in held:
                # A new shard or pair, or one this shard holds nothing on (its cursor may be old: the pair
                # was closed for lever a while): nothing of its past can decide anything; from now on
                # its ticks count (a restart replays them).
                last = await ticks.last_tick(pair_id)
                cursors[pair_id] = await self._cursor_at(pair_id, last.seq if last else 0)
            self.done[pair_id] = self._flushed[pair_id] = cursors[pair_id]
            book.seqs[pair_id] = cursors[pair_id]
            at = await ticks.tick_seq(pair_id, cursors[pair_id])  # the mark the replay starts from
            if at is not None:
                book.marks[pair_id] = at.price
        book.rearm_all()  # the positions were put before any mark was known
        for pair_id in pairs:
            await self._replay(pair_id)

    async def follow_terms(self, fresh: dict[int, PairTerms]) -> None:
        """The pairs' terms read again (before the shard takes them): a pair newly open for lever is
        followed from its last tick on (the shard holds nothing on it, so nothing of its past can decide
        anything). A pair closed for lever stays followed while the shard runs: positions on it keep
        closing and triggering; the next load drops it when none is left."""
        followed, book = self._pairs(), self._book()
        for pair_id in fresh.keys() - followed.keys():
            last = await ticks.last_tick(pair_id)
            seq = await self._cursor_at(pair_id, last.seq if last else 0)
            self.done[pair_id] = self._flushed[pair_id] = book.seqs[pair_id] = seq
            if last is not None:
                book.marks[pair_id] = last.price
        if fresh.keys() != followed.keys():
            self._version += 1

    async def _cursor_at(self, pair_id: int, seq: int) -> int:
        """Write the pair's cursor of this shard as ``seq``; answers it."""
        if not await LeverCursor.filter(shard=self._index, currency_match_id=pair_id).update(seq=seq):
            await LeverCursor.get_or_create(shard=self._index, currency_match_id=pair_id, defaults={"seq": seq})
        return seq

    async def _replay(self, pair_id: int) -> None:
        """Carry out the ticks after the pair's cursor, from the log, in order."""
        while True:
            page = await ticks.ticks_after(pair_id, self.done[pair_id], REPLAY_PAGE)
            if not page:
                return
            for tick in page:
                await self.take(pair_id, tick.seq, tick.price, tick.id)

    async def take(self, pair_id: int, seq: int, price: Decimal, tick_id: int) -> None:
        """One tick: fill the gap before it from the log if some were missed, then its decisions."""
        done = self.done.get(pair_id, 0)
        if seq <= done:
            return
        if seq > done + 1:
            for tick in await ticks.ticks_after(pair_id, done, seq - done - 1):
                if tick.seq < seq:
                    await self.take(pair_id, tick.seq, tick.price, tick.id)
        await self._carry_out(self._book().on_tick(pair_id, price, seq), tick_id)
        self.done[pair_id] = seq
        self._loops["ticks"] = now_ms()

    async def listen(self, loaded: asyncio.Event) -> None:
        """Once ``loaded``, every followed pair's MARK channel, each tick handed to the serving loop
        (``queue``). Subscribed again when the followed pairs change (a reload of the terms, a load)."""
        await loaded.wait()

        async def take(pair_id: int, tick: dict[str, Any]) -> None:
            self.queue.put_nowait((pair_id, int(tick["seq"]), Decimal(tick["price"]), int(tick["id"])))

        await channels.listen_marks(self._redis, lambda: {t.symbol: t.id for t in self._pairs().values()}, take,
                                    f"lever shard {self._index}", lambda: self._version)  # fmt: skip

    async def flush_and_catch_up(self) -> None:
        """Every CURSOR_FLUSH_S while the shard is healthy (the loop "cursors"): the cursors that moved,
        and the ticks the feed did not bring."""
        await self.flush()
        await self._catch_up()

    async def flush(self) -> None:
        """Write the cursors that moved (the last tick of each pair with every decision durable)."""
        for pair_id, seq in list(self.done.items()):
            if self._flushed.get(pair_id) == seq:
                continue
            updated = await LeverCursor.filter(shard=self._index, currency_match_id=pair_id).update(seq=seq)
            if not updated:
                await LeverCursor.get_or_create(shard=self._index, currency_match_id=pair_id, defaults={"seq": seq})
            self._flushed[pair_id] = seq
        self._loops["cursors"] = now_ms()

    async def _catch_up(self) -> None:
        """Read the log for ticks the feed did not bring (pub/sub drops messages when Redis is busy).
        Every followed pair's mark in one read: this runs every ``CURSOR_FLUSH_S``, idle or not."""
        pairs = list(self._pairs().items())
        found = await marks.read(self._redis, [pair.symbol for _, pair in pairs])
        for pair_id, pair in pairs:
            mark = found.get(pair.symbol)
            if mark is not None and mark.seq > self.done.get(pair_id, 0):
                self.queue.put_nowait((pair_id, mark.seq, mark.price, mark.tick_id))
