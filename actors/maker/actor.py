"""The MarketMaker actor: keeps every pair's book filled and trading, through the engine like a user.

Two bot users (``mm-maker``, ``mm-taker``), funded once through the ledger, place and cancel orders
with ``actors.orders.place_order`` and the pairs' ``cancel``: the same hold, match and settle path
as anyone's order, inside the same bounds (price band around the mark, minimum order value). On a
pair with selling disabled the bot only bids, as any user would.

An idle exchange must idle (issues 15, 31): each pair ticks on a slow timer (``INTERVAL_S`` give or
take half, so the pairs spread out), and a tick costs little. The quoter's ladder sits on a fixed price
grid, so a tick re-quotes only the levels the reference crossed (usually none; one order and one
cancel per side for a move of one grid step), the quotes other orders filled are noticed with one
query and placed again, and the taker trades on about every other tick (never more than
``quoter.MAX_QUIET_TICKS`` ticks in a row without), so books, trades and candles keep moving.

``target`` walks a pair's price to a given one for demos and tests (``exchange maker target``): the
reference moves there step by step (``Quoter.aim``), the taker trades through the book on each step
and the ladder follows, so the mark does, and the last trade is at the target itself; then the bot
quotes so that the mark is the target (``Quoter.anchor``: the house's trades with itself do not make
the mark's last price) and goes on quoting around it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

import ray

from actors.engine import Engine
from actors.maker.quoter import BUY, Quote, Quoter
from actors.orders import LIMIT, PairRef, place_order
from actors.pair.loading import config_of
from actors.pair.matching import band
from actors.pair.state import PairConfig
from actors.runtime import DbActor
from store import ledger, marks
from store.cache import connect_redis
from store.errors import DomainError
from store.models import AccountType, Currency, CurrencyMatch, Order, Quotation, User
from store.money import money
from store.spot import OPEN_STATUSES
from store.times import now_ms

log = logging.getLogger(__name__)
BOTS = ("mm-maker@bots.exchange.local", "mm-taker@bots.exchange.local")
FUNDING = Decimal("1000000000")
WALK_S = 10.0  # a walk to a target takes this long, whatever the distance (within the band)
WALK_STEP_S = 0.25  # how often the bot steps on a walk
ARRIVAL_WAIT_S = 20.0  # beyond WALK_S, how long ``target`` waits for the last trade at the target
MARK_WAIT_S = 2.0  # how long it then waits for the pair's mark to show it, beyond the mark's smoothing window
# A pair's quoting loop ticks every 7.5 to 22.5 s (jittered), unless it is walking: the maker's orders,
# trades and settlements were half of an idle exchange's own work at 8 s (issue 31). The taker still
# trades at least every third tick, so every pair trades about twice a minute and within ~70 s.
INTERVAL_S = 15.0


@dataclass
class _Pair:
    """A pair the bot quotes: its config, its quoter and resting quotes, and the caller of a walk."""

    ref: PairRef
    cfg: PairConfig
    quoter: Quoter
    mine: dict[int, tuple[int, Decimal]]  # its resting quotes: id -> (way, price)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    waiter: asyncio.Future[dict[str, Any]] | None = None
    walk_began: float = 0.0


# Waits on the engine most of the time; reserves no CPU.
@ray.remote(num_cpus=0, max_restarts=-1)
class MarketMaker(DbActor):
    def __init__(self, settings: dict[str, Any], pair_ids: list[int], interval: float = INTERVAL_S) -> None:
        super().__init__(settings, "market maker", wait_s=None)  # its calls wait for the bots, however long
        self._pair_ids = pair_ids
        self._interval = interval
        self._quoting: list[str] = []  # the names of the pairs' quoting loops
        self._pairs: dict[int, _Pair] = {}
        self._ticked: dict[int, int] = {}  # pair -> when its loop last finished a tick (ms)
        # Background work starts in the actor's own start path: Ray runs __init__ again when it
        # restarts the actor (an async actor's __init__ runs on its event loop), never a caller's start().
        self._life.loop("start", lambda: self._life.load(self._start, delays=(self._interval,)))

    async def start(self) -> int:
        """Wait until the bots are funded and every pair has its quoting loop; returns the pair count."""
        await self._life.wait_loaded()
        return len(self._quoting)

    async def status(self) -> dict[int, int]:
        """When each pair's quoting loop last finished a tick (ms since the epoch; absent: not yet)."""
        return dict(self._ticked)

    async def stop(self) -> int:
        """Stop quoting and cancel the bot's resting quotes; returns how many were cancelled."""
        await self._life.wait_loaded()
        await self._life.stop(*self._quoting)
        cancelled = 0
        for p in self._pairs.values():
            for order_id in list(p.mine):
                cancelled += await self._cancel(p, order_id)
        return cancelled

    async def target(self, symbol: str, price: str) -> dict[str, Any]:
        """Walk ``symbol``'s price to ``price`` in about ``WALK_S`` seconds, trading as it goes, and
        answer once the bot traded at it: ``{symbol, from, to, mark, seconds}`` (``mark`` is the pair's
        mark then). A price the pair would refuse (outside its band around the mark, above its maximum,
        off its price grid) or a pair the bot does not quote or cannot sell on answers ``{error}``.
        A second walk on the pair replaces the first (whose caller gets an error)."""
        await self._life.wait_loaded()
        p = next((p for p in self._pairs.values() if p.ref.symbol == symbol.upper()), None)
        if p is None:
            quoted = ", ".join(sorted(p.ref.symbol for p in self._pairs.values()))
            return {"error": f"the market maker quotes no pair {symbol} (it quotes {quoted})"}
        mark = (await marks.read(self._redis, [p.ref.symbol])).get(p.ref.symbol)
        target, refused = self._check_target(p, price, mark)
        if refused:
            return {"error": refused}
        start = mark.price if mark is not None else p.quoter.reference
        if p.waiter is not None and not p.waiter.done():
            p.waiter.set_result({"error": f"replaced by a walk of {p.ref.symbol} to {money(target)}"})
        p.waiter = asyncio.get_running_loop().create_future()
        p.walk_began = time.monotonic()
        p.quoter.aim(target, start=start, now=p.walk_began, seconds=WALK_S)
        p.wake.set()
        try:
            return await asyncio.wait_for(asyncio.shield(p.waiter), WALK_S + ARRIVAL_WAIT_S)
        except TimeoutError:
            return {"error": f"{p.ref.symbol} did not reach {money(target)} within {WALK_S + ARRIVAL_WAIT_S:.0f} s"}

    @staticmethod
    def _check_target(p: _Pair, price: str, mark: marks.Mark | None) -> tuple[Decimal, str]:
        """The target as a price, and why the pair would refuse it ("" if it would not)."""
        symbol, tick = p.ref.symbol, Decimal(1).scaleb(-p.cfg.price_decimals)
        try:
            target = Decimal(price)
        except InvalidOperation:
            return Decimal(0), f"not a price: {price}"
        if not target.is_finite() or target <= 0:
            return target, "the price must be a positive number"
        if target != target.quantize(tick):
            return target, f"{symbol} prices have at most {p.cfg.price_decimals} decimals"
        if target > p.cfg.max_price:
            return target, f"{money(target)} is above {symbol}'s maximum price {money(p.cfg.max_price)}"
        if p.cfg.sell_disabled:
            return target, f"selling is disabled on {symbol}: the bot cannot trade its price anywhere"
        if mark is not None:
            low, high = band(mark.price, p.cfg)
            if not low <= target <= high:
                return target, (f"{money(target)} is outside {symbol}'s price band around its mark "
                                f"{money(mark.price)}: {money(low)} to {money(high)}")  # fmt: skip
        return target, ""

    async def _start(self) -> None:
        """Fund the bots and load the pairs (tried again every ``interval`` while the database is not up
        yet), then start each pair's quoting loop."""
        await self._ready()
        self._maker, self._taker = [await self._bot(email) for email in BOTS]
        for pair_id in self._pair_ids:
            self._pairs[pair_id] = await self._load(pair_id)
        self._redis = connect_redis(self._settings)
        self._engine = Engine(self._settings.wallet_shards, self._redis)
        for p in self._pairs.values():
            name = f"quote {p.ref.symbol}"
            self._life.loop(name, functools.partial(self._run, p))
            self._quoting.append(name)

    async def _bot(self, email: str) -> int:
        from store.users import new_invite_code

        user, _ = await User.get_or_create(
            email=email, defaults={"password_hash": "!", "invite_code": new_invite_code(), "is_bot": True}
        )
        for currency in await Currency.all():
            await ledger.credit(user_id=user.id, currency=currency, account_type=AccountType.CHANGE, amount=FUNDING,
                                log_type="bot_funding", ref=f"mm:fund:{user.id}:{currency.id}")  # fmt: skip
        return user.id

    async def _load(self, pair_id: int) -> _Pair:
        pair = await CurrencyMatch.get(id=pair_id).prefetch_related("base_currency", "quote_currency")
        cfg = config_of(pair)
        ref = PairRef(pair.id, cfg.symbol, cfg.base_currency_id, cfg.quote_currency_id)
        quote = await Quotation.get_or_none(currency_match_id=pair_id)
        reference = quote.close if quote and quote.close > 0 else pair.base_currency.usd_price or Decimal(1)
        quoter = Quoter(reference=reference, price_decimals=cfg.price_decimals, qty_decimals=cfg.qty_decimals,
                        min_notional=cfg.min_notional, seed=pair_id)  # fmt: skip
        # Quotes a previous run of this actor left resting are adopted: the next tick cancels those
        # no longer wanted, so a restart does not pile up quotes nobody cancels.
        resting = Order.filter(user_id=self._maker, currency_match_id=pair_id, status__in=OPEN_STATUSES)
        return _Pair(ref, cfg, quoter, {o.id: (o.way, o.price) for o in await resting})

    async def _run(self, p: _Pair) -> None:
        while True:
            try:
                await self._tick(p)
            except Exception:  # a refused order or a restarting pair: try again next tick
                log.exception("market maker on %s", p.ref.symbol)
            self._ticked[p.ref.id] = now_ms()
            p.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(p.wake.wait(), WALK_STEP_S if p.quoter.walk else p.quoter.pause(self._interval))

    async def _tick(self, p: _Pair) -> None:
        now = time.monotonic()
        if p.quoter.walk is None:
            await self._forget_filled(p)
        p.quoter.drift(now)
        wanted = {(q.way, q.price): q for q in p.quoter.ladder(asks=not p.cfg.sell_disabled)}
        # New quotes first, then cancel the stale ones, so the book is never briefly empty. A new
        # quote that crosses a stale one of the bot's own takes it off the book (self-trade prevention).
        held = set(p.mine.values())
        new = [q for key, q in wanted.items() if key not in held]
        stale = [order_id for order_id, key in p.mine.items() if key not in wanted]
        placed = await asyncio.gather(*(self._place(p.ref, self._maker, q) for q in new))
        for q, order in zip(new, placed, strict=True):
            if order and order["status"] in (1, 2):
                p.mine[order["id"]] = (q.way, q.price)
        await asyncio.gather(*(self._cancel(p, order_id) for order_id in stale))
        walk = p.quoter.walk
        if walk is not None and walk.done(now):
            await self._arrive(p)
        elif walk is not None or p.quoter.trades_now():
            best_bid, best_ask = await self._best(p)
            take = p.quoter.push(best_bid, best_ask) if walk else p.quoter.take(
                best_bid, best_ask, can_sell=not p.cfg.sell_disabled)  # fmt: skip
            if take is not None:
                await self._place(p.ref, self._taker, take)

    async def _forget_filled(self, p: _Pair) -> None:
        """Drop the quotes no longer open (filled by the taker or anyone, or cut by self-trade
        prevention) so this tick places them again: one query, only the bot's own ids."""
        if p.mine:
            still = set(await Order.filter(id__in=list(p.mine), status__in=OPEN_STATUSES).values_list("id", flat=True))
            for order_id in [i for i in p.mine if i not in still]:
                del p.mine[order_id]

    async def _arrive(self, p: _Pair) -> None:
        """The walk's last step: the maker offers at the target and the taker trades it, after any
        better-priced orders on the way, so the last trade (and the mark) is the target."""
        walk = p.quoter.walk
        assert walk is not None
        depth = (await self._engine.read(p.ref.symbol, "deal"))["depth"]
        side = depth["out"] if walk.way == BUY else depth["in"]
        ahead = sum(
            (Decimal(level["amount"]) for level in side
             if (Decimal(level["price"]) < walk.target if walk.way == BUY else Decimal(level["price"]) > walk.target)),
            Decimal(0),
        )  # fmt: skip
        offer, take = p.quoter.arrival(ahead)
        placed = await self._place(p.ref, self._maker, offer)
        if placed is None or await self._place(p.ref, self._taker, take) is None:
            return  # refused (logged): the next step tries again
        if placed["status"] in (1, 2):
            p.mine[placed["id"]] = (offer.way, offer.price)
        await self._anchor(p)
        p.quoter.walk = None
        mark = await self._mark_at(p.ref.symbol, walk.target)
        if p.waiter is not None and not p.waiter.done():
            p.waiter.set_result({
                "symbol": p.ref.symbol,
                "from": money(walk.start),
                "to": money(walk.target),
                "mark": money(mark) if mark is not None else None,
                "seconds": round(time.monotonic() - p.walk_began, 1),
            })  # fmt: skip

    async def _anchor(self, p: _Pair) -> None:
        """Quote so that the pair's mark becomes the walk's target (``Quoter.anchor``), taking off the
        book first the bot's own quotes that would weigh in those impact prices (the ones better than
        them); the next tick's ladder replaces them."""
        inputs = (await self._engine.read(p.ref.symbol, "deal"))["mark_inputs"]
        last = Decimal(inputs["last"]) if inputs["last"] is not None else None
        quotes = p.quoter.anchor(last, Decimal(inputs["notional"]))
        bid = max((q.price for q in quotes if q.way == BUY), default=None)
        ask = min((q.price for q in quotes if q.way != BUY), default=None)
        better = [order_id for order_id, (way, price) in p.mine.items()
                  if (bid is not None and way == BUY and price > bid)
                  or (ask is not None and way != BUY and price < ask)]  # fmt: skip
        await asyncio.gather(*(self._cancel(p, order_id) for order_id in better))
        for q, order in zip(quotes, await asyncio.gather(*(self._place(p.ref, self._maker, q) for q in quotes)),
                            strict=True):  # fmt: skip
            if order and order["status"] in (1, 2):
                p.mine[order["id"]] = (q.way, q.price)

    async def _mark_at(self, symbol: str, price: Decimal) -> Decimal | None:
        """The pair's mark once it shows ``price`` (or whatever it shows after the smoothing window and
        ``MARK_WAIT_S``)."""
        deadline = time.monotonic() + self._settings.mark_window_ms / 1000 + MARK_WAIT_S
        while True:
            mark = (await marks.read(self._redis, [symbol])).get(symbol)
            if (mark is not None and mark.price == price) or time.monotonic() > deadline:
                return mark.price if mark is not None else None
            await asyncio.sleep(0.05)

    async def _best(self, p: _Pair) -> tuple[Decimal | None, Decimal | None]:
        depth = (await self._engine.read(p.ref.symbol, "deal"))["depth"]
        best_bid = Decimal(depth["in"][0]["price"]) if depth["in"] else None
        best_ask = Decimal(depth["out"][0]["price"]) if depth["out"] else None
        return best_bid, best_ask

    async def _place(self, ref: PairRef, uid: int, q: Quote) -> dict[str, Any] | None:
        try:
            return await place_order(self._engine, uid=uid, pair=ref, way=q.way, kind=LIMIT, price=q.price,
                                     number=q.number)  # fmt: skip
        except DomainError as exc:
            log.warning("market maker order on %s refused: %s", ref.symbol, exc)
            return None

    async def _cancel(self, p: _Pair, order_id: int) -> int:
        """Cancel a resting quote of the bot; 1 if it was still open."""
        p.mine.pop(order_id, None)
        try:
            await self._engine.ask(p.ref.symbol, "cancel", order_id, self._maker)
            return 1
        except DomainError:
            return 0  # already filled, or cut by self-trade prevention
