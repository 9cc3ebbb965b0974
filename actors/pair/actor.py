"""The PairActor: one named actor per pair (``pair:BTC/USDT``).

It owns the pair's order book, last price, 24 h ticker, candles and recent trades. Commands (submit,
cancel) queue up; a loop takes everything that arrived within ``batch_window_ms``, matches it, writes
the new orders, order updates, trades, ticker and candles in ONE transaction, and only then answers
the callers (group commit). After the commit it publishes the push events and sends each trade side
to the owner's wallet shard; a restarted actor rebuilds its book from the open orders in the database
and re-sends every trade side not yet settled, so nothing is settled twice or lost.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from decimal import Decimal
from typing import Any

import ray

from actors.book.order_book import OrderBook
from actors.book.types import Order as BookOrder
from actors.book.types import Precision, Side
from actors.errors import DomainError, ErrorCode
from actors.market.candles import CandleBook
from actors.market.ticker import Ticker24h
from actors.pair import events
from actors.pair.matching import Batch, match_cancel, match_submit
from actors.pair.state import OrderState, PairConfig
from actors.runtime import DbActor
from actors.wallet.legs import BUYER, SELLER, TradeLeg, shard_of
from actors.wallet.shard import wallet_name
from store import spot
from store.cache import connect_redis
from store.models import CurrencyMatch, Kline, Quotation

log = logging.getLogger(__name__)
RECENT_TRADES = 30
SWEEP_SECONDS = 5.0
TRADE_ID_BITS = 40


def pair_name(symbol: str) -> str:
    return f"pair:{symbol}"


# Event-loop and database bound; reserves no CPU so every pair fits the machine. Operators spread
# pairs over nodes with custom resources (see ray-cluster.yaml).
@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=0, max_concurrency=1000)
class PairActor(DbActor):
    def __init__(self, pair_id: int, settings: dict[str, Any]) -> None:
        super().__init__(settings)
        self._pair_id = pair_id
        self._queue: asyncio.Queue[tuple[str, Any, asyncio.Future[Any]]] = asyncio.Queue()
        self._started = False
        self._start_lock = asyncio.Lock()
        self._background: set[asyncio.Task[Any]] = set()

    # -- public methods -------------------------------------------------------------------------

    async def start(self) -> dict[str, Any]:
        """Load the pair, rebuild the book, re-send unsettled trades, start the batch loop. Idempotent."""
        async with self._start_lock:
            if not self._started:
                await self._load()
                self._spawn(self._loop())
                self._spawn(self._sweep_loop())
                self._started = True
        return {"symbol": self._cfg.symbol, "open_orders": len(self._orders)}

    async def submit(self, order: dict[str, Any]) -> dict[str, Any]:
        """Match a new order; answers once it and its trades are durable. Raises DomainError."""
        return await self._enqueue("submit", order)

    async def cancel(self, order_id: int, uid: int) -> dict[str, Any]:
        """Cancel an open order of ``uid``; answers once the cancellation is durable."""
        return await self._enqueue("cancel", (order_id, uid))

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
        self._spawn(self._publish(batch, self._depth_seq))
        for t in batch.trades:
            self._spawn(self._settle(t.leg, BUYER))
            self._spawn(self._settle(t.leg, SELLER))
        for order in batch.touched():
            if order.final and order.held > 0:
                self._spawn(self._release(order))

    # -- after the commit -------------------------------------------------------------------------

    async def _publish(self, batch: Batch, depth_seq: int) -> None:
        try:
            for topic, message in events.messages(self._cfg, self._book, self._ticker, batch, depth_seq,
                                                  self._settings.depth_levels):  # fmt: skip
                await self._redis.publish(topic, message)
        except Exception:  # pushes are best effort; clients refetch market/deal on a sequence gap
            log.exception("pair %s: publish failed", self._cfg.symbol)

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

    async def _load(self) -> None:
        await self._ready()
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
        self._redis = connect_redis(self._settings)
        self._wallets: dict[int, Any] = {}

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
