"""How a LeverShard follows the marks: it loads its users' positions and balances, takes every lever
pair's ticks in order (Redis pub/sub as they come, the tick log for any it missed), replays the log
from its durable cursor after a restart, and keeps the cursors (mixed into the actor)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from decimal import Decimal

from redis.asyncio import Redis

from actors.lever.book import Decision, LeverBook
from actors.lever.state import USD, PairTerms, now_ms, position_of
from actors.push import channels
from config.settings import Settings
from store import lever, marks, ticks
from store.models import Currency, CurrencyMatch, LeverCursor, LeverPosition

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
    _ready: Callable[[], Awaitable[None]]  # DbActor's
    _carry_out_all: Callable[[list[Decision], int], Awaitable[None]]  # LeverEvents'
    _stored_balance: Callable[[int], Awaitable[Decimal]]  # the actor's

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
        """The pairs, this shard's active positions and balances, then every tick after the cursors."""
        await self._ready()
        pairs = await CurrencyMatch.filter(open_lever=True, quote_currency__code=USD).prefetch_related(
            "base_currency", "quote_currency"
        )
        self._pairs = {p.id: PairTerms.of(p) for p in pairs}
        self._usdt = (await Currency.get(code=USD)).id
        self._book = LeverBook(self._settings.lever_liquidation_level)
        self._rows: dict[int, LeverPosition] = {}
        for row in await lever.active():
            if row.user_id % self._shards == self._index:  # type: ignore[attr-defined]
                self._rows[row.id] = row
        for row in self._rows.values():
            self._book.put(position_of(row))
        for uid in {p.uid for a in self._book.accounts.values() for p in a.positions.values()}:
            self._book.set_balance(uid, await self._stored_balance(uid))
        # Drain what arrived while loading: the replay below reads the log itself.
        while not self._ticks.empty():
            self._ticks.get_nowait()
        cursors = {c.currency_match_id: c.seq for c in await LeverCursor.filter(shard=self._index)}
        for pair_id in self._pairs:
            last = await ticks.last_tick(pair_id)
            if pair_id not in cursors:  # a new shard or pair: nothing of the past to replay; from now on
                cursors[pair_id] = last.seq if last else 0  # its ticks count (a restart replays them)
                await LeverCursor.get_or_create(shard=self._index, currency_match_id=pair_id,
                                                defaults={"seq": cursors[pair_id]})  # fmt: skip
            self._done[pair_id] = self._flushed[pair_id] = cursors[pair_id]
            self._book.seqs[pair_id] = cursors[pair_id]
            at = await ticks.tick_seq(pair_id, cursors[pair_id])  # the mark the replay starts from
            if at is not None:
                self._book.marks[pair_id] = at.price
        self._book.rearm_all()  # the positions were put before any mark was known
        for pair_id in self._pairs:
            await self._replay(pair_id)

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
        """Subscribe to every lever pair's MARK channel; hand each tick to the serving loop."""
        await self._loaded.wait()
        while True:
            try:
                pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(*(channels.public_topic(f"MARK.{t.symbol}") for t in self._pairs.values()))
                by_symbol = {t.symbol: t.id for t in self._pairs.values()}
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    tick = json.loads(message["data"])
                    pair_id = by_symbol.get(tick.get("symbol", ""))
                    if pair_id is not None:
                        self._ticks.put_nowait((pair_id, int(tick["seq"]), Decimal(tick["price"]), int(tick["id"])))
            except Exception:
                log.warning("lever shard %d: mark feed lost; subscribing again", self._index, exc_info=True)
                await asyncio.sleep(1)

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
        """Read the log for ticks the feed did not bring (pub/sub drops messages when Redis is busy)."""
        for pair_id in self._pairs:
            mark = (await marks.read(self._redis, [self._pairs[pair_id].symbol])).get(self._pairs[pair_id].symbol)
            if mark is not None and mark.seq > self._done.get(pair_id, 0):
                self._ticks.put_nowait((pair_id, mark.seq, mark.price, mark.tick_id))
