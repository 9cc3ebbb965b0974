"""The MarketMaker actor: keeps every pair's book filled and trading, through the engine like a user.

Two bot users (``mm-maker``, ``mm-taker``), funded once through the ledger, place and cancel orders
with ``actors.engine.place_order`` and the pairs' ``cancel``: the same hold, match and settle path
as anyone's order. On a pair with selling disabled the bot only bids, as any user would.
"""

from __future__ import annotations

import asyncio
import logging
from decimal import Decimal
from typing import Any

import ray

from actors.engine import LIMIT, Engine, PairRef, place_order
from actors.errors import DomainError
from actors.maker.quoter import Quote, Quoter
from actors.runtime import DbActor
from store import ledger
from store.cache import connect_redis
from store.models import AccountType, Currency, CurrencyMatch, Quotation, User

log = logging.getLogger(__name__)
BOTS = ("mm-maker@bots.exchange.local", "mm-taker@bots.exchange.local")
FUNDING = Decimal("1000000000")


# Waits on the engine most of the time; reserves no CPU.
@ray.remote(num_cpus=0, max_restarts=-1)
class MarketMaker(DbActor):
    def __init__(self, settings: dict[str, Any], pair_ids: list[int], interval: float = 1.0) -> None:
        super().__init__(settings)
        self._pair_ids = pair_ids
        self._interval = interval
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> int:
        """Fund the bots (idempotent) and start one quoting loop per pair; returns the pair count."""
        if not self._tasks:
            await self._ready()
            maker, taker = [await self._bot(email) for email in BOTS]
            self._redis = connect_redis(self._settings)
            self._engine = Engine(self._settings.wallet_shards, self._redis)
            for pair_id in self._pair_ids:
                self._tasks.append(asyncio.get_running_loop().create_task(self._run(pair_id, maker, taker)))
        return len(self._tasks)

    async def _bot(self, email: str) -> int:
        from store.users import new_invite_code

        user, _ = await User.get_or_create(
            email=email, defaults={"password_hash": "!", "invite_code": new_invite_code(), "is_bot": True}
        )
        for currency in await Currency.all():
            await ledger.credit(user_id=user.id, currency=currency, account_type=AccountType.CHANGE, amount=FUNDING,
                                log_type="bot_funding", ref=f"mm:fund:{user.id}:{currency.id}")  # fmt: skip
        return user.id

    async def _run(self, pair_id: int, maker: int, taker: int) -> None:
        pair = await CurrencyMatch.get(id=pair_id).prefetch_related("base_currency", "quote_currency")
        ref = PairRef(pair.id, f"{pair.base_currency.code}/{pair.quote_currency.code}", pair.base_currency.id,
                      pair.quote_currency.id)  # fmt: skip
        quote = await Quotation.get_or_none(currency_match_id=pair_id)
        reference = quote.close if quote and quote.close > 0 else pair.base_currency.usd_price or Decimal(1)
        quoter = Quoter(reference=reference, price_decimals=pair.price_decimals, qty_decimals=pair.qty_decimals,
                        seed=pair_id)  # fmt: skip
        mine: dict[int, tuple[int, Decimal]] = {}  # order id -> (way, price)
        while True:
            try:
                await self._tick(ref, quoter, mine, maker, taker, can_sell=not pair.sell_disabled)
            except Exception:  # a refused order or a restarting pair: try again next tick
                log.exception("market maker on %s", ref.symbol)
            await asyncio.sleep(self._interval)

    async def _tick(
        self,
        ref: PairRef,
        quoter: Quoter,
        mine: dict[int, tuple[int, Decimal]],
        maker: int,
        taker: int,
        *,
        can_sell: bool,
    ) -> None:
        quoter.drift()
        wanted = {(q.way, q.price): q for q in quoter.ladder(asks=can_sell)}
        # New quotes first, then cancel the stale ones, so the book is never briefly empty.
        held = set(mine.values())
        stale = [order_id for order_id, key in mine.items() if key not in wanted]
        for (way, price), q in wanted.items():
            if (way, price) not in held:
                placed = await self._place(ref, maker, q)
                if placed and placed["status"] in (1, 2):
                    mine[placed["id"]] = (way, price)
        for order_id in stale:
            mine.pop(order_id, None)
            try:
                await self._engine.ask(ref.symbol, "cancel", order_id, maker)
            except DomainError:
                pass  # already filled, or cut by self-trade prevention
        if quoter.chance(0.4):
            deal = await self._engine.ask(ref.symbol, "deal")
            best_bid = Decimal(deal["depth"]["in"][0]["price"]) if deal["depth"]["in"] else None
            best_ask = Decimal(deal["depth"]["out"][0]["price"]) if deal["depth"]["out"] else None
            take = quoter.take(best_bid, best_ask, can_sell=can_sell)
            if take is not None:
                await self._place(ref, taker, take)

    async def _place(self, ref: PairRef, uid: int, q: Quote) -> dict[str, Any] | None:
        try:
            return await place_order(self._engine, self._redis, uid=uid, pair=ref, way=q.way, kind=LIMIT,
                                     price=q.price, number=q.number)  # fmt: skip
        except DomainError as exc:
            log.warning("market maker order on %s refused: %s", ref.symbol, exc)
            return None
