"""What database-backed actors share: settings, a lazily opened ORM connection, the lifecycle
(``actors.lifecycle``: load with retry, serve once ready, background loops stopped on shutdown), group
commit."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
import warnings
from collections.abc import Awaitable, Callable, Hashable, Iterable, Sequence
from typing import Any, Generic, TypeVar

from actors.lifecycle import LOAD_WAIT_S, Lifecycle
from config import logs, numeric
from config.settings import Settings
from store.db import init_db
from store.errors import ErrorCode

T = TypeVar("T")
R = TypeVar("R")
log = logging.getLogger(__name__)
GC_PAUSE_LOG_MS = 20.0  # a collection at least this long is logged (a pause every caller of the actor waits out)


class GcPauses:
    """The cyclic garbage collector's pauses in this process: how many collections, the longest, and a
    warning for each that took ``GC_PAUSE_LOG_MS`` or more (while it runs the process does nothing
    else: every order, settlement or push that reached the actor meanwhile waits). Timed in the
    thread's CPU time: a collection whose thread waited for a core is not the collector's cost.
    ``watch`` installs the one instance of a process as a ``gc.callbacks`` entry."""

    def __init__(self, clock: Callable[[], float] = time.thread_time) -> None:
        self.collections = [0, 0, 0]
        self.longest_ms = 0.0
        self._clock = clock
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = self._clock()
            return
        took_ms = (self._clock() - self._began) * 1000
        generation = info["generation"]
        self.collections[generation] += 1
        self.longest_ms = max(self.longest_ms, took_ms)
        if took_ms >= GC_PAUSE_LOG_MS:
            log.warning("gc: a generation %d collection took %.0f ms of CPU (%d objects freed, %d tracked)",
                        generation, took_ms, info["collected"], len(gc.get_objects(generation)))  # fmt: skip

    @classmethod
    def watch(cls) -> GcPauses:
        """This process's instance, installed on first use."""
        for callback in gc.callbacks:
            if isinstance(callback, cls):
                return callback
        pauses = cls()
        gc.callbacks.append(pauses)
        return pauses


def freeze_startup_objects() -> None:
    """Put every object the process holds so far out of the cyclic garbage collector's reach
    (``gc.freeze``): its modules and what they define, ~170,000 objects in a worker of this exchange,
    which live as long as the process. A full collection walked all of them each time, 87-116 ms in
    which a MicroTimer in the middle of a settlement did nothing else (the whole tail of its lag). An
    actor or a Serve app calls this once it holds what it keeps for life; what it makes later is
    collected as before; a collection that still pauses the process is logged (``GcPauses``), and its log
    lines carry their time and logger (``config.logs``)."""
    logs.configure()
    gc.freeze()
    GcPauses.watch()


def restarted_by_ray() -> bool:
    """Whether Ray restarted the actor this runs in. Ray 2.60's property reads its own deprecated
    ``actor_id`` and printed a RayDeprecationWarning in the operator's terminal at every pair move."""
    import ray

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return bool(ray.get_runtime_context().was_current_actor_reconstructed)


class DbActor:
    """The base of every database-backed actor: its settings, the ORM opened on first use, and its
    ``Lifecycle`` (``self._life``), whose loops are cancelled when Ray shuts the actor down."""

    def __init__(
        self,
        settings: dict[str, Any],
        name: str = "",
        *,
        unavailable: ErrorCode = ErrorCode.SERVICE_UNAVAILABLE,
        wait_s: float | None = LOAD_WAIT_S,
    ) -> None:
        freeze_startup_objects()  # the actor's modules are imported by now
        numeric.install()  # on the actor's event loop thread too, whatever ran on it before
        self._settings = Settings.model_validate(settings)
        self._db_ready = False
        self._db_lock = asyncio.Lock()
        self._life = Lifecycle(name or type(self).__name__, unavailable=unavailable, wait_s=wait_s)

    async def _ready(self) -> None:
        """Open the ORM on first use (an actor's constructor cannot await)."""
        if not self._db_ready:
            async with self._db_lock:
                if not self._db_ready:
                    await init_db(self._settings, self._life.name)
                    freeze_startup_objects()  # and the ORM's models, pool and clients
                    self._db_ready = True

    async def ping(self) -> bool:
        await self._ready()
        return True

    def __ray_shutdown__(self) -> None:
        """Ray's hook when the actor exits gracefully (``exit_actor``, its last handle gone): its
        background loops end with it."""
        self._life.cancel_all()


class GroupCommit(Generic[T, R]):
    """Group commit: ``commit`` runs once over everything submitted while the previous run was busy.

    At low load each item commits alone with no added wait; under load, items queue behind the
    running transaction and share the next one. ``commit`` answers one result per item, in order;
    an exception in a result is raised to that item's caller alone, one raised by ``commit`` itself
    to every caller of the batch. With ``concurrency`` above 1, items that arrive while a commit runs
    start another at once (up to that many at a time, each on its own connection) instead of waiting
    for it; the oldest items still go first.

    ``owners`` (with ``concurrency`` above 1) names whose state an item changes (a wallet op's users):
    a batch then takes only items none of whose owners is in another running batch, and an item
    waits behind every earlier item of its owners, so one owner's items commit one transaction after
    the other, in the order they were submitted, while other owners' items commit beside them. Two
    running transactions then never touch the same owner's rows: neither waits on the other's locks.
    """

    def __init__(
        self,
        commit: Callable[[list[T]], Awaitable[Sequence[R | BaseException]]],
        max_batch: int = 256,
        concurrency: int = 1,
        owners: Callable[[T], Iterable[Hashable]] | None = None,
    ) -> None:
        self._commit = commit
        self._max_batch = max_batch
        self._concurrency = concurrency
        self._owners = owners
        self._busy: set[Hashable] = set()  # the owners of the items of running batches
        self._pending: list[tuple[T, asyncio.Future[R]]] = []
        self._runners: list[asyncio.Task[None]] = []

    async def submit(self, item: T) -> R:
        return await self.submit_many([item])[0]

    def submit_many(self, items: list[T]) -> list[asyncio.Future[R]]:
        """Queue ``items`` (in order, committed with whatever else is queued); one future each, no task
        per item (a MicroTimer hands over hundreds of settlements at once)."""
        loop = asyncio.get_running_loop()
        futures: list[asyncio.Future[R]] = [loop.create_future() for _ in items]
        self._pending.extend(zip(items, futures, strict=True))
        self._start_runners()
        return futures

    def _start_runners(self) -> None:
        self._runners = [runner for runner in self._runners if not runner.done()]
        if self._pending and len(self._runners) < self._concurrency:
            self._runners.append(asyncio.get_running_loop().create_task(self._run()))

    def _take(self) -> tuple[list[tuple[T, asyncio.Future[R]]], set[Hashable]]:
        """The next batch, oldest first, and the owners it holds until it has committed."""
        if self._owners is None:
            batch, self._pending = self._pending[: self._max_batch], self._pending[self._max_batch :]
            return batch, set()
        batch, kept = [], []
        held: set[Hashable] = set()
        waiting: set[Hashable] = set()  # owners of an item left behind: their later items stay behind it
        for entry in self._pending:
            owners = set(self._owners(entry[0]))
            if len(batch) < self._max_batch and not owners & self._busy and not owners & waiting:
                batch.append(entry)
                held |= owners
            else:
                kept.append(entry)
                waiting |= owners
        self._pending = kept
        self._busy |= held
        return batch, held

    async def _run(self) -> None:
        while True:
            batch, held = self._take()
            if not batch:
                return
            try:
                results = await self._commit([item for item, _ in batch])
            except Exception as exc:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            finally:
                self._busy -= held
                if held:  # items that waited for these owners may go now, beside this runner's next batch
                    self._start_runners()
            for (_, future), result in zip(batch, results, strict=True):
                if future.done():
                    continue
                if isinstance(result, BaseException):
                    future.set_exception(result)
                else:
                    future.set_result(result)
