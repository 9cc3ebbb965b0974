"""DEPOSIT: a chain deposit credited, or dropped by a reorg, pushed to its user; WITHDRAWAL: a
withdrawal completed on its chain or failed and refunded (best effort, like the other user pushes: the
rows and the records are the truth; a client that missed a push reads ``wallet/deposits`` or
``account/withdrawals`` again)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from redis.asyncio import Redis

from store import channels
from store.chain.watch import Event
from store.models import Withdrawal
from store.money import money

log = logging.getLogger(__name__)
CHANNEL = "DEPOSIT"
WITHDRAWAL_CHANNEL = "WITHDRAWAL"


async def notify(redis: Redis, events: Sequence[Event]) -> None:
    """One Redis command for all of ``events``."""
    if not events:
        return
    channels.use_client_database(redis)
    try:
        messages = []
        for event in events:
            row = event.deposit
            uid, currency_id = row.user_id, row.currency_id
            payload = {"kind": event.kind, "id": row.id, "currency_id": currency_id, "chain": row.chain,
                       "tx_hash": row.tx_hash, "amount": money(row.amount), "confirmations": row.confirmations,
                       "status": int(row.status)}  # fmt: skip
            messages.append((channels.user_topic(uid, CHANNEL), channels.encode("deposit", payload)))
        await channels.publish_all(redis, messages)
    except Exception:
        log.warning("chain: push of %d deposit events failed", len(events), exc_info=True)


async def notify_withdrawals(redis: Redis, rows: Sequence[Withdrawal]) -> None:
    """A withdrawal's outcome on its chain (status COMPLETED or FAILED), to its user."""
    channels.use_client_database(redis)
    try:
        messages = []
        for row in rows:
            uid, currency_id = row.user_id, row.currency_id
            payload = {"id": row.id, "currency_id": currency_id, "amount": money(row.amount), "status": int(row.status)}
            messages.append((channels.user_topic(uid, WITHDRAWAL_CHANNEL), channels.encode("withdrawal", payload)))
        await channels.publish_all(redis, messages)
    except Exception:
        log.warning("chain: push of %d withdrawal outcomes failed", len(rows), exc_info=True)
