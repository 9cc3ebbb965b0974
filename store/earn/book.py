"""What lock savings and mining share: their order ids, and one money movement written with the
order's rows and the house's side in one transaction."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal
from typing import Protocol, TypeVar

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model

from store import ledger
from store.db import scalar
from store.ledger import Change
from store.models import Currency, EarnStatus, HouseLedger


class Stale(Exception):  # noqa: N818 - a state, not a failure
    """The order is not in the state the step expects (the step was done before, or the order ended
    meanwhile): the step's transaction is rolled back and nothing is written."""


@dataclass(frozen=True)
class HouseRow:
    """The house's side of a movement (+ it gains, - it pays); written only when not zero."""

    kind: str
    currency_id: int
    amount: Decimal
    ref: str
    uid: int
    order_id: int


Write = Callable[[BaseDBAsyncClient], Awaitable[None]]


async def move(changes: list[Change], house: list[HouseRow], write: Write) -> bool:
    """Apply ``changes`` (``store.ledger.apply``), then ``write`` (the order's rows: it locks the order
    and raises ``Stale`` when the step no longer applies) and the house rows, all in one transaction.

    True when applied; False when it was applied before (its refs are journaled) or is stale. Raises
    INSUFFICIENT_BALANCE (nothing written) as the ledger does."""

    async def also(conn: BaseDBAsyncClient) -> None:
        await write(conn)
        rows = [HouseLedger(kind=h.kind, currency_id=h.currency_id, amount=h.amount, ref=h.ref, user_id=h.uid,
                            position_id=h.order_id) for h in house if h.amount]  # fmt: skip
        if rows:
            await HouseLedger.bulk_create(rows, using_db=conn)

    try:
        return await ledger.apply(changes, also=also)
    except Stale:
        return False


M = TypeVar("M", bound=Model)


async def locked(model: type[M], order_id: int, conn: BaseDBAsyncClient) -> M:
    """The order's row, locked for the rest of the transaction (PostgreSQL; SQLite has one writer)."""
    return await model.filter(id=order_id).select_for_update().using_db(conn).get()


async def places_of(currency_id: int, cache: dict[int, int] | None = None) -> int:
    """The currency's decimal places (its smallest unit), remembered in ``cache`` across a run."""
    if cache is not None and currency_id in cache:
        return cache[currency_id]
    places = int(await scalar(Currency.filter(id=currency_id).first().values_list("decimals", flat=True)))
    if cache is not None:
        cache[currency_id] = places
    return places


def floor(amount: Decimal, places: int) -> Decimal:
    """``amount`` rounded down to ``places`` decimals (a currency's smallest unit)."""
    return amount.quantize(Decimal(1).scaleb(-places), rounding=ROUND_DOWN)


class Earning(Protocol):
    """What the day loop needs of an earn order (``LockOrder``, ``MiningOrder``)."""

    id: int
    start_day: int
    end_day: int
    days_booked: int
    status: EarnStatus


E = TypeVar("E", bound=Earning)


async def catch_up(
    load: Callable[[], Awaitable[E]],
    book: Callable[[E, int], Awaitable[bool]],
    mature: Callable[[E], Awaitable[bool]],
    through: int,
) -> tuple[int, bool]:
    """Book every day of the order not booked yet up to ``through`` (in order: day ``start_day + 1``
    first), then, if its last day is booked and ``end_day <= through``, mature it. Each step is its
    own transaction, idempotent per (order, day): run twice, or side by side, nothing repeats.

    Returns (days booked here, matured here)."""
    order = await load()
    booked, steps = 0, order.end_day - order.start_day + 2
    for _ in range(steps):
        if order.status != EarnStatus.ACTIVE:
            break
        day = order.start_day + order.days_booked + 1
        if day <= min(through, order.end_day):
            booked += await book(order, day)
        elif order.end_day <= through:
            return booked, await mature(order)
        else:
            break
        order = await load()
    return booked, False


Settle = Callable[[int, int, int], Awaitable[tuple[int, bool]]]  # (order id, through, places)


async def run_active(model: type[Model], day: int, settle: Settle) -> tuple[int, int]:
    """The day loop of an earn product, run once ``day`` is over: every active order that started
    before it is settled through ``day`` (its missed days included), oldest first.

    Returns (days booked, orders matured) over the run."""
    places: dict[int, int] = {}
    booked = matured = 0
    for order_id, currency_id in (
        await model.filter(status=EarnStatus.ACTIVE, start_day__lt=day).order_by("id").values_list("id", "currency_id")
    ):
        done, ended = await settle(order_id, day, await places_of(currency_id, places))
        booked, matured = booked + done, matured + ended
    return booked, matured
