"""How a LeverShard follows the marks: it loads its users' positions and balances, takes every lever
pair's ticks in order (Redis pub/sub as they come, the tick log for any it missed), replays the log
from its durable cursor after a restart, and keeps the cursors (mixed into the actor).

The pairs it follows are those open for lever plus those its positions are on (a pair an operator
closed for lever keeps its positions' triggers and closes); ``_reload_terms`` reads the pairs' terms
again while it runs (the console's change): new positions take them, positions already made keep the
terms copied onto them, and a pair newly opened is followed from its last tick on."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from redis.asyncio import Redis
from tortoise.expressions import Q

from actors.lever.book import Decision, LeverBook
from actors.lever.state import USD, PairTerms, position_of
from config.settings import Settings
from store import channels, lever, marks, ticks
from store.models import Currency, CurrencyMatch, LeverCursor, LeverPosition
from store.times import now_ms

log = logging.getLogger(__name__)
CURSOR_FLUSH_S = 1.0
REPLAY_PAGE = 1000
RECOVER_DELAYS = (0.1, 0.2, 0.5, 1.0, 2.0)


class LeverFeed:
    """Mixed into the LeverShard: loading, the tick feed, replay and cursors."""

    _index: int
    _shards: int
    _settings: Settings
    _redis: Redis
    _book: LeverBook
    _rows: dict[int, LeverPosition]
    _pairs: dict[int, PairTerms]
    _usdt: int
    _ticks: asyncio.Queue[tuple[int, int, Decimal, int]]
    _loaded: asyncio.Event
    _healthy: bool
    _done: dict[int, int]
    _flushed: dict[int, int]
    _loops: dict[str, int]
    _terms_lock: asyncio.Lock
    _followed_version: int  # moves when the set of followed pairs changes: the listener subscribes again
    _stored_balance: Callable[[int], Awaitable[Decimal]]  # the actor's

    if TYPE_CHECKING:  # the checker's view only: at runtime a stub here would shadow them in the MRO

        async def _ready(self) -> None: ...  # DbActor's

        async def _carry_out_all(self, decisions: list[Decision], tick_id: int) -> None: ...  # LeverEvents'

    async def _serve(self) -> None:
        """Load, then carry out every tick in order, forever; a failure reloads and replays."""
        await self._recover()
        while True:
            pair_id, seq, price, tick_id = await self._ticks.get()
            try:
                await self._take(pair_id, seq, price, tick_id)
            except Exception:
                log.exception("lever shard %d: tick %s of pair %s failed; reloading", self._index, seq, pair_id)
                await self._recover()

    async def _recover(self) -> None:
        self._healthy = False
        attempt = 0
        while True:
            try:
                await self._flush()
                await self._load()
                break
            except Exception:
                log.exception("lever shard %d: could not load (attempt %d)", self._index, attempt + 1)
                await asyncio.sleep(RECOVER_DELAYS[min(attempt, len(RECOVER_DELAYS) - 1)])
                attempt += 1
        self._healthy = True
        self._loaded.set()

    async def _load(self) -> None:
        """This shard's active positions, the pairs (open for lever or holding them) and balances,
        then every tick after the cursors."""
        async with self._terms_lock:
            await self._load_locked()

    async def _load_locked(self) -> None:
        await self._ready()
        self._usdt = (await Currency.get(code=USD)).id
        self._book = LeverBook(self._settings.lever_liquidation_level)
        self._rows: dict[int, LeverPosition] = {}
        for row in await lever.active():
            if row.user_id % self._shards == self._index:
                self._rows[row.id] = row
        self._pairs = await self._read_terms(self._held())
        self._followed_version += 1
        for row in self._rows.values():
            self._book.put(position_of(row))
        for uid in {p.uid for a in self._book.accounts.values() for p in a.positions.values()}:
            self._book.set_balance(uid, await self._stored_balance(uid))
        # Drain what arrived while loading: the replay below reads the log itself.
        while not self._ticks.empty():
            self._ticks.get_nowait()
        cursors = {c.currency_match_id: c.seq for c in await LeverCursor.filter(shard=self._index)}
        held = self._held()
        for pair_id in self._pairs:
            if pair_id not in cursors or pair_id not in held:
                # A new shard or pair, or one this shard holds nothing on (its cursor may be old: the pair
                # was closed for lever a while): nothing of its past can decide anything; from now on
                # its ticks count (a restart replays them).
                last = await ticks.last_tick(pair_id)
                cursors[pair_id] = await self._cursor_at(pair_id, last.seq if last else 0)
            self._done[pair_id] = self._flushed[pair_id] = cursors[pair_id]
            self._book.seqs[pair_id] = cursors[pair_id]
            at = await ticks.tick_seq(pair_id, cursors[pair_id])  # the mark the replay starts from
            if at is not None:
                self._book.marks[pair_id] = at.price
        self._book.rearm_all()  # the positions were put before any mark was known
        for pair_id in self._pairs:
            await self._replay(pair_id)

    def _held(self) -> set[int]:
        """The pairs this shard's active positions are on."""
        return {row.currency_match_id for row in self._rows.values()}

    @staticmethod
    async def _read_terms(also: set[int]) -> dict[int, PairTerms]:
        """The terms of the USDT pairs open for lever, and of the pairs in ``also`` (open or not)."""
        rows = await CurrencyMatch.filter(
            Q(open_lever=True) | Q(id__in=sorted(also)), quote_currency__code=USD
        ).prefetch_related("base_currency", "quote_currency")
        return {p.id: PairTerms.of(p) for p in rows}

    async def _reload_terms(self) -> dict[str, list[int]]:
        """Read the pairs' terms again and follow a pair newly open for lever from its last tick on (this
        shard holds nothing on it, so nothing of its past can decide anything). A pair closed for lever
        stays followed while the shard runs: positions on it keep closing and triggering; the next load
        drops it when none is left."""
        async with self._terms_lock:
            fresh = await self._read_terms(self._held() | set(self._pairs))
            for pair_id in fresh.keys() - self._pairs.keys():
                last = await ticks.last_tick(pair_id)
                seq = await self._cursor_at(pair_id, last.seq if last else 0)
                self._done[pair_id] = self._flushed[pair_id] = self._book.seqs[pair_id] = seq
                if last is not None:
                    self._book.marks[pair_id] = last.price
            if fresh.keys() != self._pairs.keys():
                self._followed_version += 1
            self._pairs = fresh
        return {"offered": sorted(p.id for p in fresh.values() if p.offered), "followed": sorted(fresh)}

    async def _cursor_at(self, pair_id: int, seq: int) -> int:
        """Write the pair's cursor of this shard as ``seq``; answers it."""
        if not await LeverCursor.filter(shard=self._index, currency_match_id=pair_id).update(seq=seq):
            await LeverCursor.get_or_create(shard=self._index, currency_match_id=pair_id, defaults={"seq": seq})
        return seq

    async def _replay(self, pair_id: int) -> None:
        """Carry out the ticks after the pair's cursor, from the log, in order."""
        while True:
            page = await ticks.ticks_after(pair_id, self._done[pair_id], REPLAY_PAGE)
            if not page:
                return
            for tick in page:
                await self._take(pair_id, tick.seq, tick.price, tick.id)

    async def _take(self, pair_id: int, seq: int, price: Decimal, tick_id: int) -> None:
        """One tick: fill the gap before it from the log if some were missed, then its decisions."""
        done = self._done.get(pair_id, 0)
        if seq <= done:
            return
        if seq > done + 1:
            for tick in await ticks.ticks_after(pair_id, done, seq - done - 1):
                if tick.seq < seq:
                    await self._take(pair_id, tick.seq, tick.price, tick.id)
        await self._carry_out_all(self._book.on_tick(pair_id, price, seq), tick_id)
        self._done[pair_id] = seq
        self._loops["ticks"] = now_ms()

    async def _listen(self) -> None:
        """Every followed pair's MARK channel, each tick handed to the serving loop. Subscribed again when
        the followed pairs change (a reload of the terms, a load)."""
        await self._loaded.wait()

        async def take(pair_id: int, tick: dict[str, Any]) -> None:
            self._ticks.put_nowait((pair_id, int(tick["seq"]), Decimal(tick["price"]), int(tick["id"])))

        await channels.listen_marks(self._redis, lambda: {t.symbol: t.id for t in self._pairs.values()}, take,
                                    f"lever shard {self._index}", lambda: self._followed_version)  # fmt: skip

    async def _flush_loop(self) -> None:
        while True:
            await asyncio.sleep(CURSOR_FLUSH_S)
            if not self._healthy:
                continue
            try:
                await self._flush()
                await self._catch_up()
            except Exception:
                log.warning("lever shard %d: cursor flush failed", self._index, exc_info=True)

    async def _flush(self) -> None:
        """Write the cursors that moved (the last tick of each pair with every decision durable)."""
        for pair_id, seq in list(self._done.items()):
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
        pairs = list(self._pairs.items())
        found = await marks.read(self._redis, [pair.symbol for _, pair in pairs])
        for pair_id, pair in pairs:
            mark = found.get(pair.symbol)
            if mark is not None and mark.seq > self._done.get(pair_id, 0):
                self._ticks.put_nowait((pair_id, mark.seq, mark.price, mark.tick_id))
