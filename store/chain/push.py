"""DEPOSIT: a chain deposit credited, or dropped by a reorg, pushed to its user (best effort, like the
other user pushes: the deposit's row and the records are the truth; a client that missed a push reads
``wallet/deposits`` again)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from redis.asyncio import Redis

from store import channels
from store.chain.watch import Event
from store.money import money

log = logging.getLogger(__name__)
CHANNEL = "DEPOSIT"


async def notify(redis: Redis, events: Sequence[Event]) -> None:
    """One Redis command for all of ``events``."""
    if not events:
        return
    channels.use_client_database(redis)
    try:
        messages = []
        for event in events:
            row = event.deposit
            uid, currency_id = row.user_id, row.currency_id  # type: ignore[attr-defined]
            payload = {"kind": event.kind, "id": row.id, "currency_id": currency_id, "chain": row.chain,
                       "tx_hash": row.tx_hash, "amount": money(row.amount), "confirmations": row.confirmations,
                       "status": int(row.status)}  # fmt: skip
            messages.append((channels.user_topic(uid, CHANNEL), channels.encode("deposit", payload)))
        await channels.publish_all(redis, messages)
    except Exception:
        log.warning("chain: push of %d deposit events failed", len(events), exc_info=True)
