"""Fixtures shared by the API tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from config.settings import Settings
from serve.stack import Stack
from store import scheduler
from store.cache import connect_redis
from store.earn import clock
from store.models import SiteSetting
from tests.utils.p2p_api import Clocks
from tests.utils.sales import Sweeper, sweeper


@pytest.fixture
async def sms_login_on(db: None) -> AsyncIterator[None]:
    """The login_use_sms site setting on for one test: login then needs a type-5 code as well."""
    await SiteSetting.filter(key="login_use_sms").update(value="1")
    try:
        yield
    finally:
        await SiteSetting.filter(key="login_use_sms").update(value="0")


@pytest.fixture
async def sweep(settings: Settings, stack: Stack, db: None) -> AsyncIterator[Sweeper]:
    """A Scheduler of the test's own running the sweeps (sale closes, listing allocations, releases and
    credits) on a clock the test moves (``sweep.at(ms)``); back to real time and gone afterwards."""
    async with sweeper(settings) as found:
        yield found


@pytest.fixture
async def clocks(settings: Settings, sweep: Sweeper) -> AsyncIterator[Clocks]:
    """The API's clock and the test's own sweeping Scheduler's, moved together (``tests.utils.p2p_api.Clocks``);
    the API back on real time afterwards."""
    redis = connect_redis(settings)
    try:
        yield Clocks(redis, sweep)
    finally:
        await scheduler.set_clock_offset(redis, clock.SCHEDULER, 0)  # the API back on real time
        await redis.aclose()
