"""What a pair does after a commit, outside its book: settle trade sides and release unused funds in
the wallet shards, publish pushes and the mark to Redis, and sweep the pending work a crash left.

Settlements and releases are idempotent (by trade side, by order) and their pending rows
(``pending_settlements``, ``pending_releases``, written with the batch that made them) are deleted in
the wallet's transaction, so the sweep finds what is left by state, oldest first, however much.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import ray
from redis.asyncio import Redis

from actors.names import wallet_name
from actors.pair import events
from actors.pair.state import BUY, OrderState, PairConfig
from actors.wallet.legs import BUYER, SELLER, TradeLeg, shard_of
from config.settings import Settings
from store import spot
from store.marks import TTL_S as MARK_TTL_S

log = logging.getLogger(__name__)
SWEEP_SECONDS = 5.0  # how soon a sweep follows a settlement or release that failed (or a load)
SWEEP_IDLE_S = 60.0  # with nothing known to be pending, the backstop sweep's interval
SWEEP_PAGE = 500
ATTEMPTS = 5

# One thing for Redis, in commit order: ("publish", topic, message) or ("set", key, value).
Outgoing = tuple[str, str, str]


class PairEffects:
    """Owned by the PairActor: everything here runs on its event loop, in tasks the actor's lifecycle
    holds (the loop "publisher", one task per settlement and release, the loop "sweep")."""

    def __init__(self, pair_id: int, settings: Settings, redis: Redis, cfg: Callable[[], PairConfig]) -> None:
        self._pair_id = pair_id
        self._settings = settings
        self._redis = redis
        self._cfg = cfg  # the pair's configuration as it is now (an operator may reload it)
        self.outbox: asyncio.Queue[list[Outgoing]] = asyncio.Queue()
        self._sending = asyncio.Lock()  # held while the publisher's pipeline is on its way
        self._wallets: dict[int, Any] = {}
        self.owed = True  # something may be pending: a settle or release gave up, or the pair (re)loaded
        self._swept = 0.0  # when the loop last swept (the event loop's clock)

    # -- pushes and the mark, in commit order -------------------------------------------------------

    async def publisher(self) -> None:
        """The pair's one sender to Redis: batches go out in commit order, so a client sees depth
        sequence numbers rise. What queued up while Redis was busy goes in one pipeline."""
        while True:
            pending = [await self.outbox.get()]
            while not self.outbox.empty():
                pending.append(self.outbox.get_nowait())
            async with self._sending:
                try:
                    pipe = self._redis.pipeline(transaction=False)
                    for outgoing in pending:
                        for op, key, value in outgoing:
                            if op == "set":
                                pipe.set(key, value, ex=MARK_TTL_S)
                            else:
                                pipe.publish(key, value)
                    await pipe.execute()
                except Exception:  # pushes are best effort; clients refetch market/deal on a sequence gap
                    log.exception("pair %s: publish failed", self._cfg().symbol)
                finally:
                    for _ in pending:
                        self.outbox.task_done()

    async def unsent(self) -> list[list[Outgoing]]:
        """Take what the publisher has not sent yet out of its queue, once the pipeline it is sending now
        (if any) is done: a move's pause hands it to the next actor, whose publisher sends it before
        anything of its own, so pushes still go out in commit order without the pause waiting for them."""
        taken = []
        while not self.outbox.empty():
            taken.append(self.outbox.get_nowait())
            self.outbox.task_done()
        async with self._sending:
            return taken

    # -- the wallet side of trades and final orders --------------------------------------------------

    async def settle(self, leg: TradeLeg, side: int) -> bool:
        """Settle one trade side in its user's wallet shard; False if every attempt failed (the
        sweep tries again later)."""
        uid = leg.buyer_id if side == BUYER else leg.seller_id
        for attempt in range(ATTEMPTS):
            try:
                await self._wallet(uid).settle.remote(leg, side)
                return True
            except Exception:
                log.exception("settle trade %s side %s failed (attempt %d)", leg.trade_id, side, attempt + 1)
                await asyncio.sleep(0.2 * 2**attempt)
        self.owed = True
        return False

    async def release(self, order: OrderState) -> bool:
        """Give back what a final order did not use; False if every attempt failed (the sweep
        tries again later)."""
        cfg = self._cfg()
        currency = cfg.quote_currency_id if order.way == BUY else cfg.base_currency_id
        for attempt in range(ATTEMPTS):
            try:
                await self._wallet(order.uid).release.remote(order.uid, currency, order.held, f"o{order.id}:release")
                return True
            except Exception:
                log.exception("release of order %s failed (attempt %d)", order.id, attempt + 1)
                await asyncio.sleep(0.2 * 2**attempt)
        self.owed = True
        return False

    async def sweep_when_owed(self) -> None:
        """The loop "sweep", every ``SWEEP_SECONDS``: ``sweep`` when something may be pending, else only
        every ``SWEEP_IDLE_S`` (an idle pair whose settlements and releases all answered does not query
        its pending rows every few seconds)."""
        now = asyncio.get_running_loop().time()
        if not self.owed and now - self._swept < SWEEP_IDLE_S:
            return
        self.owed = False  # a failure during this sweep owes the next one
        try:
            await self.sweep()
        except Exception:
            self.owed = True
            raise
        self._swept = now

    async def sweep(self) -> dict[str, int]:
        """Settle every trade side and release every final order still pending, oldest first,
        page by page until none is left (all idempotent); answers how many it sent (the pair's
        ``sweep``, once it has loaded)."""
        sides = releases = 0
        cursor = (0, 0)
        while page := await spot.pending_settlements(self._pair_id, cursor, SWEEP_PAGE):
            for trade, side in page:
                await self.settle(events.leg_of(self._cfg(), trade), side)
                sides += 1
            cursor = (page[-1][0].id, page[-1][1])
        after = 0
        while rows := await spot.pending_releases(self._pair_id, after, SWEEP_PAGE):
            for row in rows:
                await self.release(events.state_of(row))
                releases += 1
            after = rows[-1].id
        return {"sides": sides, "releases": releases}

    def _wallet(self, uid: int) -> Any:
        index = shard_of(uid, self._settings.wallet_shards)
        if index not in self._wallets:
            self._wallets[index] = ray.get_actor(wallet_name(index))
        return self._wallets[index]


__all__ = ["BUYER", "SELLER", "Outgoing", "PairEffects", "SWEEP_IDLE_S", "SWEEP_SECONDS"]
