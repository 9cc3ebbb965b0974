"""The PairActor: one named actor per pair (``pair:BTC/USDT``).

It owns the pair's order book, last price, 24 h ticker, candles, recent trades, and its mark price
and tick log. Commands (submit, cancel) queue up; one loop takes everything that arrived within
``batch_window_ms``, matches it, writes the new orders, order updates, trades, ticker, candles and
mark tick in ONE transaction, and only then answers the callers (group commit). After the commit it
publishes the push events and the mark and sends each trade side to the owner's wallet shard
(``actors.pair.effects``); a restarted actor rebuilds its book from the open orders in the database
and the sweep finishes every settlement and release still pending, so nothing is settled twice or
lost.

The loop never ends. A batch the database refuses is not everyone's failure: the book is rebuilt
from the database and the batch's commands run again one at a time, so only the command that cannot
be stored is refused. If the database is down, the pair refuses commands at once (503) and retries
loading until it can, then serves again. Health (``ping``) and the mark's refresh go through the same
queue as the orders (``actors.pair.commands``), so a pair whose loop is stuck is reported down and its
mark goes stale; the ``MarkClock`` (``actors.pair.mark_clock``) decides when the mark is looked at.
All of this starts in the constructor, as named loops of the pair's ``Lifecycle`` (``actors.lifecycle``:
loading with retry, the ready gate, loops restarted after a crash): Ray runs it again when it restarts
the actor.

Moving a pair to another node (``actors.pair.placement``; the actor's side in ``actors.pair.moving``):
the next generation of the actor starts on the target as a standby (``standby=True``: up, not
loaded) while this one trades; this one starts keeping a tail (``keep_tail``: every order, bar and
ticker minute its batches commit from then on) and the standby reads the pair from the database
(``preload``), still while this one trades. Then ``pause`` stops taking commands (they, and those
queued but not yet matched, are refused with PAIR_MOVING, which the engine sends to the new actor),
lets the batch in flight be matched (not committed: a commit still running goes with the handoff,
``committed``) and returns the tail with the little state the database does not hold exactly
(``actors.pair.tail``) and the pushes not yet sent, which the standby applies (``take_over``)
without reading the database again; ``verify`` then checks its book against the database's open orders.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from decimal import Decimal
from typing import Any

import ray

from actors.pair import events
from actors.pair.commands import Command, CommandQueue, answer_after, answer_all
from actors.pair.effects import BUYER, SELLER, SWEEP_SECONDS, Outgoing, PairEffects
from actors.pair.handover import Handover, InFlight, answer_from_database
from actors.pair.loading import TRADE_ID_BITS
from actors.pair.mark_clock import MarkClock
from actors.pair.marks import Tick
from actors.pair.matching import Batch, match_cancel, match_submit
from actors.pair.metrics import PairMetrics
from actors.pair.moving import PairMoving
from actors.pair.state import PairConfig
from actors.runtime import DbActor, restarted_by_ray
from store import channels, marks, users
from store.cache import connect_redis, redis_db
from store.errors import DomainError, ErrorCode, OutcomeUnknown
from store.prices import UsdPrices
from store.times import now_ms

log = logging.getLogger(__name__)
ORDER_COMMANDS = ("submit", "cancel", "tick")


# Event-loop and database bound; reserves no CPU so every pair fits the machine. Operators spread
# pairs over nodes with custom resources (see ray-cluster.yaml).
# Ray's typed overloads of ray.remote() lack the actor option max_concurrency (the ignore's one reason).
@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=0, max_concurrency=1000)  # type: ignore[call-overload]
class PairActor(PairMoving, DbActor):
    def __init__(self, pair_id: int, settings: dict[str, Any], standby: bool = False) -> None:
        super().__init__(settings, f"pair {pair_id}", unavailable=ErrorCode.PAIR_UNAVAILABLE)
        channels.use_database(redis_db(self._settings))
        self._pair_id = pair_id
        # A move's standby loads the snapshot it is handed (``take_over``), on its first start only:
        # restarted after a crash, with the same arguments, it loads from the database, the truth.
        self._restore: dict[str, Any] | None = None
        self._preloaded = None  # the standby read the database before the pause (``preload``)
        self._tail_applied: int | None = None
        self._unsent: list[list[Outgoing]] = []  # the pushes the last pause handed over unsent
        self._tail = None  # kept while a move's standby loads (``keep_tail``), until the pause
        self._handed_in = asyncio.Event()
        # A standby Ray restarted loaded the pair on its own, at its restart: it takes nothing over.
        self._restarted_standby = standby and restarted_by_ray()
        if not standby or self._restarted_standby:
            self._handed_in.set()
        self._commands = CommandQueue(self._life)  # every command, and whether the pair takes them now
        self._metrics = PairMetrics()
        self._redis = connect_redis(self._settings)
        # Settlements, releases, pushes and the sweep: after a commit, outside the book.
        self._effects = PairEffects(pair_id, self._settings, self._redis, lambda: self._cfg)
        self._prices = UsdPrices(self._redis, self._settings.mark_stale_seconds)  # for the quotation's usd/cny
        self._clock = MarkClock(pair_id, self._settings, self._commands.tick)
        self._handover = Handover()
        self._in_flight: InFlight | None = None  # the batch whose commit is running
        self._persisting = asyncio.Event()  # set while it runs (a move's pause waits for it or the barrier)
        self._handed_in_flight: InFlight | None = None  # the one a move's pause handed over with it
        self._predecessor: Any = None  # the actor that paused with a commit running (a standby's)
        self._predecessor_done: dict[str, Any] | None = None  # how that commit ended
        self._isolated = 0  # batches of several commands the database refused and that ran one by one
        # The actor's background work starts here, in its own start path: when Ray restarts the
        # actor it runs the constructor again, and with it every loop.
        self._life.loop("batches", self._serve)
        self._life.loop("publisher", self._effects.publisher)
        self._life.every("sweep", self._effects.sweep_when_owed, SWEEP_SECONDS, healthy_only=True)
        self._life.every("mark refresh", self._refresh, lambda: self._clock.refresh_s)

    # -- public methods -------------------------------------------------------------------------

    async def start(self) -> dict[str, Any]:
        """Wait until the pair has loaded (the constructor started it); answers what it holds."""
        await self._life.wait_loaded()
        return {"symbol": self._cfg.symbol, "open_orders": len(self._orders)}

    async def submit(self, order: dict[str, Any]) -> dict[str, Any]:
        """Match a new order; answers once it and its trades are durable (and, if the order is
        already final, once its unused funds are released). Raises DomainError."""
        return await self._commands.send("submit", order)

    async def cancel(self, order_id: int, uid: int) -> dict[str, Any]:
        """Cancel an open order of ``uid``; answers once the cancellation is durable and the order's
        funds are back in the balance (a balance read after the answer shows them)."""
        return await self._commands.send("cancel", (order_id, uid))

    async def submit_many(self, orders: list[dict[str, Any]]) -> list[dict[str, Any] | DomainError]:
        """Many ``submit`` in one call: each order joins the batch loop's queue and is matched and
        answered exactly as ``submit`` would (they share a batch). Answers, in order, the order or the
        DomainError that refused it (OutcomeUnknown when its batch failed). Raises PAIR_MOVING or
        PAIR_UNAVAILABLE for all of them when the pair takes none; a move's pause may also refuse some
        with PAIR_MOVING, never matched (``CommandQueue.refuse_orders``)."""
        return await self._commands.send_many("submit", orders)

    async def cancel_many(self, order_ids: list[int], uid: int) -> list[dict[str, Any] | DomainError]:
        """Many ``cancel`` of ``uid``'s orders in one call; each answered, in order, as ``cancel`` would
        (the order, or ORDER_NOT_FOUND / ORDER_NOT_OPEN)."""
        return await self._commands.send_many("cancel", [(order_id, uid) for order_id in order_ids])

    async def ping(self) -> bool:
        """True once the batch loop answers: the health check goes through the orders' queue."""
        return await self._commands.send("ping", None)

    async def tick_fence(self) -> dict[str, int]:
        """``{"seq", "as_of_ms"}``: every tick of this pair stamped before ``as_of_ms`` is durable, the
        last of them being tick ``seq``; any later tick is stamped at or after ``as_of_ms``. Second
        contracts settle from the log once its fence has passed their end. Goes through the orders'
        queue (taken between two batches), also while the pair is paused for a move."""
        await self._commands.serving()
        return await self._commands.between_batches("fence")

    async def info(self) -> dict[str, Any]:
        """Where this actor runs and what it holds, for ``exchange pairs``."""
        await self.start()
        return {
            "symbol": self._cfg.symbol,
            "node_id": ray.get_runtime_context().get_node_id(),
            "pid": os.getpid(),  # its worker's log is worker-*-<pid>.err; py-spy takes it as --pid
            "open_orders": len(self._orders),
            "depth_seq": self._depth_seq,
            "paused": self._commands.paused,
            "healthy": self._life.healthy,
            "isolated_batches": self._isolated,
            "committing": self._in_flight is not None,  # a batch's commit is running
        }

    async def verify(self) -> dict[str, Any]:
        """Compare the book with the open orders in the database: the check after a move.

        Runs in the batch loop between two batches, so no commit lands between the two reads.
        """
        return await self._commands.send("verify", None)

    async def deal(self) -> dict[str, Any]:
        """Quotation, depth (with its sequence number), the last 30 trades and the mark, for market/deal."""
        await self._commands.serving()
        return {
            "quotation": events.quotation(self._cfg, self._ticker, self._now(), self._prices.latest),
            "depth": events.depth(self._cfg, self._book, self._depth_seq, self._settings.depth_levels),
            "tx_completes": list(self._recent),
            "mark": self._ticks.last.public() if self._ticks.last else None,
            "mark_inputs": self._mark.public(self._book, self._now()),
        }

    async def sweep(self) -> dict[str, int]:
        """Settle and release what is still pending (``PairEffects.sweep``) once loaded; how many it sent.
        The loop "sweep" runs it every few seconds; tests call it to wait for quiescence."""
        await self.start()
        return await self._effects.sweep()

    async def kline(self, period: str, from_ms: int, to_ms: int) -> list[dict[str, Any]]:
        await self._commands.serving()
        from actors.market.periods import parse_period

        return [events.bar(b) for b in self._candles.bars(parse_period(period), from_ms, to_ms)]

    # -- the batch loop ---------------------------------------------------------------------------

    async def _serve(self) -> None:
        """The batch loop: load (a standby, once handed its snapshot), then take batches forever."""
        await self._handed_in.wait()
        if self._restarted_standby:
            await self._older_commits_ended()
        await self._recover()
        await self._take_in_predecessor()
        window = self._settings.batch_window_ms / 1000
        while True:
            commands = await self._commands.take(window)
            try:
                await self._run_batch(commands)
            except Exception:
                # The book may be ahead of the database and the database may be down: whoever still
                # waits cannot know whether their command was stored (their freezes are left to the
                # reconciler); then reload before taking anything else.
                log.exception("pair %s: batch of %d failed; reloading", self._cfg.symbol, len(commands))
                self._metrics.batch_failed(self._cfg.symbol)
                answer_all(commands, OutcomeUnknown(ErrorCode.PAIR_UNAVAILABLE))
                await self._recover()

    async def _recover(self) -> None:
        """Load the pair from the database, retrying until it can; meanwhile every command is
        refused at once (it was never matched, so its caller may release its freeze)."""

        def refuse_queued() -> None:
            self._commands.refuse_queued(DomainError(ErrorCode.PAIR_UNAVAILABLE))

        await self._life.load(self._load, before_each=refuse_queued)
        self._effects.owed = True  # a failed batch may have left settlements without their tasks
        self._clock.later(0)  # the mark as loaded (or restored, its window still moving) is looked at now

    async def _run_batch(self, commands: list[Command]) -> None:
        """Match and commit the orders, cancels and ticks, then answer the barriers and checks."""
        orders = [c for c in commands if c[0] in ORDER_COMMANDS]
        if self._handover.handed:  # after a move: a command the previous actor took is answered as stored
            orders = [c for c in orders if not await self._handover.answered(c, self._orders, self._cfg)]
        if orders:
            await self._commit_isolating(orders)
        for kind, _, future in commands:
            if future is None or future.done():
                continue
            if kind in ("barrier", "ping"):
                future.set_result(True if kind == "ping" else None)
            elif kind == "fence":  # between two batches: the next one is stamped at or after now
                last = self._ticks.last
                future.set_result({"seq": last.seq if last else 0, "as_of_ms": self._now()})
            elif kind == "verify":
                try:
                    future.set_result(await self._compare_with_database())
                except Exception as exc:  # the loop goes on; the caller learns the check failed
                    future.set_exception(exc)

    async def _commit_isolating(self, commands: list[Command]) -> None:
        """Commit the batch; if the database refuses it, rebuild the book from the database and run
        each command alone, so one command that cannot be stored fails alone. Raises only when the
        database cannot even be read (the loop then recovers)."""
        try:
            await self._commit(commands)
            return
        except Exception:
            log.exception("pair %s: batch of %d not committed; running its commands one by one",
                          self._cfg.symbol, len(commands))  # fmt: skip
            self._metrics.batch_failed(self._cfg.symbol)
            if await self._refused_after_handoff(commands):
                return
        await self._load()
        self._effects.owed = True  # the failure may have come after the commit, before its settlements
        self._isolated += len(commands) > 1
        for command in commands:
            kind, payload, future = command
            if future is not None and future.done() or await answer_from_database(command, self._cfg):
                continue
            try:
                await self._commit([command])
            except Exception:
                log.exception("pair %s: %s refused: it cannot be committed", self._cfg.symbol, kind)
                await self._load()
                if not await answer_from_database(command, self._cfg) and future is not None:
                    future.set_exception(DomainError(ErrorCode.PAIR_UNAVAILABLE))

    async def _commit(self, commands: list[Command]) -> None:
        """Match ``commands`` against the book, persist everything in one transaction, then answer.
        Raises (with the book possibly ahead of the database) if anything but a rule fails.

        What the batch changes in memory is recorded before its commit (``_record``), so a move's pause
        that comes while the commit runs hands the standby the pair as this batch leaves it
        (``PairMoving.pause``); a commit that fails is followed by a load from the database, which
        builds all of it again. Only the mark takes the batch in once it is durable."""
        began = time.perf_counter()
        batch = Batch(now_ms=self._now())
        answers: list[tuple[asyncio.Future[Any] | None, Any]] = []
        accepted: list[tuple[str, Any]] = []
        for kind, payload, future in commands:
            if kind == "tick":
                continue
            answer: dict[str, Any] | DomainError  # the result, or the rule it broke (raised to the caller)
            try:
                answer = match_submit(self, batch, payload) if kind == "submit" else match_cancel(self, batch, *payload)
            except DomainError as exc:
                answer = exc
            answers.append((future, answer))
            accepted += [] if isinstance(answer, DomainError) else [(kind, payload)]
        tick = self._clock.due_tick(self._ticks, self._mark, batch.now_ms)
        writes = events.batch_writes(self._cfg, self._candles, self._ticker, batch, tick)
        outgoing = self._record(batch, accepted, tick, refresh=any(c[0] == "tick" for c in commands))
        if any(writes[k] for k in ("new_orders", "updated_orders", "trades", "ticks")):
            outgoing = await self._persist(writes, batch, outgoing)  # none if a move's standby took them
        self._clock.take_in(self._ticks, self._mark, [t.row for t in batch.trades], batch.now_ms, self._book)
        self._after_commit(batch, answers, outgoing)
        refused = sum(1 for _, answer in answers if isinstance(answer, Exception))
        self._metrics.batch_done(self._cfg.symbol, commands, refused, time.perf_counter() - began, len(self._orders))

    def _record(
        self, batch: Batch, accepted: list[tuple[str, Any]], tick: Tick | None, *, refresh: bool
    ) -> list[Outgoing]:
        """The batch in the pair's memory (final orders leave, recent trades, the depth sequence, the
        tick, a move's tail and the commands taken), and the pushes it makes, built now, while the
        book is as this batch left it, and sent in commit order (one sender)."""
        for order in batch.touched():
            if order.final:
                self._orders.pop(order.id, None)
        for t in batch.trades:
            self._recent.appendleft(t.public)
        if batch.book_changed:
            self._depth_seq += 1
        if self._tail is not None:
            self._tail.record(batch)
        for kind, payload in accepted:
            self._handover.taken(kind, payload)
        self._ticks.accept(tick)
        outgoing: list[Outgoing] = [
            ("publish", topic, message)
            for topic, message in events.messages(
                self._cfg,
                self._book,
                self._ticker,
                batch,
                self._depth_seq,
                self._settings.depth_levels,
                self._prices.latest,
            )  # fmt: skip
        ]
        if tick is not None:
            outgoing.append(("publish", *events.mark_message(self._cfg, tick)))
        if (tick is not None or refresh) and self._ticks.last is not None:
            record = self._clock.record(self._cfg.symbol, self._ticks.last, self._now())
            outgoing.append(("set", marks.key(self._cfg.symbol), record.encode()))
        return outgoing

    def _after_commit(
        self, batch: Batch, answers: list[tuple[asyncio.Future[Any] | None, Any]], outgoing: list[Outgoing]
    ) -> None:
        """The batch is durable: its pushes, settlements and releases, and the answers."""
        if outgoing:
            self._effects.outbox.put_nowait(outgoing)
        for t in batch.trades:
            self._life.spawn(self._effects.settle(t.leg, BUYER))
            self._life.spawn(self._effects.settle(t.leg, SELLER))
        releases = {o.id: self._life.spawn(self._effects.release(o)) for o in batch.touched() if o.final and o.held > 0}
        for future, answer in answers:
            if future is None or future.done():
                continue
            if isinstance(answer, Exception):
                future.set_exception(answer)
            elif answer["id"] in releases:  # the caller's own order is final: answer once its funds are back
                self._life.spawn(answer_after(releases[answer["id"]], future, answer))
            else:
                future.set_result(answer)

    # -- the mark price ---------------------------------------------------------------------------

    def mark(self) -> Decimal | None:
        """The mark price the pair publishes (its latest tick's); before its first tick, the raw mark."""
        if self._ticks.last is not None:
            return self._ticks.last.price
        return self._mark.raw.price if self._mark.raw is not None else None

    async def _refresh(self) -> None:
        """Every ``MarkClock.refresh_s`` (the loop "mark refresh"), through the orders' queue: tick if the
        mark changed, and confirm the mark in Redis. A pair whose loop is stuck or down stops confirming,
        and its mark goes stale."""
        self._commands.tick()
        try:
            await self._prices.book()  # the USD prices the next quotations carry
            if self._life.healthy:  # loaded: the house's accounts again (a market maker may have started since)
                self._mark.house = frozenset(await users.house_ids())
        except Exception:  # the quotation goes without them meanwhile
            log.warning("pair %s: no USD prices or house accounts", self._pair_id, exc_info=True)

    # -- ids and time, used by the matching helpers ------------------------------------------------

    @property
    def cfg(self) -> PairConfig:
        return self._cfg

    def next_trade_id(self) -> int:
        self._trade_seq += 1
        return (self._pair_id << TRADE_ID_BITS) | self._trade_seq

    @staticmethod
    def _now() -> int:
        return now_ms()
