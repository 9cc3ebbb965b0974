"""Run ``exchange up`` the way ``make run`` does, in a session of its own, and stop it with SIGTERM.

Used by the lifecycle test and the browser tests. The instance gets its own data directory (its own
SQLite file and embedded Redis) and free ports, so it never touches the test session's stack.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import httpx

EXCHANGE = str(Path(sys.executable).with_name("exchange"))
MIGRATIONS = Path(__file__).resolve().parents[2] / "store" / "migrations"
# Workers that open the database and so answer store.db.STACKS_SIGNAL with their stacks.
DATABASE_USERS = ("ray::ServeReplica", "ray::PairActor", "ray::WalletShard", "ray::MarketMaker", "ray::Scheduler",
                  "ray::LeverShard", "ray::MicroTimer", "ray::Fanout", "ray::PairPlacement")  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def session_processes(sid: int) -> list[str]:
    """``sid pid args`` of every process still in the session ``sid``."""
    out = subprocess.run(["ps", "-eo", "sid=,pid=,args="], capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if line.split(None, 1)[0] == str(sid)]


@dataclass
class Instance:
    proc: subprocess.Popen[bytes]
    data_dir: Path
    http_port: int
    ws_port: int
    log: IO[str]
    env: dict[str, str]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    def cli(self, *args: str) -> str:
        """Run an ``exchange`` operator command against this instance; answers its output."""
        done = subprocess.run([EXCHANGE, *args], env=self.env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    def log_tail(self, chars: int = 3000) -> str:
        return (self.data_dir / "up.log").read_text()[-chars:]

    def stacks(self) -> str:
        """Every thread's stack of the instance's database users (store.db.STACKS_SIGNAL), as they
        reach the log, with the processes' CPU time: what a stuck instance waits on."""
        from store.db import STACKS_SIGNAL

        mark = len((self.data_dir / "up.log").read_text())
        lines = session_processes(self.proc.pid)
        for line in lines:
            _, pid, args = line.split(None, 2)
            if args.startswith(DATABASE_USERS):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(pid), STACKS_SIGNAL)
        time.sleep(5)  # Ray forwards each worker's stderr to the driver's log
        cpu = subprocess.run(["ps", "-o", "pid=,time=,args=", "-s", str(self.proc.pid)], capture_output=True,
                             text=True).stdout  # fmt: skip
        table = "\n".join(line[:120] for line in cpu.splitlines())
        return f"processes (pid, CPU time):\n{table}\nstacks:\n" + (self.data_dir / "up.log").read_text()[mark:]

    def stop(self) -> tuple[int, list[str]]:
        """SIGTERM, wait, and answer (exit code, processes left after 30 s). Kills leftovers."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=90)
        except subprocess.TimeoutExpired:
            code = -1
        deadline = time.monotonic() + 30
        while session_processes(self.proc.pid) and time.monotonic() < deadline:
            time.sleep(0.5)
        left = session_processes(self.proc.pid)
        self.kill()
        return code, left

    def kill(self) -> None:
        """Leave nothing behind, whatever state the instance is in."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        for line in session_processes(self.proc.pid):
            try:
                os.kill(int(line.split()[1]), signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.log.close()


def copy_database(source: Path, target: Path) -> None:
    """A consistent copy of an SQLite database (its write-ahead log folded in)."""
    with contextlib.closing(sqlite3.connect(source)) as src, contextlib.closing(sqlite3.connect(target)) as dst:
        src.backup(dst)


def migrated_template() -> Path:
    """An SQLite database with every migration applied, made once per set of migrations on this machine
    (named by their digest, so a changed migration makes a new one) and copied into each instance's
    data directory: migrating from nothing re-renders the models' state for each of ~170 operations,
    20-50 s of CPU that every instance paid again. The migrations themselves are tested from nothing
    by the session (PostgreSQL) and the migration probes (SQLite); ``exchange up`` still runs
    ``migrate`` over the copy, which finds nothing to do, and seeds."""
    digest = hashlib.sha256()
    for path in sorted(MIGRATIONS.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    home = Path(tempfile.gettempdir()) / "exchange-test-templates"
    home.mkdir(exist_ok=True)
    template = home / f"migrated-{digest.hexdigest()[:16]}.sqlite3"
    with (home / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another test session on this machine may be making it
        if not template.exists():
            with tempfile.TemporaryDirectory(dir=home) as work:
                env = {**os.environ, "EXCHANGE_ENV": "test", "EXCHANGE_DATA_DIR": work}
                env.pop("DATABASE_URL", None)
                done = subprocess.run([EXCHANGE, "migrate"], env=env, capture_output=True, text=True, timeout=600)
                assert done.returncode == 0, done.stdout + done.stderr
                partial = home / f".{template.name}.{os.getpid()}"
                copy_database(Path(work) / "exchange.sqlite3", partial)
                partial.rename(template)
    return template


def start(
    data_dir: Path,
    *,
    pair_ids: list[int],
    market_maker: bool,
    timeout_s: float = 180,
    args: tuple[str, ...] = (),
    dev_chains: bool = False,
) -> Instance:
    """Start ``exchange up [args]`` on the embedded defaults and wait until ``/api/`` answers; the dev
    chains (an EVM node mining every few seconds, litecoind) only when a test asks for them."""
    http_port, ws_port = free_port(), free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
        "EXCHANGE_ENV": "development",
        "EXCHANGE_PASSWORD_HASH_COST": "minimal",  # its users are throwaway: see config.settings
        "EXCHANGE_DATA_DIR": str(data_dir),
        "HTTP_PORT": str(http_port),
        "WS_PORT": str(ws_port),
        "EXCHANGE_RAY_NUM_CPUS": "1",
        "EXCHANGE_PAIR_IDS": str(pair_ids),
        "EXCHANGE_MARKET_MAKER": str(market_maker).lower(),
        "EXCHANGE_DEV_CHAINS": str(dev_chains).lower(),
        "EXCHANGE_DEV_BLOCK_SECONDS": "2",  # confirmations arrive within a test's patience
        "RAY_DEDUP_LOGS": "0",  # every process's lines in the log (stacks() reads several processes' alike lines)
    }
    data_dir.mkdir(parents=True, exist_ok=True)
    database = data_dir / "exchange.sqlite3"
    if not database.exists():
        copy_database(migrated_template(), database)
    log = (data_dir / "up.log").open("w")
    proc = subprocess.Popen(
        [EXCHANGE, "up", *args], env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    instance = Instance(proc, data_dir, http_port, ws_port, log, env)
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            assert proc.poll() is None, instance.log_tail()
            try:
                if httpx.get(f"{instance.url}/api/news/categories", timeout=2).status_code == 200:
                    return instance
            except httpx.HTTPError:
                pass
            if time.monotonic() >= deadline:
                log = instance.log_tail(8000)
                raise AssertionError(f"exchange up did not serve within {timeout_s:.0f} s\n{log}\n{instance.stacks()}")
            time.sleep(1)
    except BaseException:
        instance.kill()
        raise
