"""Recovery on the wallet side: release the funds of every order that never reached its pair.

Plain async code over the store, no Ray: the WalletShard runs it on its reconcile loop, and the
store tests run it directly. It sweeps by state (``store.holds``), so however many orders a crash
stranded, one sweep releases them all, oldest first.
"""

from __future__ import annotations

import logging
from datetime import datetime

from actors.wallet import legs
from store import holds, ledger
from store.models import OrderHold

log = logging.getLogger(__name__)
PAGE = 500  # holds released per transaction


async def release_orphans(*, older_than: datetime, shard: int, shards: int, page: int = PAGE) -> int:
    """Release the holds created before ``older_than`` of one shard's users, oldest first, a page per
    transaction until none is left; returns how many were released.

    ``older_than`` must be earlier than the pairs' submit deadline allows an order to land (the
    caller's grace). A hold whose order has a row after all is the pair's: only the stale hold row
    goes. A hold whose release was applied before loses its rows without a second release. A hold
    that cannot be released (its lock is short, its ref names another change) is logged and left.
    """
    released = 0
    after: holds.Cursor | None = None
    while rows := await holds.orphans(older_than=older_than, shard=shard, shards=shards, after=after, limit=page):
        after = (rows[-1].created_at, rows[-1].order_id)
        landed = await holds.landed([h.order_id for h in rows])
        if landed:
            log.warning("wallet shard %d: holds of landed orders %s were left behind", shard, sorted(landed))
            await holds.forget(sorted(landed))
        orphans = [h for h in rows if h.order_id not in landed]
        if not orphans:
            continue
        results = await ledger.apply_debits([_release(h) for h in orphans])
        for h, result in zip(orphans, results, strict=True):
            if isinstance(result, Exception):
                log.error("wallet shard %d: cannot release the hold of order %d: %s", shard, h.order_id, result)
        released += sum(result is True for result in results)
    return released


def _release(hold: OrderHold) -> ledger.Op:
    changes = legs.release(hold.user_id, hold.currency_id, hold.amount, f"o{hold.order_id}:release")
    return ledger.Op(changes, deletes=holds.ends(hold.order_id))  # also when it was released before
