"""A MicroTimer's settling commits: the outcomes its timer loop decides go to one group commit while
the loop goes on to the next due contracts (fence, rule), so a contract never waits for the
commit of one that ended before it unless the database is the bottleneck.

Each commit takes what was decided while the previous one ran (at most ``SETTLE_SLICE``, oldest
first): per contract its ledger change (idempotent by ref ``m<id>:settle``), its house rows and its
order row's outcome in one transaction (``store.ledger.apply_debits``, each table written with one
statement), then one Redis round trip pushes every MICRO_CLOSED of the commit while the next commit
runs. A commit that raises fails its callers (the loop reloads
the shard); a settlement the ledger refuses (impossible while the stake is held) leaves the
contract open and is logged.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine, Iterable
from datetime import UTC, datetime
from typing import Any

from redis.asyncio import Redis

from actors.runtime import GroupCommit
from store import channels, ledger, micro
from store.bulk import insert_values, update_rows
from store.errors import DomainError
from store.micro import settle as rule
from store.models import HouseLedger, MicroOrder

log = logging.getLogger(__name__)
SETTLE_SLICE = 1000  # contracts per commit: a backlog settles (and pushes) its oldest without waiting for all
Decided = tuple[MicroOrder, rule.Outcome]


def quantiles(values: Iterable[float]) -> dict[str, float | None]:
    """p50, p99 and max of ``values`` (None when there are none)."""
    ordered = sorted(values)
    if not ordered:
        return {"p50": None, "p99": None, "max": None}
    return {"p50": ordered[len(ordered) // 2], "p99": ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
            "max": ordered[-1]}  # fmt: skip


class Settlements:
    def __init__(self, index: int, redis: Redis, public: Callable[[MicroOrder], dict[str, Any]],
                 settled: Callable[[MicroOrder], None], failing: Callable[[], None]) -> None:  # fmt: skip
        self._index = index
        self._redis = redis
        self._public = public  # the contract as answers and pushes show it
        self._settled = settled  # told of each contract once its settlement is durable
        self._failing = failing  # told when a commit raised (``failed`` is set)
        self._commits: GroupCommit[Decided, bool] = GroupCommit(self._commit, max_batch=SETTLE_SLICE, concurrency=2)
        self._passes: set[asyncio.Task[None]] = set()
        self.failed: BaseException | None = None  # the first commit that raised since ``drain``
        self.commits: deque[tuple[int, float, float]] = deque(maxlen=10_000)  # (contracts, commit ms, push ms)

    def figures(self) -> dict[str, Any]:
        """The recent commits: how many, and p50 / p99 / max of their contracts, transaction and pushes (ms)."""
        commits = list(self.commits)
        return {"commits": len(commits), "commit_size": quantiles(c[0] for c in commits),
                "commit_ms": quantiles(c[1] for c in commits), "push_ms": quantiles(c[2] for c in commits)}  # fmt: skip

    def start(self, ready: list[Decided]) -> None:
        """Settle ``ready`` (in end order) in the background; a commit that raises sets ``failed``."""
        self._track(self._settle(ready))

    def _track(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._passes.add(task)
        task.add_done_callback(self._passes.discard)

    async def drain(self) -> None:
        """Wait for every settlement started (and its pushes); then forget any failure (the caller reloads)."""
        while self._passes:
            await asyncio.gather(*self._passes, return_exceptions=True)
        self.failed = None

    async def _settle(self, ready: list[Decided]) -> None:
        results = await asyncio.gather(*self._commits.submit_many(ready), return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException) and self.failed is None:
                self.failed = result
                self._failing()

    async def _commit(self, ready: list[Decided]) -> list[bool | BaseException]:
        began = time.perf_counter()
        settled_at = datetime.now(UTC)
        for row, outcome in ready:
            micro.record(row, outcome, settled_at)
        ops = [ledger.Op(micro.settle_change(row, outcome)) for row, outcome in ready]
        rows = [row for row, _ in ready]

        async def then(conn: Any, results: list[bool | DomainError]) -> None:
            """The applied contracts' outcomes and their house rows."""
            applied = [decided for decided, result in zip(ready, results, strict=True) if result is True]
            await update_rows(conn, [row for row, _ in applied], micro.SETTLED_FIELDS)
            house = [values for row, outcome in applied for values in micro.house_values(row, outcome, settled_at)]
            await insert_values(conn, HouseLedger, micro.HOUSE_FIELDS, house)

        results = await ledger.apply_debits(ops, then)
        committed = time.perf_counter()
        answers: list[bool | BaseException] = []
        pushed = []
        for row, result in zip(rows, results, strict=True):
            if isinstance(result, DomainError):  # cannot happen while the stake is held; keep it open
                log.error("micro timer %d: settlement of %d refused: %r", self._index, row.id, result)
                answers.append(False)
                continue
            self._settled(row)
            pushed.append(row)
            answers.append(True)
        self._track(self._push(pushed, len(ready), (committed - began) * 1000))  # the next commit need not wait
        return answers

    async def _push(self, rows: list[MicroOrder], size: int, commit_ms: float) -> None:
        """MICRO_CLOSED to each owner, one Redis command for all (best effort: the lists are the truth),
        then the commit's figures."""
        began = time.perf_counter()
        try:
            if rows:
                await self._publish(rows)
        except Exception:
            log.warning("micro timer %d: push failed", self._index, exc_info=True)
        self.commits.append((size, commit_ms, (time.perf_counter() - began) * 1000))

    async def _publish(self, rows: list[MicroOrder]) -> None:
        await channels.publish_all(self._redis, ((channels.user_topic(row.user_id, "MICRO_CLOSED"),
                                                  channels.encode("micro_closed", {"order": self._public(row)}))
                                                 for row in rows))  # fmt: skip
