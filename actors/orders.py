"""The order path, shared by the API and the market maker (docs/architecture.md "The order path").

1. hold: freeze the funds in the user's wallet shard (ref ``o<id>:freeze``);
2. match: submit to the pair's actor, which answers once the order and its trades are durable;
3. settle: the pair sends each trade side to the wallet shards and releases what a final order did
   not use. If the pair refuses the order, the freeze is released here at once; if the pair cannot
   be reached, the reconciler releases a freeze with no order behind it.

The actors are reached through ``actors.engine.Engine``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ray.exceptions import RayActorError

from actors.engine import Engine
from actors.pair.state import BUY
from store.errors import DomainError, ErrorCode, OutcomeUnknown
from store.times import now_ms

LIMIT, MARKET = 1, 2


@dataclass(frozen=True)
class PairRef:
    """What placing an order needs to know about a pair."""

    id: int
    symbol: str
    base_currency_id: int
    quote_currency_id: int


@dataclass(frozen=True)
class OrderSpec:
    """A checked order: what ``place_orders`` holds and submits. ``budget`` is a market buy's quote."""

    pair: PairRef
    way: int
    kind: int
    price: Decimal
    number: Decimal
    budget: Decimal = Decimal(0)

    def hold(self) -> tuple[int, Decimal]:
        """(currency, amount) to freeze: a buy holds quote (its budget or price x number), a sell base."""
        if self.way == BUY:
            return self.pair.quote_currency_id, self.budget if self.kind == MARKET else self.price * self.number
        return self.pair.base_currency_id, self.number

    def payload(self, order_id: int, uid: int) -> dict[str, Any]:
        """The pair's ``submit`` command, stamped now (the pair refuses it after SUBMIT_DEADLINE_MS)."""
        return {
            "sent_ms": now_ms(),
            "id": order_id,
            "uid": uid,
            "way": self.way,
            "kind": self.kind,
            "price": self.price,
            "number": self.number,
            "frozen": self.hold()[1],
            "budget": self.budget if self.kind == MARKET and self.way == BUY else Decimal(0),
        }


async def place_order(
    engine: Engine,
    *,
    uid: int,
    pair: PairRef,
    way: int,
    kind: int,
    price: Decimal,
    number: Decimal,
    budget: Decimal = Decimal(0),
    order_id: int | None = None,
) -> dict[str, Any]:
    """Hold, then match. ``budget`` is a market buy's quote to spend; ``order_id`` one the caller took
    from ``engine.ids`` (a new one by default). Raises DomainError."""
    spec = OrderSpec(pair, way, kind, price, number, budget)
    currency, frozen = spec.hold()
    order_id = order_id if order_id is not None else await engine.ids.next()
    try:
        await engine.hold(uid, currency, frozen, f"o{order_id}:freeze")
    except RayActorError as exc:  # the shard died mid-call: the reconciler releases a freeze that landed
        raise DomainError(ErrorCode.PAIR_UNAVAILABLE) from exc
    try:
        return await engine.submit(pair.symbol, spec.payload(order_id, uid))
    except OutcomeUnknown:
        # The order may or may not be durable. If it is not, the reconciler releases its freeze (the
        # pair refuses orders sent longer ago than SUBMIT_DEADLINE_MS, so it cannot appear later).
        raise
    except DomainError:
        await engine.wallet(uid).release.remote(uid, currency, frozen, f"o{order_id}:release")
        raise


Placed = dict[str, Any] | DomainError


async def place_orders(engine: Engine, *, uid: int, orders: list[OrderSpec]) -> list[Placed]:
    """Place many orders of one user; each order succeeds or fails alone. Answers, in order, the pair's
    answer (as ``place_order`` returns it) or the DomainError that refused the order (an OutcomeUnknown
    when its pair may have taken it).

    1. hold: the freezes go to the user's wallet shard together (``Engine.hold``: one ``freeze_many``,
       with whatever else this engine is sending that shard), every freeze all-or-nothing on its own;
    2. match: the orders go to each pair together (``Engine.submit``: one ``submit_many`` per pair, the
       pairs concurrently), each order matched in the pair's batch exactly as ``submit`` would, a
       pair's orders in the order given;
    3. release: ONE ``release_many`` for the orders a pair refused. An order whose outcome is unknown
       keeps its freeze: the reconciler releases it if the order never became durable, as for one order.
    """
    results: list[Placed] = [DomainError(ErrorCode.INTERNAL)] * len(orders)
    ids = [await engine.ids.next() for _ in orders]
    holds = [spec.hold() for spec in orders]
    freezes = [
        engine.hold(uid, currency, frozen, f"o{i}:freeze") for i, (currency, frozen) in zip(ids, holds, strict=True)
    ]
    held = await asyncio.gather(*freezes, return_exceptions=True)
    sent: list[int] = []  # the orders whose freeze held, in the order given (so each pair's keep theirs)
    for index, outcome in enumerate(held):
        if isinstance(outcome, RayActorError):  # the shard died mid-call: the reconciler releases what landed
            results[index] = DomainError(ErrorCode.PAIR_UNAVAILABLE)
        elif isinstance(outcome, DomainError):
            results[index] = outcome
        elif isinstance(outcome, BaseException):
            raise outcome
        else:
            sent.append(index)
    answers = await asyncio.gather(
        *(engine.submit(orders[i].pair.symbol, orders[i].payload(ids[i], uid)) for i in sent), return_exceptions=True
    )
    for i, answer in zip(sent, answers, strict=True):
        if isinstance(answer, BaseException) and not isinstance(answer, DomainError):
            raise answer
        results[i] = answer  # OutcomeUnknown included: it says so for this order
    refused = [i for i in sent if isinstance(results[i], DomainError) and not isinstance(results[i], OutcomeUnknown)]
    if refused:
        releases = [(uid, *holds[i], f"o{ids[i]}:release") for i in refused]
        try:
            await engine.wallet(uid).release_many.remote(releases)
        except RayActorError:  # their holds have no order behind them: the reconciler releases them
            pass
    return results
