"""The lifecycle every actor kind shares, written once (issue 29): each actor used to copy it.

An actor of this exchange starts its work in its constructor (Ray runs the constructor again when it
restarts the actor, ``max_restarts=-1``), rebuilds from the database what it holds, and serves. The
``Lifecycle`` an actor owns does the three parts that were the same in every kind:

- **Load with retry until ready.** ``load(fn)`` runs ``fn`` until it succeeds (the database may be
  down: each failure is logged and tried again after a backoff, ``RECOVER_DELAYS`` or the actor's
  own), unhealthy meanwhile; then ``healthy`` and ``loaded``. An actor that fails later while serving
  calls ``load`` again: it is unhealthy until it has reloaded.
- **Await ready before serving a call.** ``serving()`` waits for the first load (at most ``wait_s``,
  else the actor's unavailable code, a 503) and refuses while the actor reloads; ``wait_loaded()``
  only waits (forever when ``wait_s`` is None: the Scheduler's and the market maker's calls).
- **Named background loops.** ``loop(name, fn)`` runs ``fn`` for the actor's life: a crash is logged
  and the loop started again after ``restart_s`` (a loop that returns is done); ``every(name, step,
  seconds)`` is the periodic kind, a failed step logged and the next one run on time; ``spawn`` keeps
  one-off tasks referenced until they end; ``stop`` cancels loops and waits for them (the market
  maker's ``stop``), ``cancel_all`` cancels everything from any thread (the actor's shutdown hook,
  ``DbActor.__ray_shutdown__``, which Ray calls when the actor exits gracefully).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, TypeVar

from store.errors import DomainError, ErrorCode

log = logging.getLogger(__name__)
RECOVER_DELAYS = (0.1, 0.2, 0.5, 1.0, 2.0)  # between attempts to load while the database is down
LOAD_WAIT_S = 10.0  # a call waits this long for the first load before it is refused
RESTART_S = 1.0  # a crashed loop starts again after this long

T = TypeVar("T")


class Lifecycle:
    def __init__(
        self,
        name: str,
        *,
        unavailable: ErrorCode = ErrorCode.SERVICE_UNAVAILABLE,
        wait_s: float | None = LOAD_WAIT_S,
        restart_s: float = RESTART_S,
    ) -> None:
        self.name = name  # how the log names the actor ("lever shard 1")
        self.loaded = asyncio.Event()  # set by the first load
        self.healthy = False  # loaded and serving; False while it (re)loads
        self.error = ""  # why the last attempt to load failed ("" once loaded)
        self._unavailable = unavailable
        self._wait_s = wait_s
        self._restart_s = restart_s
        self._loops: dict[str, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._event_loop: asyncio.AbstractEventLoop | None = None  # the actor's, where its tasks run

    # -- load, and serve once loaded ---------------------------------------------------------------

    async def load(
        self,
        fn: Callable[[], Awaitable[None]],
        *,
        delays: Sequence[float] = RECOVER_DELAYS,
        before_each: Callable[[], None] | None = None,
    ) -> None:
        """Run ``fn`` until it succeeds, ``delays`` apart (the last one repeated), unhealthy meanwhile;
        ``before_each`` runs before every attempt (a pair refuses what queued up)."""
        self.healthy = False
        attempt = 0
        while True:
            if before_each is not None:
                before_each()
            try:
                await fn()
                break
            except Exception as exc:
                self.error = f"cannot start: {exc}"
                delay = delays[min(attempt, len(delays) - 1)]
                log.exception("%s: could not load (attempt %d); trying again in %.1f s", self.name, attempt + 1, delay)
                await asyncio.sleep(delay)
                attempt += 1
        self.error = ""
        self.healthy = True
        self.loaded.set()

    async def wait_loaded(self) -> None:
        """Wait for the first load: at most ``wait_s``, then the unavailable code."""
        if self.loaded.is_set():
            return
        if self._wait_s is None:
            await self.loaded.wait()
            return
        try:
            await asyncio.wait_for(self.loaded.wait(), self._wait_s)
        except TimeoutError:
            raise DomainError(self._unavailable) from None

    async def serving(self) -> None:
        """Loaded and not reloading, else the unavailable code (the caller may try again)."""
        await self.wait_loaded()
        if not self.healthy:
            raise DomainError(self._unavailable)

    # -- background work ---------------------------------------------------------------------------

    def loop(self, name: str, fn: Callable[[], Awaitable[None]]) -> asyncio.Task[None]:
        """Run ``fn`` in a task for the actor's life; a crash is logged and ``fn`` runs again."""
        self._event_loop = asyncio.get_running_loop()
        task = self._event_loop.create_task(self._supervise(name, fn), name=f"{self.name}: {name}")
        self._loops[name] = task
        return task

    async def _supervise(self, name: str, fn: Callable[[], Awaitable[None]]) -> None:
        while True:
            try:
                await fn()
                return
            except Exception:
                log.exception("%s: loop %s crashed; starting it again in %.1f s", self.name, name, self._restart_s)
                await asyncio.sleep(self._restart_s)

    def every(
        self,
        name: str,
        step: Callable[[], Awaitable[Any]],
        seconds: float | Callable[[], float],
        *,
        wait_first: bool = True,
        healthy_only: bool = False,
        level: int = logging.ERROR,
    ) -> asyncio.Task[None]:
        """A loop that runs ``step`` every ``seconds`` (a number, or read before each wait): after the
        wait (``wait_first``) or before it. ``healthy_only``: from the first load on, and skipped while
        the actor reloads. A failed step is logged at ``level`` and the next one runs on time."""
        interval = seconds if callable(seconds) else (lambda: seconds)

        async def run() -> None:
            if healthy_only:
                await self.loaded.wait()
            while True:
                if wait_first:
                    await asyncio.sleep(interval())
                if self.healthy or not healthy_only:
                    try:
                        await step()
                    except Exception:
                        log.log(level, "%s: %s failed", self.name, name, exc_info=True)
                if not wait_first:
                    await asyncio.sleep(interval())

        return self.loop(name, run)

    def spawn(self, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """A one-off task, kept referenced until it ends (an unreferenced task may be collected)."""
        self._event_loop = asyncio.get_running_loop()
        task = self._event_loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def loops(self) -> dict[str, bool]:
        """Each named loop and whether it still runs."""
        return {name: not task.done() for name, task in self._loops.items()}

    async def stop(self, *names: str) -> None:
        """Cancel the loops ``names`` (all of them and every one-off task when none is named) and wait
        until they have ended."""
        if names:
            chosen = [self._loops.pop(n) for n in names if n in self._loops]
        else:
            chosen = [*self._loops.values(), *self._tasks]
            self._loops.clear()
        for task in chosen:
            task.cancel()
        await asyncio.gather(*chosen, return_exceptions=True)

    def cancel_all(self) -> None:
        """Cancel every loop and one-off task, from any thread (on the actor's event loop, if it still
        runs); nothing waits for them."""
        event_loop = self._event_loop
        if event_loop is None or event_loop.is_closed():
            return

        def cancel() -> None:
            for task in [*self._loops.values(), *self._tasks]:
                task.cancel()

        try:
            event_loop.call_soon_threadsafe(cancel)
        except RuntimeError:  # the loop closed meanwhile: its tasks went with it
            pass
