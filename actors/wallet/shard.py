"""The WalletShard actor: the wallets of every user with ``uid % n == index``.

Each user is a virtual actor inside the shard: their operations run one at a time (a per-user lock,
their mailbox) while different users proceed concurrently. Balances live in the database, which each
operation reads and writes in one transaction with its journal rows (``store.ledger.apply``), so a
restarted shard has nothing to reload and every operation is idempotent by its reference. The order
path's freezes, releases and trade settlements share group transactions instead
(``ledger.apply_debits``), up to ``wallet_hold_groups`` at a time over disjoint users, each user's in
the order they came (``GroupCommit`` with owners).
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import ray
from tortoise.exceptions import IntegrityError

from actors.names import ORPHAN_GRACE_MS
from actors.runtime import DbActor, GroupCommit
from actors.wallet import legs, recovery
from store import holds, ledger, withdrawals
from store.errors import DomainError, ErrorCode
from store.models import Account, AccountType
from store.times import now_ms

log = logging.getLogger(__name__)


# Database bound, not CPU bound: reserves no CPU so shards and pairs fit a small machine; placement
# across nodes is by custom resources (ray-cluster.yaml).
@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=-1)
class WalletShard(DbActor):
    def __init__(self, index: int, settings: dict[str, Any]) -> None:
        super().__init__(settings, f"wallet shard {index}")
        self._index = index
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        # Freezes, releases and settlements are on every order's path: they share transactions (apply_debits),
        # up to ``wallet_hold_groups`` at a time over disjoint users, each user's in the order they came.
        self._holds: GroupCommit[ledger.Op, bool] = GroupCommit(
            _commit_group,
            concurrency=self._settings.wallet_hold_groups,
            owners=lambda op: {c.uid for c in op.changes},
        )
        self._sweeping = asyncio.Lock()
        self._reconciled_ms = 0  # when the last reconcile ended (0: not yet)
        # Background work starts in the actor's own start path: Ray runs __init__ again when it
        # restarts the actor (an async actor's __init__ runs on its event loop), never a caller's start().
        self._life.every("reconcile", self.reconcile, self._settings.reconcile_seconds, wait_first=False)

    async def freeze(self, uid: int, currency_id: int, amount: Decimal, ref: str) -> bool:
        """Move ``amount`` from balance to lock; an order's freeze (``o<id>:freeze``) writes its
        ``OrderHold`` in the same transaction. Raises INSUFFICIENT_BALANCE, or REF_CONFLICT when
        ``ref`` was used for another amount or account; idempotent by ref (False when replayed)."""
        await self._ready()
        return await self._holds.submit(_freeze(uid, currency_id, amount, ref))

    async def freeze_many(self, freezes: list[tuple[int, int, Decimal, str]]) -> list[bool | DomainError]:
        """Many ``freeze(uid, currency_id, amount, ref)`` in one call, sharing the group commit: each is
        all-or-nothing on its own and answers, in order, what ``freeze`` returns or the DomainError it
        raises (a freeze the database could not take answers WALLET_UNAVAILABLE and did not land)."""
        await self._ready()
        done = await asyncio.gather(*self._holds.submit_many([_freeze(*f) for f in freezes]), return_exceptions=True)
        return [r if isinstance(r, bool | DomainError) else _unavailable(r) for r in done]

    async def release(self, uid: int, currency_id: int, amount: Decimal, ref: str) -> bool:
        """Move ``amount`` from lock back to balance; idempotent by ref (False when replayed). An order's
        release (``o<id>:release``) deletes its ``OrderHold`` and ``PendingRelease`` in the same
        transaction, and deletes them anyway when the release was applied before or has nothing to
        release. Shares the group commit of the freezes: durable when it returns. Raises
        INSUFFICIENT_BALANCE (a lock smaller than ``amount``) or REF_CONFLICT, and then ends nothing."""
        return (await self.release_many([(uid, currency_id, amount, ref)]))[0]

    async def release_many(self, releases: list[tuple[int, int, Decimal, str]]) -> list[bool]:
        """Many ``release(uid, currency_id, amount, ref)`` in one call, sharing the group commit; each
        all-or-nothing and idempotent by its ref, answered in order. When any was refused or could not
        commit, the others still land and the first such error is raised once all are done."""
        await self._ready()
        nothing = [legs.order_of(ref) for _, _, amount, ref in releases if amount <= 0]
        if order_ids := [order_id for order_id in nothing if order_id is not None]:
            await holds.end(order_ids)
        futures = self._holds.submit_many([_release(*r) for r in releases if r[2] > 0])
        done = iter(await asyncio.gather(*futures, return_exceptions=True))
        answers = [False if r[2] <= 0 else next(done) for r in releases]
        for answer in answers:
            if isinstance(answer, BaseException):
                raise answer
        return [bool(answer) for answer in answers]

    async def settle(self, leg: legs.TradeLeg, side: int) -> bool:
        """Apply one side of a trade and delete its ``PendingSettlement``, in the group commit of the
        freezes and releases; False if that side was settled before."""
        await self._ready()
        try:
            return await self._holds.submit(legs.settle_op(leg, side))
        except DomainError:
            raise
        except Exception:  # the group could not commit (a fee row another way settled): this side alone
            log.warning("trade %d side %d: settling alone after its group failed", leg.trade_id, side, exc_info=True)
            changes, fee = legs.settle(leg, side)
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
        ``store.withdrawals.request``). Raises INSUFFICIENT_BALANCE, or DEPOSIT_UNCONFIRMED while a
        chain deposit of the user has fewer than the withdraw confirmations; idempotent by ref."""
        await self._ready()
        async with self._locks[uid]:
            return await withdrawals.request(uid=uid, confirmations=self._settings.withdraw_confirmations, **request)

    async def reconcile(self, grace_ms: int = ORPHAN_GRACE_MS) -> int:
        """Release every freeze whose order never reached its pair (this shard's users' holds older
        than ``grace_ms``), oldest first; returns how many.

        ``grace_ms`` must exceed the pairs' submit deadline unless the caller knows no submit is in
        flight (the chaos tests, after their order stream has ended).
        """
        await self._ready()
        async with self._sweeping:
            older_than = datetime.now(UTC) - timedelta(milliseconds=grace_ms)
            released = await recovery.release_orphans(
                older_than=older_than, shard=self._index, shards=self._settings.wallet_shards
            )
            self._reconciled_ms = now_ms()
        return released

    async def start(self) -> bool:
        """Open the database (the reconciler started with the actor). Idempotent."""
        await self._ready()
        return True

    async def status(self) -> dict[str, Any]:
        """This shard's index and its background loops: when the reconciler last finished (ms)."""
        return {"index": self._index, "reconciled_ms": self._reconciled_ms}

    async def accounts(self, uid: int) -> list[dict[str, Any]]:
        await self._ready()
        rows = await Account.filter(user_id=uid).values("currency_id", "account_type", "balance", "lock_balance")
        return rows

    async def _apply(self, uid: int, changes: list[ledger.Change]) -> bool:
        await self._ready()
        async with self._locks[uid]:
            return await ledger.apply(changes)


def _freeze(uid: int, currency_id: int, amount: Decimal, ref: str) -> ledger.Op:
    order_id = legs.order_of(ref)
    rows = () if order_id is None else (holds.hold(order_id, uid, currency_id, amount),)
    return ledger.Op(legs.freeze(uid, currency_id, amount, ref), rows)


def _release(uid: int, currency_id: int, amount: Decimal, ref: str) -> ledger.Op:
    """An order's release ends its ``OrderHold`` and ``PendingRelease`` with it (also when it was
    applied before)."""
    order_id = legs.order_of(ref)
    ended = () if order_id is None else holds.ends(order_id)
    return ledger.Op(legs.release(uid, currency_id, amount, ref), deletes=ended)


async def _commit_group(ops: list[ledger.Op]) -> list[bool | DomainError | BaseException]:
    """One group of freezes, releases and settlements (``ledger.apply_debits``). A group the database
    refuses on a unique key (a settlement whose fee row is there while its journal rows are not) is
    committed again one operation at a time, so only that one fails (its caller settles it alone)."""
    try:
        return list(await ledger.apply_debits(ops))
    except IntegrityError:
        if len(ops) == 1:
            raise
        log.warning("a group of %d refused on a unique key: committing each alone", len(ops), exc_info=True)
    results: list[bool | DomainError | BaseException] = []
    for op in ops:
        try:
            results.extend(await ledger.apply_debits([op]))
        except Exception as exc:
            results.append(exc)
    return results


def _unavailable(error: BaseException) -> DomainError:
    log.warning("freeze not committed: %r", error)
    return DomainError(ErrorCode.WALLET_UNAVAILABLE)
