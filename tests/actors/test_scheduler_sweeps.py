"""The Scheduler's sweeps through Ray, with probe sweeps of their own (an actor that records the clock's
now it was given): a sweep runs on every pass with the scheduler's clock, moved or not; what it did and
when it has work next show in the status; a failing sweep is retried and holds no other back; and the
session's scheduler runs the earn sweeps, which `exchange scheduler` lists."""

from __future__ import annotations

import asyncio
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from typing import Any

import pytest
import ray

from actors.names import SCHEDULER_NAME
from actors.scheduler.actor import Scheduler
from actors.scheduler.jobs import SWEEPS, JobContext, Sweep
from serve.stack import Stack
from tests.utils.cli import exchange_ok

HOUR_MS = 3_600_000


class _Probe:
    """Records the moments it was swept at; fails while told to."""

    def __init__(self) -> None:
        self.moments: list[int] = []
        self.failing = False

    def record(self, now_ms: int) -> dict[str, Any]:
        if self.failing:
            raise RuntimeError("the probe sweep fails")
        self.moments.append(now_ms)
        return {"seen": 1, "next_ms": now_ms + HOUR_MS}

    def fail(self, failing: bool) -> None:
        self.failing = failing

    def seen(self) -> list[int]:
        return self.moments


async def _probe_sweep(probe: str, ctx: JobContext, now_ms: int) -> dict[str, Any]:
    return await ctx.actor(probe).record.remote(now_ms)


class _Things:
    """A sweep's things (keys 1, 2 and 3), each a job of its own: records each run's key; a key fails
    or is slow while told to."""

    def __init__(self) -> None:
        self.runs: list[int] = []
        self.failing: set[int] = set()
        self.slow: dict[int, float] = {}

    def due(self, now_ms: int) -> dict[str, Any]:
        return {"due": [1, 2, 3], "next_ms": now_ms}

    async def step(self, key: int, now_ms: int) -> dict[str, Any]:
        if key in self.failing:
            raise RuntimeError(f"thing {key} fails")
        await asyncio.sleep(self.slow.get(key, 0))
        self.runs.append(key)
        return {"done": 1}

    def fail(self, key: int, failing: bool) -> None:
        (self.failing.add if failing else self.failing.discard)(key)

    def slow_down(self, key: int, seconds: float) -> None:
        self.slow[key] = seconds

    def seen(self) -> list[int]:
        return self.runs


async def _things_due(probe: str, ctx: JobContext, now_ms: int) -> dict[str, Any]:
    return await ctx.actor(probe).due.remote(now_ms)


async def _thing(probe: str, ctx: JobContext, key: int, now_ms: int) -> dict[str, Any]:
    return await ctx.actor(probe).step.remote(key, now_ms)


ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers need not import tests/
Probe = ray.remote(num_cpus=0)(_Probe)
Things = ray.remote(num_cpus=0)(_Things)


async def eventually(check: Callable[[], Awaitable[bool]], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not await check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.1)


@pytest.fixture
async def rig(stack: Stack) -> AsyncIterator[tuple[Any, Any, Any]]:
    """A scheduler with no day jobs and two probe sweeps, ``a`` and ``b``, each on its own probe."""
    name = f"scheduler-sweeps-{uuid.uuid4().hex[:8]}"
    probes = [Probe.options(name=f"{name}-{p}").remote() for p in ("a", "b")]
    sweeps = [Sweep(p, partial(_probe_sweep, f"{name}-{p}")) for p in ("a", "b")]
    scheduler = Scheduler.options(name=name).remote(stack.settings.model_dump(mode="json"), [], 0.2, sweeps)
    try:
        yield scheduler, *probes
    finally:
        for actor in (scheduler, *probes):
            ray.kill(actor, no_restart=True)


async def test_a_sweep_runs_on_every_pass_with_the_clock_s_now(rig: tuple[Any, Any, Any]) -> None:
    scheduler, a, _ = rig
    await eventually(lambda: _at_least(a, 3))  # pass after pass
    status = await scheduler.status.remote()
    assert set(status["sweeps"]) == {"a", "b"} and status["jobs"] == {}
    seen = await a.seen.remote()
    assert seen == sorted(seen) and abs(seen[-1] - time.time() * 1000) < 30_000  # real time
    swept = status["sweeps"]["a"]
    assert swept["error"] == "" and swept["next_ms"] == swept["last_ms"] + HOUR_MS
    assert swept["done"]["seen"] >= 3 and swept["last_work"]["result"]["seen"] == 1

    ran = await scheduler.set_clock.remote(5 * 86_400_000)  # five days ahead: the sweeps see that now
    assert {r["sweep"] for r in ran} <= {"a", "b"}
    assert (await a.seen.remote())[-1] - time.time() * 1000 > 5 * 86_400_000 - 30_000
    await scheduler.set_clock.remote(0)
    await eventually(lambda: _latest_near_now(a))


async def test_a_failing_sweep_is_retried_and_holds_no_other_back(rig: tuple[Any, Any, Any]) -> None:
    scheduler, a, b = rig
    await a.fail.remote(True)
    await eventually(lambda: _error_of(scheduler, "a"))
    counted = len(await b.seen.remote())
    await eventually(lambda: _at_least(b, counted + 3))  # b runs on meanwhile
    await a.fail.remote(False)
    counted = len(await a.seen.remote())
    await eventually(lambda: _at_least(a, counted + 1), seconds=90)  # retried after its backoff
    assert (await scheduler.status.remote())["sweeps"]["a"]["error"] == ""


@pytest.fixture
async def things_rig(stack: Stack) -> AsyncIterator[tuple[Any, Any, Any]]:
    """A scheduler with a sweep of things (each one's work a job of its own) and a probe sweep ``b``."""
    name = f"scheduler-things-{uuid.uuid4().hex[:8]}"
    things, b = Things.options(name=f"{name}-things").remote(), Probe.options(name=f"{name}-b").remote()
    sweeps = [Sweep("things", partial(_things_due, f"{name}-things"), partial(_thing, f"{name}-things")),
              Sweep("b", partial(_probe_sweep, f"{name}-b"))]  # fmt: skip
    scheduler = Scheduler.options(name=name).remote(stack.settings.model_dump(mode="json"), [], 0.2, sweeps)
    try:
        yield scheduler, things, b
    finally:
        for actor in (scheduler, things, b):
            ray.kill(actor, no_restart=True)


async def test_each_thing_of_a_sweep_is_a_job_of_its_own(things_rig: tuple[Any, Any, Any]) -> None:
    """Thing 2 fails and thing 3 is slow: thing 1 runs on every pass meanwhile, and so does the other
    sweep; thing 2 is retried with a backoff of its own and runs once it no longer fails."""
    scheduler, things, b = things_rig
    await things.fail.remote(2, True)
    await things.slow_down.remote(3, 300)
    await eventually(lambda: _ran(things, 1, 3))
    counted = len(await b.seen.remote())
    await eventually(lambda: _at_least(b, counted + 3))  # while thing 3 is still at work
    await eventually(lambda: _ran(things, 1, 6))
    status = (await scheduler.status.remote())["sweeps"]["things"]
    assert "thing 2 fails" in status["failing"]["2"] and "3" in status["running"], status
    assert set(await things.seen.remote()) == {1} and status["done"]["done"] >= 6
    assert (await scheduler.status.remote())["sweeps"]["b"]["error"] == ""

    await things.fail.remote(2, False)
    await eventually(lambda: _ran(things, 2, 1), seconds=90)  # retried after its backoff
    assert "2" not in (await scheduler.status.remote())["sweeps"]["things"]["failing"]


async def test_the_session_scheduler_runs_the_earn_sweeps_and_exchange_scheduler_lists_them(stack: Stack) -> None:
    scheduler = ray.get_actor(SCHEDULER_NAME)

    async def swept() -> bool:
        sweeps = (await scheduler.status.remote())["sweeps"]
        return set(sweeps) == {s.name for s in SWEEPS} and all(s["last_ms"] for s in sweeps.values())

    await eventually(swept)
    listing = exchange_ok(stack.settings, "scheduler")
    assert "sweep\tlast pass (UTC)\tnext work (UTC)\tlast did\tsince start\terror" in listing
    for sweep in SWEEPS:
        assert f"\n{sweep.name}\t" in listing


async def _at_least(probe: Any, count: int) -> bool:
    return len(await probe.seen.remote()) >= count


async def _latest_near_now(probe: Any) -> bool:
    return abs((await probe.seen.remote())[-1] - time.time() * 1000) < 30_000


async def _error_of(scheduler: Any, name: str) -> bool:
    return "the probe sweep fails" in (await scheduler.status.remote())["sweeps"][name]["error"]


async def _ran(things: Any, key: int, count: int) -> bool:
    return (await things.seen.remote()).count(key) >= count
