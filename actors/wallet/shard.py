"""The WalletShard actor: the wallets of every user with ``uid % n == index``.

Each user is a virtual actor inside the shard: their operations run one at a time (a per-user lock,
their mailbox) while different users proceed concurrently. Balances live in the database, which each
operation reads and writes in one transaction with its journal rows (``store.ledger.apply``), so a
restarted shard has nothing to reload and every operation is idempotent by its reference.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from decimal import Decimal
from typing import Any

import ray

from actors.pair.state import ORPHAN_GRACE_MS
from actors.runtime import DbActor, GroupCommit
from actors.wallet import legs
from store import ledger, spot, withdrawals
from store.models import Account, AccountType

log = logging.getLogger(__name__)
RECONCILE_SECONDS = 15.0


# Database bound, not CPU bound: reserves no CPU so shards and pairs fit a small machine; placement
# across nodes is by custom resources (ray-cluster.yaml).
@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=-1)
class WalletShard(DbActor):
    def __init__(self, index: int, settings: dict[str, Any]) -> None:
        super().__init__(settings)
        self._index = index
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._reconciler: asyncio.Task[None] | None = None
        # Freezes are on every order's path: they share transactions (ledger.apply_debits).
        self._freezes: GroupCommit[list[ledger.Change], bool] = GroupCommit(ledger.apply_debits)

    async def freeze(self, uid: int, currency_id: int, amount: Decimal, ref: str) -> bool:
        """Move ``amount`` from balance to lock. Raises INSUFFICIENT_BALANCE; idempotent by ref."""
        await self._ready()
        return await self._freezes.submit(legs.freeze(uid, currency_id, amount, ref))

    async def release(self, uid: int, currency_id: int, amount: Decimal, ref: str) -> bool:
        """Move ``amount`` from lock back to balance; idempotent by ref."""
        if amount <= 0:
            return False
        return await self._apply(uid, legs.release(uid, currency_id, amount, ref))

    async def settle(self, leg: legs.TradeLeg, side: int) -> bool:
        """Apply one side of a trade; False if that side was settled before."""
        changes, fee = legs.settle(leg, side)
        await self._ready()
        async with self._locks[changes[0].uid]:
            return await ledger.apply(changes, fee)

    async def credit(
        self, uid: int, currency_id: int, amount: Decimal, ref: str, log_type: str, memo: str = ""
    ) -> bool:
        change = ledger.Change(uid, currency_id, legs.CHANGE, amount, ledger.ZERO, log_type, ref, memo)
        return await self._apply(uid, [change])

    async def transfer(self, uid: int, currency_id: int, amount: Decimal, source: int, target: int, ref: str) -> bool:
        """Move ``amount`` between two of the user's accounts in one ledger batch (both legs or neither).

        Raises INSUFFICIENT_BALANCE; idempotent by ref."""
        changes = legs.transfer(uid, currency_id, amount, AccountType(source), AccountType(target), ref)
        return await self._apply(uid, changes)

    async def convert(self, conversion: legs.Conversion, ref: str) -> bool:
        """Swap one currency of the change account for another at a given price, atomically.

        Raises INSUFFICIENT_BALANCE; idempotent by ref."""
        return await self._apply(conversion.uid, legs.convert(conversion, ref))

    async def draw(self, uid: int, request: dict[str, Any]) -> int:
        """Lock a withdrawal's amount and create the request in one transaction; answers its id.

        ``request``: currency_id, protocol_id, address, memo, amount, fee, ref (see
        ``store.withdrawals.request``). Raises INSUFFICIENT_BALANCE; idempotent by ref."""
        await self._ready()
        async with self._locks[uid]:
            return await withdrawals.request(uid=uid, **request)

    async def reconcile(self, grace_ms: int = ORPHAN_GRACE_MS) -> int:
        """Release freezes whose order never reached its pair (this shard's users); returns how many.

        ``grace_ms`` must exceed the pairs' submit deadline unless the caller knows no submit is in
        flight (the chaos tests, after their order stream has ended).
        """
        await self._ready()
        now = time.time() * 1000
        orphans = await spot.orphan_freezes(
            spot.ms_to_dt(int(now - grace_ms)), spot.ms_to_dt(int(now - 7 * 86_400_000))
        )
        released = 0
        for row in orphans:
            uid = row.user_id  # type: ignore[attr-defined]
            if legs.shard_of(uid, self._settings.wallet_shards) == self._index:
                order_ref = row.ref.removesuffix(":freeze") if row.ref else ""
                released += await self.release(uid, row.currency_id, row.lock_amount, f"{order_ref}:release")  # type: ignore[attr-defined]
        return released

    async def _reconcile_loop(self) -> None:
        while True:
            await asyncio.sleep(RECONCILE_SECONDS)
            try:
                await self.reconcile()
            except Exception:
                log.exception("wallet shard %d: reconcile failed", self._index)

    async def start(self) -> bool:
        """Start the reconciler (idempotent)."""
        await self._ready()
        if self._reconciler is None:
            self._reconciler = asyncio.get_running_loop().create_task(self._reconcile_loop())
        return True

    async def accounts(self, uid: int) -> list[dict[str, Any]]:
        await self._ready()
        rows = await Account.filter(user_id=uid).values("currency_id", "account_type", "balance", "lock_balance")
        return rows

    async def _apply(self, uid: int, changes: list[ledger.Change]) -> bool:
        await self._ready()
        async with self._locks[uid]:
            return await ledger.apply(changes)


def wallet_name(index: int) -> str:
    return f"wallet:{index}"
