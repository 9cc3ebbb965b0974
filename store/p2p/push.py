"""LEGAL_ORDER: every transition of an order, pushed to both of its sides (best effort: the order's
row is the truth; a client that missed a push reads the order again)."""

from __future__ import annotations

import logging

from redis.asyncio import Redis

from store import channels
from store.models import P2POrder
from store.p2p import views

log = logging.getLogger(__name__)
CHANNEL = "LEGAL_ORDER"


async def notify(redis: Redis, orders: list[P2POrder]) -> None:
    """One Redis command for all of ``orders``."""
    if not orders:
        return
    channels.use_client_database(redis)
    try:
        codes = await views.codes({o.currency_id for o in orders})
        messages: list[tuple[str, str]] = []
        for order in orders:
            message = channels.encode("legal_order", {"order": views.summary(order, codes.get(order.currency_id, ""))})
            messages.extend((channels.user_topic(uid, CHANNEL), message) for uid in {order.buyer_id, order.seller_id})
        await channels.publish_all(redis, messages)
    except Exception:
        log.warning("p2p: push of %d orders failed", len(orders), exc_info=True)
