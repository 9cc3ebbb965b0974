"""The Scheduler actor (docs/architecture.md "Scheduler"): one per cluster, named ``scheduler``, for calendar work.

Every ``poll_s`` it works out which (job, day) runs are owed (``calendar.owed``: every day after the
last one done, up to today's if its time has come) and runs them in order, each written before it
runs and marked done after (``store.scheduler``). So a done run never repeats, a run cut short by a
crash or an error runs again (jobs are idempotent by their own key), a day missed while the system
was down runs once when it is back, and a job's later days wait until its earlier one succeeded
(retried with a backoff of up to a minute).

Its sweeps (``jobs.SWEEPS``) run on every pass after the day jobs, given the clock's now: each does
what has come due by then (a sale's close, a listing lock's release) and is idempotent per (thing,
step), so a pass cut short is simply done again by the next. A failing sweep is retried with the same
backoff and does not hold back the others.

A sweep with ``each`` hands its things out: each due thing (a sale) is a job of its own, a task keyed
by (sweep, thing) that runs beside the passes (at most ``EACH_AT_ONCE`` at a time, each within
``RUN_TIMEOUT_S``), never two at once for one thing. A pass does not wait for them, so a slow thing
holds back neither the other things nor the other sweeps (interest, maturities, P2P windows); a
failing one keeps its error (``status``) and is retried after a backoff of its own while the others
go on. What a thing's job did counts towards its sweep. Their durable state is the rows they change:
a job lost with the actor is handed out again by the next pass.

Its clock is real time plus an offset that an operator or a test may set outside production
(``set_clock``), kept in Redis across restarts of the actor.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import ray

from actors.names import SCHEDULER_NAME
from actors.runtime import DbActor
from actors.scheduler import calendar
from actors.scheduler.jobs import JOBS, SWEEPS, Job, JobContext, Sweep
from store import scheduler
from store.cache import connect_redis
from store.times import now_ms

log = logging.getLogger(__name__)
RUN_TIMEOUT_S = 600.0  # a run that takes longer is given up and tried again (the job is idempotent)
MAX_BACKOFF_S = 60.0
EACH_AT_ONCE = 4  # things' jobs running at once (each holds a database connection while it works)
WAIT_ROUNDS = 5  # passes run_due and set_clock make while the things' jobs they waited for did something


@dataclass
class ThingJob:
    """One thing's job of a sweep (a sale's close): its task while handed out, its last failure."""

    task: asyncio.Task[dict[str, Any] | None] | None = None
    error: str = ""
    failures: int = 0
    retry_at: float = 0.0  # monotonic time before which it is not handed out again

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()


@dataclass
class SweepState:
    """What a sweep did (in memory: its durable state is in the rows it changes)."""

    last_ms: int | None = None  # the clock's now of its last pass that ran to the end
    next_ms: int | None = None  # when it has work next, as its last pass said
    last_work: dict[str, Any] | None = None  # {"at_ms", "result"} of its last pass that did something
    error: str = ""
    failures: int = 0
    retry_at: float = 0.0  # monotonic time before which it is not retried
    done: dict[str, int] = field(default_factory=dict)  # what it did since the actor started, summed
    things: dict[int, ThingJob] = field(default_factory=dict)  # its things' jobs running or failing


# Waits on the clock and on other actors; reserves no CPU.
@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=-1)
class Scheduler(DbActor):
    def __init__(
        self,
        settings: dict[str, Any],
        jobs: Sequence[Job] | None = None,
        poll_s: float = 1.0,
        sweeps: Sequence[Sweep] | None = None,
    ) -> None:
        """``jobs`` and ``sweeps`` default to ``JOBS`` and ``SWEEPS``; a scheduler given its own jobs
        runs only the sweeps it is given as well (none by default)."""
        super().__init__(settings, "scheduler", wait_s=None)  # its calls wait for its state, however long
        self._jobs = tuple(JOBS if jobs is None else jobs)
        self._sweeps = tuple(SWEEPS if sweeps is None and jobs is None else sweeps or ())
        self._sweep_state = {sweep.name: SweepState() for sweep in self._sweeps}
        self._ctx = JobContext(self._settings)
        self._name = ray.get_runtime_context().get_actor_name() or SCHEDULER_NAME
        self._poll_s = poll_s
        self._offset_ms = 0
        self._last: dict[str, int | None] = {}  # job -> the last day it ran to the end
        self._errors: dict[str, str] = {}
        self._failures: dict[str, int] = {}
        self._retry_at: dict[str, float] = {}  # job -> monotonic time before which it is not retried
        self._passed_ms = 0
        self._lock = asyncio.Lock()
        self._at_once = asyncio.Semaphore(EACH_AT_ONCE)
        # The loops start here: Ray runs __init__ again when it restarts the actor.
        self._life.loop("load", lambda: self._life.load(self._load, delays=(self._poll_s,)))
        self._life.every("passes", self._pass, self._poll_s, wait_first=False, healthy_only=True)

    async def status(self) -> dict[str, Any]:
        """The clock (now, offset), when the loop last made a pass (real ms); per job: its time, the last
        day done, the next run and the last error (empty when it succeeded); per sweep: the clock's now
        of its last pass, when it has work next, its last pass that did something, what it did since
        the actor started, its last error, and of its things' jobs (their keys as text) those running
        and the last error of those failing."""
        await self._life.wait_loaded()
        now = self._now_ms()
        jobs = {
            job.name: {
                "at_s": job.at_s,
                "last_day": self._last.get(job.name),
                "next_ms": calendar.next_run_ms(now, job.at_s, self._last.get(job.name)),
                "error": self._errors.get(job.name, ""),
            }
            for job in self._jobs
        }
        sweeps = {
            name: {"last_ms": st.last_ms, "next_ms": st.next_ms, "last_work": st.last_work, "done": st.done,
                   "error": st.error, "running": [str(k) for k, j in st.things.items() if j.running],
                   "failing": {str(k): j.error for k, j in st.things.items() if j.error}}
            for name, st in self._sweep_state.items()
        }  # fmt: skip
        return {"now_ms": now, "offset_ms": self._offset_ms, "passed_ms": self._passed_ms, "jobs": jobs,
                "sweeps": sweeps}  # fmt: skip

    async def run_due(self) -> list[dict[str, Any]]:
        """Run what is owed now (without waiting for the loop) and wait for the things' jobs it handed
        out (and those running already; ``_pass_and_wait``); the runs made: job, day, result, and the
        sweeps' passes and things' jobs that did something: sweep, now_ms, result (and key)."""
        await self._life.wait_loaded()
        return await self._pass_and_wait()

    async def set_clock(self, offset_ms: int) -> list[dict[str, Any]]:
        """Run the clock ``offset_ms`` ahead of real time (0: real time), then run what is owed, as
        ``run_due``. Refused in production (PermissionError). Moving it back runs nothing twice: a day
        done stays done."""
        if self._settings.env == "production":
            raise PermissionError("the scheduler's clock cannot be moved in production")
        await self._life.wait_loaded()
        await scheduler.set_clock_offset(self._redis, self._name, int(offset_ms))
        self._offset_ms = int(offset_ms)
        self._retry_at.clear()
        for state in self._sweep_state.values():
            state.retry_at = 0.0
            for job in state.things.values():
                job.retry_at = 0.0
        return await self._pass_and_wait()

    async def _load(self) -> None:
        """The clock's offset and each job's last day done (tried again every ``poll_s`` while the
        database or Redis is not up yet); the passes start once it has loaded."""
        await self._ready()
        self._redis = connect_redis(self._settings)
        self._ctx = JobContext(self._settings, self._redis)
        self._offset_ms = await scheduler.clock_offset(self._redis, self._name)
        for job in self._jobs:
            self._last[job.name] = await scheduler.last_done(job.name)

    def _now_ms(self) -> int:
        return now_ms() + self._offset_ms

    async def _pass_and_wait(self) -> list[dict[str, Any]]:
        """A pass, then the things' jobs running (those it handed out and those before), again while
        they did something (a later sweep may take it up: a listing decided, then credited), at most
        WAIT_ROUNDS times."""
        ran: list[dict[str, Any]] = []
        for _ in range(WAIT_ROUNDS):
            ran += await self._pass()
            running = [j.task for st in self._sweep_state.values() for j in st.things.values() if j.running]
            did = [done for done in await asyncio.gather(*running) if done]  # type: ignore[arg-type]
            ran += did
            if not did:
                break
        return ran

    async def _pass(self) -> list[dict[str, Any]]:
        async with self._lock:
            ran = []
            for job in self._jobs:
                if time.monotonic() < self._retry_at.get(job.name, 0.0):
                    continue
                for day in calendar.owed(self._last.get(job.name), calendar.due_day(self._now_ms(), job.at_s)):
                    try:
                        result = await self._run(job, day)
                    except Exception as exc:
                        await self._failed(job, day, exc)
                        break  # its later days wait: in order
                    ran.append({"job": job.name, "day": day, "result": result})
            for sweep in self._sweeps:
                swept = await self._sweep(sweep)
                if swept is not None:
                    ran.append(swept)
            self._passed_ms = now_ms()
            return ran

    async def _run(self, job: Job, day: int) -> dict[str, Any] | None:
        """One run, durable before and after; None when an earlier run already did it."""
        result = None
        if await scheduler.begin(job.name, day):
            result = await asyncio.wait_for(job.run(self._ctx, day), RUN_TIMEOUT_S)
            await scheduler.finish(job.name, day, result)
            log.info("scheduler: %s of day %d done: %s", job.name, day, result)
        self._last[job.name] = day
        self._errors.pop(job.name, None)
        self._failures.pop(job.name, None)
        return result

    async def _sweep(self, sweep: Sweep) -> dict[str, Any] | None:
        """One pass of a sweep at the clock's now; its answer if it did something, else None."""
        state = self._sweep_state[sweep.name]
        if time.monotonic() < state.retry_at:
            return None
        now = self._now_ms()
        try:
            result = await asyncio.wait_for(sweep.run(self._ctx, now), RUN_TIMEOUT_S)
        except Exception as exc:
            log.error("scheduler: sweep %s at %d failed: %r", sweep.name, now, exc, exc_info=exc)
            state.error = f"at {now}: {exc!r}"
            state.failures += 1
            state.retry_at = time.monotonic() + min(MAX_BACKOFF_S, self._poll_s * 2**state.failures)
            return None
        state.last_ms, state.next_ms, state.error, state.failures = now, result.get("next_ms"), "", 0
        if sweep.each is not None:
            self._hand_out(sweep, state, list(result.get("due", ())), now)
            return None  # its things' jobs say what they did
        return self._did(sweep.name, state, now, result)

    def _did(self, name: str, state: SweepState, now: int, result: dict[str, Any],
             **key: int) -> dict[str, Any] | None:  # fmt: skip
        """Count what a pass of a sweep (or a thing's job, ``key``) did; its answer if it did something."""
        counts = {k: v for k, v in result.items() if k != "next_ms" and isinstance(v, int) and v}
        if not counts:
            return None
        for what, count in counts.items():
            state.done[what] = state.done.get(what, 0) + count
        state.last_work = {"at_ms": now, "result": result, **key}
        log.info("scheduler: sweep %s at %d: %s %s", name, now, key or "", result)
        return {"sweep": name, "now_ms": now, "result": result, **key}

    def _hand_out(self, sweep: Sweep, state: SweepState, due: list[int], now: int) -> None:
        """Start a job for each thing ``due`` that has none running and is not waiting for a retry;
        forget the failures of things no longer due (done by another scheduler, or by hand)."""
        listed = set(due)
        for key in [k for k, job in state.things.items() if k not in listed and not job.running]:
            del state.things[key]
        for key in due:
            job = state.things.setdefault(key, ThingJob())
            if not job.running and time.monotonic() >= job.retry_at:
                job.task = self._life.spawn(self._thing(sweep, state, key, job, now))

    async def _thing(self, sweep: Sweep, state: SweepState, key: int, job: ThingJob,
                     now: int) -> dict[str, Any] | None:  # fmt: skip
        """One thing's job; its answer if it did something. A failure (or a timeout) is kept on the job
        and retried after its own backoff; a success forgets the job."""
        assert sweep.each is not None
        async with self._at_once:
            try:
                result = await asyncio.wait_for(sweep.each(self._ctx, key, now), RUN_TIMEOUT_S)
            except Exception as exc:
                log.error("scheduler: %s of %s at %d failed: %r", sweep.name, key, now, exc, exc_info=exc)
                job.error, job.failures = f"at {now}: {exc!r}", job.failures + 1
                job.retry_at = time.monotonic() + min(MAX_BACKOFF_S, self._poll_s * 2**job.failures)
                return None
        if state.things.get(key) is job:
            del state.things[key]
        return self._did(sweep.name, state, now, result, key=key)

    async def _failed(self, job: Job, day: int, exc: Exception) -> None:
        log.error("scheduler: %s of day %d failed: %r", job.name, day, exc, exc_info=exc)
        self._errors[job.name] = f"day {day}: {exc!r}"
        failures = self._failures[job.name] = self._failures.get(job.name, 0) + 1
        self._retry_at[job.name] = time.monotonic() + min(MAX_BACKOFF_S, self._poll_s * 2**failures)
        try:
            await scheduler.fail(job.name, day, repr(exc))
        except Exception:  # the database is what failed: the error is in the log and in status()
            log.warning("scheduler: could not record the failure of %s of day %d", job.name, day)
