"""The Scheduler through Ray, with a job of its own (a probe actor that records the days it is run
for): a day's run happens once when the day comes, a restart mid-day does not repeat it, days missed
while it was down run once each and in order, a failing run is tried again and holds back the days
after it, and its clock moves only outside production. The session's own scheduler runs the lever
overnight job on every lever shard, and the job charges an open position once when a midnight
passes."""

from __future__ import annotations

import asyncio
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from typing import Any

import httpx
import pytest
import ray
from ray.exceptions import RayActorError

from actors.names import SCHEDULER_NAME
from actors.scheduler.actor import Scheduler
from actors.scheduler.calendar import DAY_MS
from actors.scheduler.jobs import Job, JobContext, lever_overnight
from config.settings import Settings
from serve.stack import Stack
from store import scheduler as runs
from store.cache import connect_redis
from store.models import SchedulerRun
from tests.utils.cli import exchange, exchange_ok
from tests.utils.keys import MAINNET_XPUBS, PRODUCTION_SENDERS
from tests.utils.prices import mark_to
from tests.utils.users import Member, member, ok
from tests.utils.wallets import USDT, balance, fund

BTC_USDT, LEVER = 1, 3


class _Probe:
    """Records the days its job was run for; fails on the days it is told to."""

    def __init__(self) -> None:
        self.days: list[int] = []
        self.failing: set[int] = set()

    def record(self, day: int) -> dict[str, int]:
        if day in self.failing:
            raise RuntimeError(f"the probe fails on day {day}")
        self.days.append(day)
        return {"day": day}

    def fail_on(self, days: list[int]) -> None:
        self.failing = set(days)

    def calls(self) -> list[int]:
        return self.days


async def _probe_job(probe: str, ctx: JobContext, day: int) -> dict[str, Any]:
    return await ctx.actor(probe).record.remote(day)


ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers need not import tests/
Probe = ray.remote(num_cpus=0)(_Probe)


@dataclass
class Rig:
    """A scheduler named ``name`` with one job, ``job``, that runs the probe at 00:00 UTC."""

    settings: Settings
    name: str
    job: str
    probe: Any
    scheduler: Any = None

    def start(self) -> Any:
        job = Job(self.job, at_s=0, run=partial(_probe_job, f"{self.name}-probe"))
        deadline = time.monotonic() + 30
        while True:
            try:
                self.scheduler = Scheduler.options(name=self.name).remote(
                    self.settings.model_dump(mode="json"), [job], 0.2
                )
                return self.scheduler
            except ValueError:  # a killed one of the same name is not gone yet
                assert time.monotonic() < deadline, f"the name {self.name} stayed taken"
                time.sleep(0.2)

    async def calls(self) -> list[int]:
        return await self.probe.calls.remote()


def today() -> int:
    return int(time.time() * 1000) // DAY_MS


def offset_to(day: int, second: float) -> int:
    """The clock offset that makes the scheduler's now ``second`` seconds into ``day`` (UTC)."""
    return day * DAY_MS + int(second * 1000) - int(time.time() * 1000)


async def eventually(check: Callable[[], Awaitable[bool]], seconds: float = 60) -> None:
    """Until ``check`` holds; a new actor's process may take a while to start on a busy machine."""
    deadline = time.monotonic() + seconds
    while not await check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.1)


async def passed_since(scheduler: Any, ms: int) -> bool:
    try:
        return (await scheduler.status.remote())["passed_ms"] > ms
    except RayActorError:  # restarting
        return False


@pytest.fixture
async def rig(stack: Stack, db: None) -> AsyncIterator[Rig]:
    name = f"scheduler-test-{uuid.uuid4().hex[:8]}"
    probe = Probe.options(name=f"{name}-probe").remote()
    found = Rig(stack.settings, name, f"probe-{name}", probe)
    found.start()
    try:
        yield found
    finally:
        ray.kill(found.scheduler, no_restart=True)
        ray.kill(probe, no_restart=True)


async def ran_first_day(rig: Rig) -> int:
    """A job that never ran owes only the current day: it runs that one at the start."""
    first = today()
    await eventually(lambda: _equals(rig.calls(), [first]))
    return first


async def _equals(found: Awaitable[Any], expected: Any) -> bool:
    return await found == expected


async def test_a_day_passes_and_the_job_runs_once(rig: Rig) -> None:
    first = await ran_first_day(rig)
    before_midnight = await rig.scheduler.set_clock.remote(offset_to(first + 1, -10))  # 23:59:50
    assert before_midnight == []
    assert await rig.calls() == [first]

    after_midnight = await rig.scheduler.set_clock.remote(offset_to(first + 1, 1))  # 00:00:01 the next day
    assert after_midnight == [{"job": rig.job, "day": first + 1, "result": {"day": first + 1}}]
    since = int(time.time() * 1000)
    await eventually(lambda: passed_since(rig.scheduler, since + 500))  # more passes of the loop
    assert await rig.scheduler.run_due.remote() == []
    assert await rig.calls() == [first, first + 1]
    rows = await SchedulerRun.filter(job=rig.job).order_by("day")
    assert [(r.day, r.done, r.attempts, r.result) for r in rows] == [
        (first, True, 1, {"day": first}),
        (first + 1, True, 1, {"day": first + 1}),
    ]
    status = await rig.scheduler.status.remote()
    assert status["jobs"][rig.job] == {"at_s": 0, "last_day": first + 1, "next_ms": (first + 2) * DAY_MS, "error": ""}


async def test_a_restart_mid_day_does_not_run_it_again(rig: Rig) -> None:
    first = await ran_first_day(rig)
    offset = offset_to(first + 1, 12 * 3600)  # noon the next day
    await rig.scheduler.set_clock.remote(offset)
    assert await rig.calls() == [first, first + 1]

    killed_ms = int(time.time() * 1000)
    ray.kill(rig.scheduler, no_restart=False)  # as a crash would: Ray restarts it, its loop runs again
    await eventually(lambda: passed_since(rig.scheduler, killed_ms))
    status = await rig.scheduler.status.remote()
    assert status["offset_ms"] == offset  # the moved clock survived the restart
    assert status["jobs"][rig.job]["last_day"] == first + 1
    assert await rig.calls() == [first, first + 1]
    assert [r.attempts for r in await SchedulerRun.filter(job=rig.job)] == [1, 1]


async def test_days_missed_while_it_was_down_run_once_each_in_order(stack: Stack, rig: Rig) -> None:
    first = await ran_first_day(rig)
    ray.kill(rig.scheduler, no_restart=True)  # down ...
    redis = connect_redis(stack.settings)
    await runs.set_clock_offset(redis, rig.name, offset_to(first + 3, 60))  # ... for three midnights
    await redis.aclose()
    rig.start()  # back
    await eventually(lambda: _equals(rig.calls(), [first, first + 1, first + 2, first + 3]))
    rows = await SchedulerRun.filter(job=rig.job).order_by("day")
    assert [r.day for r in rows] == [first, first + 1, first + 2, first + 3]
    assert all(r.done and r.attempts == 1 for r in rows)
    started = [r.started_at for r in rows]
    assert started == sorted(started)  # in order


async def test_a_failing_run_is_tried_again_and_the_days_after_it_wait(rig: Rig) -> None:
    first = await ran_first_day(rig)
    await rig.probe.fail_on.remote([first + 1])
    assert await rig.scheduler.set_clock.remote(offset_to(first + 2, 60)) == []  # day first+1 fails
    row = await SchedulerRun.get(job=rig.job, day=first + 1)
    assert (row.done, row.attempts) == (False, 1)
    assert "the probe fails on day" in row.error
    assert not await SchedulerRun.filter(job=rig.job, day=first + 2).exists()  # waits behind it
    assert "the probe fails on day" in (await rig.scheduler.status.remote())["jobs"][rig.job]["error"]

    await rig.probe.fail_on.remote([])
    await eventually(lambda: _equals(rig.calls(), [first, first + 1, first + 2]))  # retried, then the next day
    row = await SchedulerRun.get(job=rig.job, day=first + 1)
    assert (row.done, row.error) == (True, "")
    assert row.attempts >= 2
    assert (await rig.scheduler.status.remote())["jobs"][rig.job]["error"] == ""


async def test_the_clock_moves_only_outside_production(stack: Stack) -> None:
    production = stack.settings.model_copy(
        update={
            "env": "production",
            "secret_key": "s" * 40,
            "wallet_middle_salt": "w" * 40,
            "xpubs": MAINNET_XPUBS,
            **PRODUCTION_SENDERS,
        }
    )
    scheduler = Scheduler.options(name=f"scheduler-prod-{uuid.uuid4().hex[:8]}").remote(
        production.model_dump(mode="json"), []
    )
    try:
        with pytest.raises(PermissionError, match="cannot be moved in production"):
            await scheduler.set_clock.remote(DAY_MS)
        assert (await scheduler.status.remote())["offset_ms"] == 0
    finally:
        ray.kill(scheduler, no_restart=True)


async def test_the_session_scheduler_runs_the_lever_overnight_job_on_every_shard(stack: Stack, db: None) -> None:
    scheduler = ray.get_actor(SCHEDULER_NAME)
    status = await scheduler.status.remote()
    assert status["offset_ms"] == 0
    assert status["jobs"]["lever_overnight"]["at_s"] == 0

    async def ran() -> bool:
        return (await scheduler.status.remote())["jobs"]["lever_overnight"]["last_day"] == today()

    await eventually(ran)
    row = await SchedulerRun.get(job="lever_overnight", day=today())
    assert row.done and row.result["shards"] == stack.settings.lever_shards

    listing = exchange_ok(stack.settings, "scheduler")
    assert f"lever_overnight\t00:00\t{today()}\t" in listing
    assert "clock\treal time" in listing


def test_the_clock_command_refuses_a_bad_offset(stack: Stack) -> None:
    done = exchange(stack.settings, "scheduler", "clock", "tomorrow")
    assert done.returncode != 0
    assert "+1d" in done.stderr  # says what it takes


async def test_a_midnight_charges_an_open_lever_position_its_overnight_fee_once(
    stack: Stack, api: httpx.Client, db: None
) -> None:
    """A scheduler of its own runs the real job under another name (the session's is left alone)."""
    seller, buyer, trader = member(api), member(api), member(api)
    await fund(seller, "BTC", "100")
    await fund(buyer, "USDT", "10000000")
    await fund(trader, "USDT", "1000")
    mark_to(api, seller, buyer, BTC_USDT, Decimal(60000))
    lever_call(api, trader, "account/transfer", {"currency_id": USDT, "balance": "1000", "from": "change_account",
                                                 "to": "lever_account"})  # fmt: skip
    position = lever_call(api, trader, "lever/submit",
                          {"currency_match_id": BTC_USDT, "type": 1, "status": 1, "share": 2, "multiple": 10})  # fmt: skip
    before = balance(api, trader, USDT, LEVER)

    name, first = f"scheduler-overnight-{uuid.uuid4().hex[:8]}", today()
    job = Job(f"lever_overnight-{name}", at_s=0, run=lever_overnight)
    scheduler = Scheduler.options(name=name).remote(stack.settings.model_dump(mode="json"), [job], 0.2)
    try:
        await eventually(lambda: _last_day(scheduler, job.name, first))  # today's midnight: before it opened
        ran = await scheduler.set_clock.remote(offset_to(first + 1, 30))
        assert [(r["day"], r["result"]["shards"]) for r in ran] == [(first + 1, stack.settings.lever_shards)]
        assert ran[0]["result"]["charged"] >= 1
        # 0.05 % a day of 2 hands of 0.01 BTC at the mark of that midnight (60000): 0.6 USDT
        charged = _open_position(api, trader, position["id"])
        assert charged["overnight_money"] == "0.6"
        assert balance(api, trader, USDT, LEVER) == (before[0] - Decimal("0.6"), before[1])

        killed_ms = int(time.time() * 1000)
        ray.kill(scheduler, no_restart=False)
        await eventually(lambda: passed_since(scheduler, killed_ms))
        assert await scheduler.run_due.remote() == []
        assert await scheduler.set_clock.remote(offset_to(first + 1, 3600)) == []
        assert _open_position(api, trader, position["id"])["overnight_money"] == "0.6"
        lever_call(api, trader, "lever/close", {"id": position["id"]})
    finally:
        ray.kill(scheduler, no_restart=True)


async def _last_day(scheduler: Any, job: str, day: int) -> bool:
    return (await scheduler.status.remote())["jobs"][job]["last_day"] == day


def lever_call(api: httpx.Client, m: Member, route: str, body: dict[str, Any]) -> Any:
    return ok(api.post(route, json=body, headers=m.auth))


def _open_position(api: httpx.Client, m: Member, position_id: int) -> dict[str, Any]:
    found = lever_call(api, m, "lever/my_trade", {"status": 1})["data"]
    return next(p for p in found if p["id"] == position_id)
