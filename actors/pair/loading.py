"""How a pair's actor builds its state: from the database (a start or a restart); from the database
before a move's pause and then the tail of the actor it takes over from (``actors.pair.tail``); or,
when there is no tail, from that actor's whole snapshot. And what the pause hands over.

The state: the pair's configuration, the book and its orders (with each user's count of resting
ones), the trade id sequence, candles, the 24 h ticker, recent trades, the depth sequence and the
tick log's last tick.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import Counter, deque
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from actors.book.order_book import OrderBook
from actors.book.types import Precision
from actors.market.candles import CandleBook
from actors.market.ticker import Ticker24h
from actors.pair import events
from actors.pair.handover import Handover
from actors.pair.mark_rule import related
from actors.pair.mark_state import MarkState
from actors.pair.marks import Tick, TickLog
from actors.pair.state import OrderState, PairConfig
from actors.pair.tail import Tail, apply_orders, resting
from config.settings import Settings
from store import spot, ticks, users
from store.models import CurrencyMatch, Kline, Quotation

log = logging.getLogger(__name__)
RECENT_TRADES = 30
TRADE_ID_BITS = 40
MARK_TRADES = 1000  # the most trades a (re)load reads back for the mark's last price ...
DIFFER_SHOWN = 20  # order ids a check of the book against the database names
MARK_PAGE = 50  # ... a page at a time, until they are worth the impact notional


class PairLoading:
    """Mixed into the PairActor."""

    _pair_id: int
    _settings: Settings
    _restore: dict[str, Any] | None
    _mark: MarkState  # built by the first load, kept by reloads
    _cfg: PairConfig
    _handover: Handover
    _tail: Tail | None  # the moving actor's, from ``keep_tail`` to its pause
    _preloaded: Ticker24h | None  # a standby that read the database before the pause: the ticker as it was then
    _tail_applied: int | None  # how many orders of the tail it took over with (None: it read them again)

    # From DbActor and the PairActor (annotations only: a stub here would shadow them in the MRO).
    _now: Callable[[], int]
    if TYPE_CHECKING:  # DbActor's and PairMoving's methods (the stubs exist for the checker only)

        async def _ready(self) -> None: ...

        async def _predecessor_ended(self) -> dict[str, Any] | None: ...

    _MOVED_STATE = ("_cfg", "precision", "_book", "_orders", "_open_count", "_trade_seq", "_candles", "_ticker",
                    "_recent", "_depth_seq", "_ticks", "_mark")  # fmt: skip
    # What goes with a tail: the state the database does not hold exactly, or holds only after the
    # standby read it. None of it grows with the book.
    _CARRIED = ("_cfg", "_trade_seq", "_recent", "_depth_seq", "_ticks", "_mark")

    async def reload_config(self) -> dict[str, Any]:
        """Read the pair's settings again (an operator changed them in the console): trading on or off,
        selling, fees and bounds apply from the next batch on, without a restart. The decimals stay as
        loaded: the book and its open orders are kept in them."""
        await self._ready()
        pair = await CurrencyMatch.get(id=self._pair_id).prefetch_related("base_currency", "quote_currency")
        current = self._cfg
        self._cfg = dataclasses.replace(config_of(pair), price_decimals=current.price_decimals,
                                        qty_decimals=current.qty_decimals)  # fmt: skip
        self._mark.notional = self._cfg.impact_notional
        return {"symbol": self._cfg.symbol, "open_change": self._cfg.open_change,
                "sell_disabled": self._cfg.sell_disabled}  # fmt: skip

    async def _load(self) -> None:
        await self._ready()
        handed = self._restore
        if handed is not None and "_tail" not in handed:  # the moved actor's whole state, no reads
            for name, value in handed.items():
                setattr(self, name, value)
            self._restore = None
            return
        if self._tail is not None:  # reloading while a move keeps a tail: it no longer says what changed
            self._tail.lost = True
        if handed is None or self._preloaded is None:
            await self._read_database()
        if handed is not None:
            await self._take_tail(handed)
        self._preloaded = None
        self._restore = None

    async def _take_tail(self, handed: dict[str, Any]) -> None:
        """Apply a moved actor's tail to what this standby read from the database, then take its carried
        state. A tail that does not fit (no load point explains it) is not guessed at: the database,
        which the paused actor no longer changes, is read again."""
        try:
            self._tail_applied = apply_orders(self._book, self._orders, self._open_count, self.precision,
                                              handed["_tail"])  # fmt: skip
        except ValueError:
            log.warning("pair %s: the tail does not fit the book read before the pause; reading it again",
                        self._pair_id, exc_info=True)  # fmt: skip
            ticker, self._preloaded = self._preloaded, None  # half-applied: a retry reads the database too
            await self._predecessor_ended()  # a commit the pause handed over running is in what it reads
            await self._read_database()
            self._preloaded, self._tail_applied = ticker, None
        self._candles.graft(handed["_bars"])
        if self._preloaded is not None:  # the ticker as it was when the tail began, and what changed since
            self._ticker = self._preloaded
            self._ticker.catch_up(handed["_ticker_part"])
        for name in self._CARRIED:
            setattr(self, name, handed[name])

    async def _read_database(self) -> None:
        """Build the state from the database (a start, a restart, a reload, a standby's preload)."""
        pair = await CurrencyMatch.get(id=self._pair_id).prefetch_related("base_currency", "quote_currency")
        self._cfg = config_of(pair)
        self.precision = Precision(pair.price_decimals, pair.qty_decimals)
        self._book = OrderBook()
        self._orders: dict[int, OrderState] = {}
        self._open_count: Counter[int] = Counter()
        for row in await spot.open_orders(self._pair_id):  # in (seq, id) order: time priority
            state = events.state_of(row)
            seq = max(state.seq, self._book.last_seq + 1)  # a tie (rows written outside the pair) keeps id order
            try:
                self._book.restore(resting(state, self.precision, seq))
            except ValueError:
                # A row no pair could have written (it would cross the book, or rest nothing): the pair
                # serves without it rather than not at all; an operator looks at it.
                log.error("pair %s: open order %s cannot rest in the book; left out", self._pair_id, state.id)
                continue
            self._orders[state.id] = state
            self._open_count[state.uid] += 1
        self._trade_seq = (await spot.last_trade_id(self._pair_id)) & ((1 << TRADE_ID_BITS) - 1)
        self._candles = CandleBook()
        self._ticker = Ticker24h()
        await self._load_market_data()
        self._recent: deque[dict[str, Any]] = deque(maxlen=RECENT_TRADES)
        for trade in reversed(await events.recent_trades(self._pair_id, RECENT_TRADES)):
            self._recent.appendleft(trade)
        # A reload in the same process carries the push sequence on (clients see a change, not a reset).
        self._depth_seq = getattr(self, "_depth_seq", -1) + 1
        last = await ticks.last_tick(self._pair_id)
        self._ticks = TickLog(self._pair_id, self._settings.mark_interval_ms, Tick.of(last) if last else None)
        if getattr(self, "_mark", None) is None:  # a reload keeps it: it only ever took in durable batches
            await self._load_mark()
        self._mark.observe(self._book, self._now())

    async def _load_mark(self) -> None:
        """The mark's state: the house's accounts, and the last price from the latest trades, read back
        a page at a time until the counted ones are worth the impact notional (the seeded close stands
        in while the pair has never traded). The smoothing window starts now."""
        house = frozenset(await users.house_ids())
        latest: list[dict[str, Any]] = []
        counted = Decimal(0)
        while len(latest) < MARK_TRADES and counted < self._cfg.impact_notional:
            page = await spot.latest_trades(self._pair_id, MARK_PAGE, latest[-1]["id"] if latest else None)
            latest += page
            counted += sum((t["volume"] for t in page if not related(t["buyer_id"], t["seller_id"], house)), Decimal(0))
            if len(page) < MARK_PAGE:
                break
        seed = None if latest else self._ticker.last_price
        self._mark = MarkState(notional=self._cfg.impact_notional, precision=self.precision,
                               window_ms=self._settings.mark_window_ms, interval_ms=self._settings.mark_interval_ms,
                               last_ms=int(self._settings.mark_last_seconds * 1000), now_ms=self._now(), house=house,
                               seed=seed)  # fmt: skip
        self._mark.count(reversed(latest))

    async def _load_market_data(self) -> None:
        from actors.market.periods import ALL_PERIODS

        for period in ALL_PERIODS:
            rows = await Kline.filter(currency_match_id=self._pair_id, period=period.name).order_by("-start").limit(500)
            self._candles.load(period, [events.bar_of(r) for r in reversed(rows)])
        quote = await Quotation.get_or_none(currency_match_id=self._pair_id)
        from actors.market.periods import ONE_MINUTE as minute

        self._ticker.restore(self._candles.bars(minute, self._now() - 86_400_000, self._now()),
                             quote.close if quote and quote.close > 0 else None)  # fmt: skip

    async def _compare_with_database(self) -> dict[str, Any]:
        """The book against the open orders in the database: ``differ`` names the first ``DIFFER_SHOWN``
        orders whose open quantity differs, that one side lacks, or that the pair holds off its book."""
        stored = {}
        for row in await spot.open_orders(self._pair_id):
            state = events.state_of(row)
            stored[state.id] = state.number - state.transacted_amount
        held = {order_id: o.number - o.transacted_amount for order_id, o in self._orders.items()}
        in_book = {o.order_id for o in self._book.open_orders()}
        differ = {i for i in stored.keys() | held.keys() if stored.get(i) != held.get(i)} | (in_book ^ held.keys())
        return {"open_orders": len(held), "matches_database": not differ, "differ": sorted(differ)[:DIFFER_SHOWN]}


def config_of(pair: CurrencyMatch) -> PairConfig:
    return PairConfig(
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
        max_price=pair.max_price,
        max_quantity=pair.max_quantity,
        min_notional=pair.min_notional,
        price_band=pair.price_band,
        max_open_orders=pair.max_open_orders,
        impact_notional=pair.impact_notional,
    )
