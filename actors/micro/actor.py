"""The MicroTimer actor: the second contracts whose ``id % n == index``, from the stake to the payout.

Each open contract is a timer: a heap entry at the moment its outcome can be decided (its end, or,
while no entry tick has come, its entry deadline). The shard keeps a tape of each pair's ticks since
its oldest open contract (``actors.micro.feed``: Redis pub/sub as they come, the log for any gap).
When a timer is due it asks the pair for a fence (``PairActor.tick_fence``: every tick stamped before
then is durable), completes the tape up to it (the fences of a pass's pairs at once), and decides with
the pure rule (``store.micro.settle``); the outcomes go to group commits (``actors.micro.passes``:
oldest first, each idempotent by its ref ``m<id>:settle`` with its order row and house rows in the
same transaction, then pushed as MICRO_CLOSED) while the loop decides the next due. Nothing but the
order and the ticks decides an outcome. Stakes share transactions too (``actors.micro.stakes``).

Open contracts are durable from the stake on: a restarted shard loads them and the ticks since the
oldest, and settles the overdue ones from the ticks at their own end time. A settlement applied by a
shard that died before it could forget the contract is found in the journal and not applied again.
Everything starts in the constructor, as named loops of the shard's ``Lifecycle`` (``actors.lifecycle``):
Ray runs it again when it restarts the actor.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections import defaultdict, deque
from typing import Any

import ray
from redis.asyncio import Redis

from actors.commands import Stake
from actors.engine import Engine
from actors.micro import stakes
from actors.micro.feed import TickFeed
from actors.micro.passes import Decided, Settlements, quantiles
from actors.micro.stakes import Exposure
from actors.micro.tape import Tape
from actors.runtime import DbActor, GroupCommit
from store import channels, ledger, marks, micro
from store.cache import connect_redis, redis_db
from store.errors import DomainError, ErrorCode
from store.micro import settle as rule
from store.models import Currency, MicroOrder, MicroStatus
from store.times import now_ms

log = logging.getLogger(__name__)
# With no contract open the loop waits for a wake-up (a new contract, a failed settlement) at most
# this long; an open contract's timer still wakes it at most a second apart (issue 31: an idle
# shard woke every second to find its heap empty).
IDLE_WAIT_S = 30.0
GIVE_UP_MS = 30_000  # a pair silent this long after a decision time: the log as it is decides
TRIM_EVERY_MS = 5_000
OFFERS_TTL_MS = 2_000  # pair and currency terms are read again this often (an operator's change)


# Ray's typed overloads of ray.remote() lack the actor option max_concurrency (the ignore's one reason).
@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=0, max_concurrency=1000)  # type: ignore[call-overload]
class MicroTimer(DbActor):
    def __init__(self, index: int, settings: dict[str, Any]) -> None:
        super().__init__(settings, f"micro timer {index}")
        channels.use_database(redis_db(self._settings))
        self._index = index
        self._shards = self._settings.micro_shards
        self._redis: Redis = connect_redis(self._settings)
        self._engine = Engine(self._settings.wallet_shards, self._redis)
        self._open: dict[int, MicroOrder] = {}
        self._heap: list[tuple[int, int]] = []  # (when its outcome can be decided + 1 ms, order id)
        self._feed = TickFeed(index, self._redis)
        self._exposure: defaultdict[tuple[int, int, int], Exposure] = defaultdict(Exposure)
        self._stakes: GroupCommit[ledger.Op, bool] = GroupCommit(ledger.apply_debits)
        self._pairs: dict[int, micro.PairOffer] = {}  # the pairs offered now
        self._symbols: dict[int, str] = {}  # every pair's, also one closed for new contracts since
        self._currencies: dict[int, Currency] = {}  # the stake currencies now
        self._coins: dict[int, Currency] = {}  # every currency (its places settle a contract, staked or not now)
        self._offers_ms = 0
        self._trimmed_ms = 0
        self._wake = asyncio.Event()
        self._settlements = Settlements(index, self._redis, lambda row: self._public(row, None), self._on_settled,
                                        self._wake.set)  # fmt: skip
        self._lags: deque[int] = deque(maxlen=100_000)  # settled - end (ms) of recent settlements, for the benchmark
        self._settled = 0
        # Background work starts in the constructor: a restarted actor runs it again.
        self._life.loop("timers", self._serve)
        self._life.loop("listener", self._listen)

    # -- the calls -------------------------------------------------------------------------------------

    async def submit(self, uid: int, order_id: int, stake: Stake) -> dict[str, Any]:
        """Stake a new contract. Raises DomainError; durable when it answers, accepted at the
        answer's ``accepted_at``."""
        await self._life.serving()
        if not await micro.switched_on():
            raise DomainError(ErrorCode.MICRO_SWITCHED_OFF)
        pair_id, currency_id, seconds = stake.pair_id, stake.currency_id, stake.seconds
        await self._refresh_offers()
        if (
            pair_id not in self._pairs
            or seconds not in self._pairs[pair_id].durations
            or currency_id not in self._currencies
        ):
            await self._refresh_offers(force=True)  # an operator's change takes effect at once
        pair = self._pairs.get(pair_id)
        if pair is None:
            raise DomainError(ErrorCode.MICRO_NOT_OFFERED)
        if seconds not in pair.durations:
            raise DomainError(ErrorCode.MICRO_SECONDS_INVALID, seconds=", ".join(map(str, pair.durations)))
        currency = self._currencies.get(currency_id)
        if currency is None:
            raise DomainError(ErrorCode.MICRO_CURRENCY_INVALID)
        mark = (await marks.read(self._redis, [pair.symbol])).get(pair.symbol)
        if mark is None or not mark.fresh(now_ms(), self._settings.mark_stale_seconds):
            raise DomainError(ErrorCode.PRICE_STALE)  # the pair is down or has no price: nothing to settle on
        number = stake.number
        stakes.check(currency, number, stake.lx)
        row = MicroOrder(id=order_id, user_id=uid, currency_match_id=pair.id, currency_id=currency.id,
                         type=stake.side, seconds=seconds, number=number,
                         profit_ratio=pair.durations[seconds], fee_rate=pair.fee_rate, status=MicroStatus.OPEN,
                         accepted_ms=now_ms())  # fmt: skip
        exposure = self._exposure[(pair.id, seconds, currency.id)]
        exposure.add(row, 1)
        try:
            if exposure.worst() > pair.max_exposure / self._shards:
                raise DomainError(ErrorCode.MICRO_EXPOSURE)
            applied = await self._stakes.submit(stakes.op(row, currency))
        except BaseException:
            exposure.add(row, -1)
            raise
        if not applied:  # the same submit again (its caller lost the answer): the contract as stored
            exposure.add(row, -1)
            row = await MicroOrder.get(id=row.id)
            if row.status != MicroStatus.OPEN or row.id in self._open:
                return self._public(row, None)
            self._exposure[(pair.id, row.seconds, currency.id)].add(row, 1)
        if pair.id not in self._feed.tapes:  # a pair offered since the shard loaded: its log from now on
            await self._feed.start(pair.id, row.accepted_ms)
        self._open[row.id] = row
        self._schedule(row)
        return self._public(row, None)

    async def reload_terms(self) -> dict[str, list[int]]:
        """Read the pairs' and currencies' terms now (an operator changed them in the console) rather
        than within OFFERS_TTL_MS: the next stake is made with them. Contracts already made keep the
        ratio and fee they were accepted with, and settle as before on a pair closed since."""
        await self._life.serving()
        await self._refresh_offers(force=True, now=True)
        return {"pairs": sorted(self._pairs), "currencies": sorted(self._currencies)}

    async def status(self) -> dict[str, Any]:
        """What the shard holds and how its settlements went (lag = settled - end, ms; each commit's
        contracts, its transaction and its pushes: p50, p99, max)."""
        lags = quantiles(self._lags)
        return {"index": self._index, "healthy": self._life.healthy, "open": len(self._open), "settled": self._settled,
                "lag_p50_ms": lags["p50"], "lag_p99_ms": lags["p99"], "lag_max_ms": lags["max"],
                **self._settlements.figures()}  # fmt: skip

    async def reset_stats(self) -> None:
        self._lags.clear()
        self._settlements.commits.clear()
        self._settled = 0

    # -- loading ---------------------------------------------------------------------------------------

    async def _refresh_offers(self, force: bool = False, now: bool = False) -> None:
        """Read the terms again when they are OFFERS_TTL_MS old, or (``force``) a second old, or (``now``)
        at once."""
        if now or now_ms() - self._offers_ms > (1000 if force else OFFERS_TTL_MS):
            self._pairs = await micro.offered_pairs()
            self._symbols.update({p.id: p.symbol for p in self._pairs.values()})
            self._currencies = {c.id: c for c in await micro.stake_currencies()}
            self._coins.update(self._currencies)
            self._offers_ms = now_ms()

    async def _load(self) -> None:
        """The terms, this shard's open contracts, and each pair's ticks since its oldest of them."""
        await self._ready()
        self._symbols = await micro.pair_symbols()
        self._coins = {c.id: c for c in await Currency.all()}
        await self._refresh_offers(now=True)
        self._open, self._heap = {}, []
        self._exposure.clear()
        for row in await MicroOrder.filter(status=MicroStatus.OPEN).order_by("id"):
            if row.id % self._shards == self._index:
                self._open[row.id] = row
                self._exposure[(row.currency_match_id, row.seconds, row.currency_id)].add(row, 1)
        oldest: dict[int, int] = {}
        for row in self._open.values():
            pair_id = row.currency_match_id
            oldest[pair_id] = min(oldest.get(pair_id, row.accepted_ms), row.accepted_ms)
        self._feed.tapes = {}
        for pair_id in {*self._pairs, *oldest}:
            await self._feed.start(pair_id, oldest.get(pair_id))
        for row in self._open.values():
            self._schedule(row)

    # -- the tick feed ---------------------------------------------------------------------------------

    def _followed(self) -> dict[str, int]:
        """The pairs whose ticks the shard takes: those offered, and those with a tape (open contracts
        on a pair closed for new ones still settle from its ticks)."""
        return {self._symbols[p]: p for p in {*self._pairs, *self._feed.tapes} if p in self._symbols}

    async def _listen(self) -> None:
        await self._life.loaded.wait()
        await self._feed.listen(self._followed)

    # -- the timers ------------------------------------------------------------------------------------

    def _terms(self, row: MicroOrder) -> rule.Terms:
        return micro.terms_of(row, self._places(row))

    def _places(self, row: MicroOrder) -> int:
        currency = self._coins.get(row.currency_id)
        return currency.decimals if currency is not None else 8

    def _decided_by(self, row: MicroOrder) -> int:
        tape = self._feed.tapes.get(row.currency_match_id)
        terms = self._terms(row)
        return rule.decided_by(terms, tape.ticks, tape.times) if tape else terms.entry_deadline_ms

    def _schedule(self, row: MicroOrder) -> None:
        heapq.heappush(self._heap, (self._decided_by(row) + 1, row.id))
        self._wake.set()

    async def _serve(self) -> None:
        """Load, then wake for each due timer, forever: decide what is due and hand it to the
        settling commits, which run while the loop decides the next. A failure reloads."""
        await self._life.load(self._load)
        while True:
            self._wake.clear()
            if self._settlements.failed is not None:
                log.error("micro timer %d: settling failed; reloading", self._index,
                          exc_info=self._settlements.failed)  # fmt: skip
                await self._reload()
                continue
            wait = None if not self._heap else (self._heap[0][0] - now_ms()) / 1000
            if wait is None or wait > 0:
                try:
                    await asyncio.wait_for(self._wake.wait(), IDLE_WAIT_S if wait is None else min(wait, 1.0))
                except TimeoutError:
                    pass
                continue
            try:
                ready = await self._decide_due(now_ms())
            except Exception:
                log.exception("micro timer %d: deciding failed; reloading", self._index)
                await self._reload()
                continue
            if ready:
                self._settlements.start(ready)

    async def _reload(self) -> None:
        """After a failure: let the settlements under way finish, then load again from the database."""
        await self._settlements.drain()
        await self._life.load(self._load)

    async def _decide_due(self, now: int) -> list[Decided]:
        """The outcomes of every contract due by ``now`` whose pair's ticks are known past its end
        (the fences of its pairs asked at once); the rest wait (``Tape.wake_at``)."""
        due: dict[int, list[MicroOrder]] = defaultdict(list)
        seen: set[int] = set()
        while self._heap and self._heap[0][0] <= now:
            _, order_id = heapq.heappop(self._heap)
            row = self._open.get(order_id)
            if row is not None and order_id not in seen:
                seen.add(order_id)
                due[row.currency_match_id].append(row)
        tapes = {pair_id: self._feed.tape(pair_id) for pair_id in due}
        decided: list[tuple[int, Decided]] = []
        unconfirmed: dict[int, list[MicroOrder]] = defaultdict(list)
        self._take(due, tapes, now, decided, unconfirmed)
        behind = {p: min(map(self._decided_by, rows)) for p, rows in unconfirmed.items()}
        await asyncio.gather(*(self._complete(p, decided_by, now) for p, decided_by in behind.items()))
        self._take(unconfirmed, tapes, now, decided, None)
        decided.sort(key=lambda item: item[0])  # oldest first across pairs, as commits take them
        ready = [item for _, item in decided]
        if now - self._trimmed_ms > TRIM_EVERY_MS:
            self._trim()
            self._trimmed_ms = now
        return ready

    def _take(self, due: dict[int, list[MicroOrder]], tapes: dict[int, Tape], now: int,
              decided: list[tuple[int, Decided]], unconfirmed: dict[int, list[MicroOrder]] | None) -> None:  # fmt: skip
        """Decide each of ``due`` whose tape holds the ticks past its decision time; one whose decision
        time is still to come (woken at its entry deadline, its entry came since) waits for it without a
        fence; the rest go to ``unconfirmed`` (their pairs' fences are asked) or, once asked, wait."""
        for pair_id, rows in due.items():
            tape = tapes[pair_id]
            for row in rows:
                when = self._decided_by(row)
                if (wake := tape.wake_at(when, now)) is None:
                    decided.append((when, (row, rule.settle(self._terms(row), tape.ticks, tape.times))))
                elif unconfirmed is not None and when < now:
                    unconfirmed[pair_id].append(row)
                else:
                    heapq.heappush(self._heap, (wake, row.id))

    async def _complete(self, pair_id: int, decided_by: int, now: int) -> None:
        """Make the tape complete past ``decided_by`` if the pair can say so: its fence, read up to; a
        pair that has not answered for GIVE_UP_MS past it is taken as halted (its log as it is)."""
        symbol = self._symbols.get(pair_id)
        fence = None
        if symbol is not None:
            try:
                fence = await asyncio.wait_for(self._engine.read(symbol, "tick_fence"), 5)
            except Exception as exc:
                log.warning("micro timer %d: no fence from %s: %r", self._index, symbol, exc)
        await self._feed.confirm(pair_id, fence, decided_by + 1 if now - decided_by > GIVE_UP_MS else None)

    def _on_settled(self, row: MicroOrder) -> None:
        """A settlement is durable: the contract is no longer open here."""
        self._open.pop(row.id, None)
        self._exposure[(row.currency_match_id, row.seconds, row.currency_id)].add(row, -1)
        if row.end_ms is not None:
            self._lags.append(now_ms() - row.end_ms)
        self._settled += 1

    def _trim(self) -> None:
        oldest: dict[int, int] = {}
        for row in self._open.values():
            pair_id = row.currency_match_id
            oldest[pair_id] = min(oldest.get(pair_id, row.accepted_ms), row.accepted_ms)
        self._feed.trim(oldest, now_ms() - 1000)

    def _public(self, row: MicroOrder, entry: rule.TickView | None) -> dict[str, Any]:
        symbol = self._symbols.get(row.currency_match_id, "")
        currency = self._coins.get(row.currency_id)
        return micro.order_public(row, symbol, currency.code if currency else "", entry)
