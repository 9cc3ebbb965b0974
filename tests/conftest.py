"""Session fixtures: real storage (PostgreSQL/Redis from DATABASE_URL/REDIS_URL, else the embedded
defaults under var/test) reset once, and one Ray + Serve stack shared by every test that needs it: a
local cluster of two Ray nodes, so every test also crosses nodes.

Warning: with DATABASE_URL set, the test session wipes that database's public schema and, with
REDIS_URL set, flushes that Redis database. Point them at disposable servers (CI's are).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
from collections.abc import AsyncIterator, Iterator
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from hypothesis import settings as hypothesis_settings
from redis import Redis as SyncRedis

from config.chains import ADAPTED_CHAINS
from config.settings import ROOT, Settings
from serve.stack import Stack
from store.db import close_db, init_db
from tests.utils.smpp_server import Smsc
from tests.utils.twilio_server import FakeTwilio

pytest_plugins = ["tests.utils.chains"]  # the dev chains' fixtures, for every test directory

# Two suites can run side by side (say, two engineers on one machine) when each sets its own
# EXCHANGE_TEST_DATA_DIR, DATABASE_URL and REDIS_URL database.
TEST_DATA = Path(os.environ.get("EXCHANGE_TEST_DATA_DIR") or ROOT / "var" / "test")


def _interrupt_on_sigterm() -> None:
    """A SIGTERM'd test run (CI's timeout, an operator) still runs its teardown and stops Ray."""

    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)


_interrupt_on_sigterm()

# Hypothesis's per-example deadline (200 ms) is a timed assert: on a loaded or slow CI machine a pure
# property test fails for the clock, not for the property. Properties here are checked without it.
hypothesis_settings.register_profile("exchange", deadline=None)
hypothesis_settings.load_profile("exchange")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _reset_postgres(url: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgres://", "postgresql://", 1))
    try:
        await conn.execute("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;")
    finally:
        await conn.close()


def _reset_storage(settings: Settings) -> None:
    if settings.database_url:
        asyncio.run(_reset_postgres(settings.db_url))
    if settings.redis_url:
        SyncRedis.from_url(settings.redis_url).flushdb()
    shutil.rmtree(TEST_DATA, ignore_errors=True)
    TEST_DATA.mkdir(parents=True)


# The session's SMS providers: a test SMSC (SMPP 3.4) first, a Twilio-shaped HTTP gateway as its fallback,
# both in threads of the test process, so a phone code travels as it would in production and a test can
# read it from what the server received (tests/api/test_sms.py).
SMSC = Smsc()
TWILIO = FakeTwilio()


def _test_settings() -> Settings:
    return Settings(
        env="test",
        sms_providers=["smpp", "http"],
        sms_smpp_host="127.0.0.1",
        sms_smpp_port=SMSC.port,
        sms_smpp_system_id=SMSC.state.system_id,
        sms_smpp_password=SMSC.state.password,
        sms_http_url=TWILIO.url,
        sms_http_account_sid=TWILIO.state.sid,
        sms_http_auth_token=TWILIO.state.token,
        sms_http_from="+15005550006",
        sms_retry_seconds=0.2,
        sms_receipt_poll_seconds=0.2,
        data_dir=Path(TEST_DATA),
        http_port=_free_port(),
        ws_port=_free_port(),
        # One address runs the whole suite; the per-address limit has its own test in tests/unit.
        login_ip_max_failures=10_000,
        code_ip_max_failures=10_000,  # the same for wrong codes and failed resets (tests/serve/test_security.py)
        reset_ip_max_failures=10_000,
        # Withdrawals wait for an operator, as the queue tests expect; tests/chain/test_sends.py turns
        # auto-approval on for its own test.
        auto_approve_usd=Decimal(0),
        # The session's stack runs no chain node (tests/chain starts its own): its API gives addresses and
        # takes withdrawals on every chain with an adapter, as a deployment whose watchers and Signer run
        # elsewhere does. tests/api/test_open_chains.py tests the default (only the chains followed here).
        deposit_chains=list(ADAPTED_CHAINS),
        withdraw_chains=list(ADAPTED_CHAINS),
        ws_session_check_seconds=1.0,  # the push fanouts look up logged-in sockets' sessions every second
        ws_order_rate=100.0,  # orders over /ws: a burst of 200 then 100 a second, so the limit can be reached
        ws_order_burst=200,
        ws_max_subscriptions=12,  # fewer than the session's public channels, so the cap can be reached
        pair_ids=[1, 2, 3, 64],  # enough pairs for every scenario; each one is a process
        market_maker=False,
        mark_stale_seconds=3.0,  # a pair that stops confirming its mark is stale after 3 s (tests wait for it)
        mark_window_ms=1000,  # the mark shows a move after half a second (at most half the staleness)
        reconcile_seconds=1.0,  # the wallet shards' orphan sweep: tests see a restarted shard's loop run
        # Every test runs on a cluster of two Ray nodes (on this machine), pairs spread over both.
        ray_local_nodes=2,
        metrics_port=_free_port(),
        pair_nodes={"BTC/USDT": "node-1", "ETH/USDT": "node-2", "LTC/USDT": "node-2"},
    )


async def _test_pair_terms(settings: Settings) -> None:
    """The test pairs' mark impact notional is their minimum order value: a test that moves a mark with
    one small trade or quote sees the rule act on the touch, as on a pair whose book is that thin
    (tests/*/test_marks.py set a real notional on a pair through the console to test the rule)."""
    from tortoise.expressions import F

    from store.models import CurrencyMatch

    await init_db(settings)
    try:
        await CurrencyMatch.all().update(impact_notional=F("min_notional"))
    finally:
        await close_db()


@pytest.fixture(scope="session")
def smsc() -> Smsc:
    """The test SMSC the session's stack sends phone codes to."""
    return SMSC


@pytest.fixture(scope="session")
def twilio() -> FakeTwilio:
    """The HTTP gateway the session's stack falls back to."""
    return TWILIO


@pytest.fixture(scope="session")
def stack_storage() -> Iterator[Stack]:
    """Fresh database (migrated and seeded) and Redis; no Ray."""
    settings = _test_settings()
    _reset_storage(settings)
    stack = Stack(settings)
    try:
        stack.start_storage()
        asyncio.run(_test_pair_terms(stack.settings))
        yield stack
    finally:
        stack.stop()


@pytest.fixture(scope="session")
def settings(stack_storage: Stack) -> Settings:
    from store.cache import redis_db
    from store.channels import use_database

    use_database(redis_db(stack_storage.settings))  # tests publish to the topics the actors use
    return stack_storage.settings


@pytest.fixture(scope="session")
def stack(stack_storage: Stack, settings: Settings) -> Stack:
    """Ray and the Serve app, started once for the session (stopped by stack_storage)."""
    stack_storage.after_ray_init = _interrupt_on_sigterm  # ray.init replaces the SIGTERM handler
    stack_storage.start_services()
    return stack_storage


@pytest.fixture(scope="session")
def api(stack: Stack) -> Iterator[httpx.Client]:
    base = f"http://{stack.settings.http_host}:{stack.settings.http_port}/api/"
    with httpx.Client(base_url=base, timeout=30) as client:
        yield client


@pytest.fixture(scope="session")
async def db(settings: Settings) -> AsyncIterator[None]:
    """The ORM opened in the test process on the session's (migrated, seeded) database."""
    await init_db(settings)
    yield
    await close_db()
