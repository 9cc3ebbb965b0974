"""Fixtures shared by the API tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from decimal import Decimal

import httpx
import pytest

from actors.pair.directory import pair_actor
from config.settings import Settings
from serve.stack import Stack
from store import scheduler
from store.cache import connect_redis
from store.errors import DomainError
from store.models import Order, SiteSetting
from store.spot import OPEN_STATUSES
from tests.utils.p2p_api import Clocks
from tests.utils.prices import mark_to
from tests.utils.sales import Sweeper, sweeper
from tests.utils.users import Member, member
from tests.utils.wallets import fund


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
        await scheduler.set_clock_offset(redis, scheduler.SCHEDULER_NAME, 0)  # the API back on real time
        await redis.aclose()


@pytest.fixture
async def quiet_books(db: None) -> None:
    """ETH/USDT and BTC/USDT without other tests' resting orders, so the market orders below meet
    alice's and no one else's (each cancel through the pair, as its owner's would go)."""
    for pair_id, symbol in ((2, "ETH/USDT"), (1, "BTC/USDT")):
        actor = pair_actor(symbol)
        for order_id, uid in await Order.filter(currency_match_id=pair_id, status__in=OPEN_STATUSES).values_list(
            "id", "user_id"
        ):
            try:
                await actor.cancel.remote(order_id, uid)
            except DomainError:  # filled or cancelled meanwhile
                pass


@pytest.fixture
async def movers(api: httpx.Client, db: None) -> tuple[Member, Member]:
    """A seller of BTC and ETH and a buyer with USDT: their trades set the marks (tests.utils.prices)."""
    seller, buyer = member(api), member(api)
    await fund(seller, "BTC", "100")
    await fund(seller, "ETH", "1000")
    await fund(buyer, "USDT", "10000000")
    return seller, buyer


@pytest.fixture
def btc_at_60000(api: httpx.Client, movers: tuple[Member, Member]) -> tuple[Member, Member]:
    """BTC/USDT's mark at 60000 (and fresh): every lever price in tests/api/test_lever*.py follows from it."""
    mark_to(api, *movers, 1, Decimal(60000))
    return movers
