"""Earn test helpers: a Scheduler of the test's own that runs the earn day jobs under names of its own
(the session's Scheduler is left alone: it also runs lever_overnight, which other tests rely on), moved
through the days; the earn house rows and the conservation sum of a set of users."""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import ray
from ray.exceptions import RayActorError

from actors.scheduler.actor import Scheduler
from actors.scheduler.calendar import DAY_MS
from actors.scheduler.jobs import Job, lock_savings, mining
from config.settings import Settings
from store.earn import FINANCIAL, HOUSE_KINDS
from store.models import Account, HouseLedger

FINANCIAL_ID = int(FINANCIAL)


def today() -> int:
    return int(time.time() * 1000) // DAY_MS


def offset_to(day: int, second: float) -> int:
    """The clock offset that makes a scheduler's now ``second`` seconds into ``day`` (UTC)."""
    return day * DAY_MS + int(second * 1000) - int(time.time() * 1000)


@dataclass
class EarnScheduler:
    """A Scheduler named ``name`` running the lock savings and mining day jobs (named after it)."""

    settings: Settings
    name: str = field(default_factory=lambda: f"scheduler-earn-{uuid.uuid4().hex[:8]}")
    handle: Any = None

    @property
    def jobs(self) -> tuple[str, str]:
        return f"lock_savings-{self.name}", f"mining-{self.name}"

    def start(self) -> Any:
        lock_job, mining_job = self.jobs
        jobs = [Job(lock_job, at_s=86_400, run=lock_savings), Job(mining_job, at_s=86_400, run=mining)]
        deadline = time.monotonic() + 30
        while True:
            try:
                self.handle = Scheduler.options(name=self.name).remote(
                    self.settings.model_dump(mode="json"), jobs=jobs, poll_s=0.2
                )
                return self.handle
            except ValueError:  # a killed one of the same name is not gone yet
                assert time.monotonic() < deadline, f"the name {self.name} stayed taken"
                time.sleep(0.2)

    async def last_days(self) -> dict[str, int | None]:
        status = await self.handle.status.remote()
        return {job: status["jobs"][job]["last_day"] for job in self.jobs}

    async def through(self, day: int, seconds: float = 120) -> None:
        """Move the clock just past the end of ``day`` and wait until both jobs booked it."""
        await self.handle.set_clock.remote(offset_to(day + 1, 1))
        await self.wait_through(day, seconds)

    async def wait_through(self, day: int, seconds: float = 120) -> None:
        deadline = time.monotonic() + seconds
        while True:
            try:
                if all(last is not None and last >= day for last in (await self.last_days()).values()):
                    return
            except RayActorError:  # restarting
                pass
            assert time.monotonic() < deadline, f"the earn jobs did not reach day {day}"
            await asyncio.sleep(0.1)

    async def stop(self) -> None:
        """Put the clock back to real time and end the actor."""
        if self.handle is None:
            return
        try:
            await self.handle.set_clock.remote(0)
        finally:
            ray.kill(self.handle, no_restart=True)


async def house(user_ids: list[int]) -> dict[int, Decimal]:
    """Per currency: the earn house rows (``HOUSE_KINDS``) written for these users."""
    totals: dict[int, Decimal] = {}
    rows = await HouseLedger.filter(kind__in=HOUSE_KINDS, user_id__in=user_ids).values("currency_id", "amount")
    for row in rows:
        totals[row["currency_id"]] = totals.get(row["currency_id"], Decimal(0)) + row["amount"]
    return totals


async def held(user_ids: list[int]) -> dict[int, Decimal]:
    """Per currency: balance + lock of these users' financial accounts, plus the earn house rows
    written for them. Earn products only move money between the two, so this stays what was funded."""
    totals = await house(user_ids)
    rows = await Account.filter(user_id__in=user_ids, account_type=FINANCIAL).values(
        "currency_id", "balance", "lock_balance"
    )
    for row in rows:
        totals[row["currency_id"]] = totals.get(row["currency_id"], Decimal(0)) + row["balance"] + row["lock_balance"]
    return {k: v for k, v in totals.items() if v}
