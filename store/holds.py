"""The wallet side of the order path's pending work, kept by state (docs/architecture.md "The order path").

An ``OrderHold`` row is written in the transaction of an order's freeze and deleted in the
transaction that ends it: the pair storing the order (``store.spot.persist_batch``) or the release
of the freeze. A release also deletes the order's ``PendingRelease`` row (written by the pair for a
final order still holding funds). So a hold older than the pairs' submit deadline belongs to an
order that never reached its pair, and recovery finds every such order through the index on
``created_at``, oldest first, however many there are.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.expressions import Q, RawSQL

from store.db import column
from store.ledger import Delete
from store.models import Order, OrderHold, PendingRelease


def hold(order_id: int, uid: int, currency_id: int, amount: Decimal) -> OrderHold:
    """The row an order's freeze writes (unsaved: ``ledger.apply_debits`` creates it with the freeze)."""
    return OrderHold(order_id=order_id, user_id=uid, currency_id=currency_id, amount=amount)


async def end(order_ids: list[int], conn: BaseDBAsyncClient | None = None) -> None:
    """Delete the holds and pending releases of these orders (their funds were released)."""
    if order_ids:
        await OrderHold.filter(order_id__in=order_ids).using_db(conn).delete()
        await PendingRelease.filter(order_id__in=order_ids).using_db(conn).delete()


def ends(order_id: int) -> tuple[Delete, ...]:
    """What an order's release ends (``ledger.Op.deletes``): its hold and its pending release."""
    return ((OrderHold, ("order_id",), (order_id,)), (PendingRelease, ("order_id",), (order_id,)))


Cursor = tuple[datetime, int]  # (created_at, order_id) of the last hold of the previous page


async def orphans(
    *, older_than: datetime, shard: int, shards: int, after: Cursor | None, limit: int
) -> list[OrderHold]:
    """The next page of holds created before ``older_than`` of the users of one wallet shard
    (``user_id % shards == shard``), oldest first, after ``after``."""
    query = OrderHold.annotate(shard=RawSQL(f"user_id % {int(shards)}")).filter(created_at__lt=older_than, shard=shard)
    if after is not None:
        at, order_id = after
        query = query.filter(Q(created_at__gt=at) | Q(created_at=at, order_id__gt=order_id))
    return await query.order_by("created_at", "order_id").limit(limit)


async def landed(order_ids: list[int]) -> set[int]:
    """Those of these orders that have a row: their funds are the pair's, not an orphan's."""
    return set(await column(Order.filter(id__in=order_ids).values_list("id", flat=True)))


async def forget(order_ids: list[int]) -> None:
    """Delete only the holds of these orders (landed orders whose hold the pair did not delete)."""
    if order_ids:
        await OrderHold.filter(order_id__in=order_ids).delete()
