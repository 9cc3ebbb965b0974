"""The PairActor: one named actor per pair (``pair:BTC/USDT``).

It owns the pair's order book, last price, 24 h ticker, candles and recent trades. Commands (submit,
cancel) queue up; a loop takes everything that arrived within ``batch_window_ms``, matches it, writes
the new orders, order updates, trades, ticker and candles in ONE transaction, and only then answers
the callers (group commit). After the commit it publishes the push events and sends each trade side
to the owner's wallet shard; a restarted actor rebuilds its book from the open orders in the database
and re-sends every trade side not yet settled, so nothing is settled twice or lost.

Moving a pair to another node (``actors.pair.placement``): ``pause`` stops taking commands (they are
refused with PAIR_MOVING, which the engine retries on the new actor), lets the running batch commit
and returns a snapshot of the in-memory state; the actor started on the target node with
``restore=`` that snapshot resumes from it without reading the database, then ``verify`` checks the
restored book against the open orders the database holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from decimal import Decimal
from typing import Any

import ray
from ray.util.metrics import Counter, Gauge, Histogram

from actors.book.order_book import OrderBook
from actors.book.types import Order as BookOrder
from actors.book.types import Precision, Side
from actors.errors import DomainError, ErrorCode
from actors.market.candles import CandleBook
from actors.market.ticker import Ticker24h
from actors.pair import events
from actors.pair.matching import Batch, match_cancel, match_submit
from actors.pair.state import OrderState, PairConfig
from actors.push import channels
from actors.runtime import DbActor
from actors.wallet.legs import BUYER, SELLER, TradeLeg, shard_of
from actors.wallet.shard import wallet_name
from store import spot
from store.cache import connect_redis, redis_db
from store.models import CurrencyMatch, Kline, Quotation

log = logging.getLogger(__name__)
RECENT_TRADES = 30
SWEEP_SECONDS = 5.0
TRADE_ID_BITS = 40


def pair_name(symbol: str) -> str:
    return f"pair:{symbol}"


class PairMetrics:
    """What the pair reports to Prometheus through Ray's metrics agent (``ray_exchange_pair_*``)."""

    def __init__(self) -> None:
        self.commands = Counter("exchange_pair_commands", "orders and cancels committed", tag_keys=("pair", "kind"))
        self.refused = Counter("exchange_pair_refused", "orders and cancels refused by a rule", tag_keys=("pair",))
        self.commit_ms = Histogram("exchange_pair_commit_ms", "match and commit of one batch, in ms",
                                   boundaries=[1, 2, 5, 10, 20, 50, 100, 250, 1000], tag_keys=("pair",))  # fmt: skip
        self.batch = Histogram("exchange_pair_batch_size", "commands in one batch",
                               boundaries=[1, 2, 4, 8, 16, 32, 64, 128, 256], tag_keys=("pair",))  # fmt: skip
        self.open_orders = Gauge("exchange_pair_open_orders", "orders resting in the book", tag_keys=("pair",))

    def batch_done(self, pair: str, commands: list[tuple[str, Any, Any]], refused: int, seconds: float,
                   open_orders: int) -> None:  # fmt: skip
        tags = {"pair": pair}
        for kind in ("submit", "cancel"):
            count = sum(1 for c in commands if c[0] == kind)
            if count:
                self.commands.inc(count, tags={**tags, "kind": kind})
        if refused:
            self.refused.inc(refused, tags=tags)
        self.commit_ms.observe(seconds * 1000, tags=tags)
        self.batch.observe(len(commands), tags=tags)
        self.open_orders.set(open_orders, tags=tags)


# Event-loop and database bound; reserves no CPU so every pair fits the machine. Operators spread
# pairs over nodes with custom resources (see ray-cluster.yaml).
@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=0, max_concurrency=1000)
class PairActor(DbActor):
    def __init__(self, pair_id: int, settings: dict[str, Any], restore: dict[str, Any] | None = None) -> None:
        super().__init__(settings)
        channels.use_database(redis_db(self._settings))
        self._pair_id = pair_id
        # A snapshot is for the first start only: after a crash the actor is restarted with the same
        # arguments, and then the database is the truth.
        self._restore = None if ray.get_runtime_context().was_current_actor_reconstructed else restore
        self._paused = False
        self._queue: asyncio.Queue[tuple[str, Any, asyncio.Future[Any]]] = asyncio.Queue()
        self._started = False
        self._start_lock = asyncio.Lock()
        self._background: set[asyncio.Task[Any]] = set()
        self._outbox: asyncio.Queue[list[tuple[str, str]]] = asyncio.Queue()
        self._metrics = PairMetrics()

    # -- public methods -------------------------------------------------------------------------

    async def start(self) -> dict[str, Any]:
        """Load the pair, rebuild the book, re-send unsettled trades, start the batch loop. Idempotent."""
        async with self._start_lock:
            if not self._started:
                await self._load()
                self._spawn(self._loop())
                self._spawn(self._publisher())
                self._spawn(self._sweep_loop())
                self._started = True
        return {"symbol": self._cfg.symbol, "open_orders": len(self._orders)}

    async def submit(self, order: dict[str, Any]) -> dict[str, Any]:
        """Match a new order; answers once it and its trades are durable. Raises DomainError."""
        return await self._enqueue("submit", order)

    async def cancel(self, order_id: int, uid: int) -> dict[str, Any]:
        """Cancel an open order of ``uid``; answers once the cancellation is durable."""
        return await self._enqueue("cancel", (order_id, uid))

    async def info(self) -> dict[str, Any]:
        """Where this actor runs and what it holds, for ``exchange pairs``."""
        await self.start()
        return {
            "symbol": self._cfg.symbol,
            "node_id": ray.get_runtime_context().get_node_id(),
            "open_orders": len(self._orders),
            "depth_seq": self._depth_seq,
            "paused": self._paused,
        }

    async def pause(self) -> dict[str, Any]:
        """Stop taking commands, let everything already queued commit, and return the snapshot.

        Commands that arrive from now on are refused with PAIR_MOVING: they were never accepted, so
        the caller may send them again to the actor that takes over.
        """
        await self.start()
        self._paused = True
        barrier: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put(("barrier", None, barrier))
        await barrier
        # Pushes of the last batches go out before the next actor publishes (settlements need not:
        # the next actor's sweep re-sends any that did not finish, idempotently).
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._outbox.join(), 2.0)
        return self._snapshot()

    async def resume(self) -> None:
        """Take commands again (a move that could not finish gives the pair back to this actor)."""
        self._paused = False

    async def verify(self) -> dict[str, Any]:
        """Compare the book with the open orders in the database: the check after a move.

        Runs in the batch loop between two batches, so no commit lands between the two reads.
        """
        return await self._enqueue("verify", None)

    async def _compare_with_database(self) -> dict[str, Any]:
        stored = {}
        for row in await spot.open_orders(self._pair_id):
            state = events.state_of(row)
            stored[state.id] = state.number - state.transacted_amount
        held = {order_id: o.number - o.transacted_amount for order_id, o in self._orders.items()}
        in_book = {o.order_id for o in self._book.open_orders()}
        return {
            "open_orders": len(held),
            "matches_database": stored == held and in_book == set(held),
        }

    async def deal(self) -> dict[str, Any]:
        """Quotation, depth (with its sequence number) and the last 30 trades, for market/deal."""
        await self.start()
        return {
            "quotation": events.quotation(self._cfg, self._ticker, self._now()),
            "depth": events.depth(self._cfg, self._book, self._depth_seq, self._settings.depth_levels),
            "tx_completes": list(self._recent),
        }

    async def kline(self, period: str, from_ms: int, to_ms: int) -> list[dict[str, Any]]:
        await self.start()
        from actors.market.periods import parse_period

        return [events.bar(b) for b in self._candles.bars(parse_period(period), from_ms, to_ms)]

    # -- the batch loop ---------------------------------------------------------------------------

    async def _enqueue(self, kind: str, payload: Any) -> dict[str, Any]:
        await self.start()
        if self._paused:
            raise DomainError(ErrorCode.PAIR_MOVING)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        await self._queue.put((kind, payload, future))
        return await future

    async def _loop(self) -> None:
        window = self._settings.batch_window_ms / 1000
        while True:
            commands = [await self._queue.get()]
            if window:
                await asyncio.sleep(window)
            while not self._queue.empty():
                commands.append(self._queue.get_nowait())
            await self._run_batch(commands)

    async def _run_batch(self, commands: list[tuple[str, Any, asyncio.Future[Any]]]) -> None:
        """Match and commit the orders and cancels, then answer the barriers (pause) and checks."""
        orders = [c for c in commands if c[0] in ("submit", "cancel")]
        if orders:
            await self._match_and_commit(orders)
        for kind, _, future in commands:
            if kind == "barrier":
                future.set_result(None)
            elif kind == "verify":
                try:
                    future.set_result(await self._compare_with_database())
                except Exception as exc:  # the loop goes on; the caller learns the check failed
                    future.set_exception(exc)

    async def _match_and_commit(self, commands: list[tuple[str, Any, asyncio.Future[Any]]]) -> None:
        began = time.perf_counter()
        batch = Batch(now_ms=self._now())
        answers: list[tuple[asyncio.Future[Any], Any]] = []
        for kind, payload, future in commands:
            try:
                if kind == "submit":
                    answers.append((future, match_submit(self, batch, payload)))
                else:
                    answers.append((future, match_cancel(self, batch, *payload)))
            except DomainError as exc:
                answers.append((future, exc))
        try:
            await spot.persist_batch(**self._writes(batch))
        except Exception as exc:  # the book ran ahead of the database: rebuild it from the database
            log.exception("pair %s: batch of %d not persisted; reloading", self._cfg.symbol, len(commands))
            await self._load()
            for future, _ in answers:
                if not future.done():
                    future.set_exception(
                        exc if isinstance(exc, DomainError) else DomainError(ErrorCode.PAIR_UNAVAILABLE)
                    )
            return
        for future, answer in answers:
            if future.done():
                continue
            if isinstance(answer, Exception):
                future.set_exception(answer)
            else:
                future.set_result(answer)
        self._after_commit(batch)
        refused = sum(1 for _, answer in answers if isinstance(answer, Exception))
        self._metrics.batch_done(self._cfg.symbol, commands, refused, time.perf_counter() - began, len(self._orders))

    def _writes(self, batch: Batch) -> dict[str, Any]:
        bars = []
        if batch.trades:
            for period, bar in self._candles.dirty():
                bars.append(events.bar_row(self._pair_id, period, bar))
            self._candles.clear_dirty()
        return {
            "new_orders": [events.order_row(self._pair_id, o) for o in batch.new_orders],
            "updated_orders": [events.order_update_row(o) for o in batch.changed_resting()],
            "trades": [t.row for t in batch.trades],
            "quotation": events.quotation_row(self._cfg, self._ticker, batch.now_ms) if batch.trades else None,
            "bars": bars,
        }

    def _after_commit(self, batch: Batch) -> None:
        for order in batch.touched():
            if order.final:
                self._orders.pop(order.id, None)
        if batch.trades:
            for t in batch.trades:
                self._recent.appendleft(t.public)
        if batch.book_changed:
            self._depth_seq += 1
        # Built now, while the book is as this batch left it, and sent in commit order (one sender).
        self._outbox.put_nowait(list(events.messages(self._cfg, self._book, self._ticker, batch, self._depth_seq,
                                                     self._settings.depth_levels)))  # fmt: skip
        for t in batch.trades:
            self._spawn(self._settle(t.leg, BUYER))
            self._spawn(self._settle(t.leg, SELLER))
        for order in batch.touched():
            if order.final and order.held > 0:
                self._spawn(self._release(order))

    # -- after the commit -------------------------------------------------------------------------

    async def _publisher(self) -> None:
        """The pair's one sender of pushes: batches go out in commit order, so a client sees depth
        sequence numbers rise. What queued up while Redis was busy goes in one pipeline."""
        while True:
            pending = [await self._outbox.get()]
            while not self._outbox.empty():
                pending.append(self._outbox.get_nowait())
            try:
                pipe = self._redis.pipeline(transaction=False)
                for messages in pending:
                    for topic, message in messages:
                        pipe.publish(topic, message)
                await pipe.execute()
            except Exception:  # pushes are best effort; clients refetch market/deal on a sequence gap
                log.exception("pair %s: publish failed", self._cfg.symbol)
            finally:
                for _ in pending:
                    self._outbox.task_done()

    async def _settle(self, leg: TradeLeg, side: int) -> None:
        uid = leg.buyer_id if side == BUYER else leg.seller_id
        for attempt in range(5):
            try:
                await self._wallet(uid).settle.remote(leg, side)
                return
            except Exception:
                log.exception("settle trade %s side %s failed (attempt %d)", leg.trade_id, side, attempt + 1)
                await asyncio.sleep(0.2 * 2**attempt)

    async def _release(self, order: OrderState) -> None:
        currency = self._cfg.quote_currency_id if order.way == 1 else self._cfg.base_currency_id
        for attempt in range(5):
            try:
                await self._wallet(order.uid).release.remote(order.uid, currency, order.held, f"o{order.id}:release")
                return
            except Exception:
                log.exception("release of order %s failed (attempt %d)", order.id, attempt + 1)
                await asyncio.sleep(0.2 * 2**attempt)

    async def sweep(self) -> dict[str, int]:
        """Send every unsettled trade side and every missing release again (all idempotent).

        Runs at start and every few seconds, so work lost with a killed actor or a wallet shard that
        was restarting is finished later; tests call it to wait for quiescence.
        """
        await self.start()
        sides = releases = 0
        for trade, done in await spot.unsettled_trades(self._pair_id):
            leg = events.leg_of(self._cfg, trade)
            for side in (BUYER, SELLER):
                if side not in done:
                    await self._settle(leg, side)
                    sides += 1
        since = spot.ms_to_dt(self._now() - 86_400_000)
        for row in await spot.unreleased_final_orders(self._pair_id, since):
            await self._release(events.state_of(row))
            releases += 1
        return {"sides": sides, "releases": releases}

    async def _sweep_loop(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:
                log.exception("pair %s: sweep failed", self._cfg.symbol)
            await asyncio.sleep(SWEEP_SECONDS)

    def _wallet(self, uid: int) -> Any:
        index = shard_of(uid, self._settings.wallet_shards)
        if index not in self._wallets:
            self._wallets[index] = ray.get_actor(wallet_name(index))
        return self._wallets[index]

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # -- loading ----------------------------------------------------------------------------------

    _MOVED_STATE = ("_cfg", "precision", "_book", "_orders", "_trade_seq", "_candles", "_ticker", "_recent",
                    "_depth_seq")  # fmt: skip

    def _snapshot(self) -> dict[str, Any]:
        """Everything ``_load`` builds, as it is now (the book, orders, candles, ticker, sequences)."""
        return {name: getattr(self, name) for name in self._MOVED_STATE}

    async def _load(self) -> None:
        await self._ready()
        self._redis = connect_redis(self._settings)
        self._wallets: dict[int, Any] = {}
        if self._restore is not None:  # taking over from the actor that moved: its state, no reads
            for name, value in self._restore.items():
                setattr(self, name, value)
            self._restore = None
            return
        pair = await CurrencyMatch.get(id=self._pair_id).prefetch_related("base_currency", "quote_currency")
        self._cfg = PairConfig(
            id=pair.id,
            base_code=pair.base_currency.code,
            quote_code=pair.quote_currency.code,
            base_currency_id=pair.base_currency.id,
            quote_currency_id=pair.quote_currency.id,
            price_decimals=pair.price_decimals,
            qty_decimals=pair.qty_decimals,
            maker_fee=pair.maker_fee,
            taker_fee=pair.taker_fee,
            sell_disabled=pair.sell_disabled,
            open_change=pair.open_change,
        )
        self.precision = Precision(pair.price_decimals, pair.qty_decimals)
        self._book = OrderBook()
        self._orders: dict[int, OrderState] = {}
        for row in await spot.open_orders(self._pair_id):
            state = events.state_of(row)
            self._orders[state.id] = state
            remaining = self.precision.to_lots(state.number - state.transacted_amount)
            price = self.precision.to_ticks(state.price)
            lots = self.precision.to_lots(state.number)
            self._book.restore(
                BookOrder(state.id, state.uid, Side(state.way), price, lots, remaining=remaining, seq=state.seq)
            )
        self._trade_seq = (await spot.last_trade_id(self._pair_id)) & ((1 << TRADE_ID_BITS) - 1)
        self._candles = CandleBook()
        self._ticker = Ticker24h()
        await self._load_market_data()
        self._recent: deque[dict[str, Any]] = deque(maxlen=RECENT_TRADES)
        for trade in reversed(await events.recent_trades(self._pair_id, RECENT_TRADES)):
            self._recent.appendleft(trade)
        self._depth_seq = 0

    async def _load_market_data(self) -> None:
        from actors.market.periods import ALL_PERIODS

        for period in ALL_PERIODS:
            rows = await Kline.filter(currency_match_id=self._pair_id, period=period.name).order_by("-start").limit(500)
            self._candles.load(period, [events.bar_of(r) for r in reversed(rows)])
        quote = await Quotation.get_or_none(currency_match_id=self._pair_id)
        from actors.market.periods import ONE_MINUTE as minute

        self._ticker.restore(self._candles.bars(minute, self._now() - 86_400_000, self._now()),
                             quote.close if quote else Decimal(0))  # fmt: skip

    # -- ids and time, used by the matching helpers ------------------------------------------------

    @property
    def cfg(self) -> PairConfig:
        return self._cfg

    def next_trade_id(self) -> int:
        self._trade_seq += 1
        return (self._pair_id << TRADE_ID_BITS) | self._trade_seq

    @staticmethod
    def _now() -> int:
        return int(time.time() * 1000)
