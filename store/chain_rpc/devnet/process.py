"""Starting and stopping a dev chain as a child process (``exchange up`` and the test fixtures).

A dev chain runner announces itself by writing an info file (URL, tokens, faucet) into its data
directory once it answers; ``DevChainProcess.start`` waits for that file and returns what it says.
The child dies with its parent (``PR_SET_PDEATHSIG``), so a killed ``exchange up`` or test run leaves
no node behind.
"""

from __future__ import annotations

import ctypes
import json
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Run in the child before exec: the kernel sends SIGTERM if the parent dies (even by SIGKILL)."""
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def stop_process(process: subprocess.Popen[bytes], *, timeout: float) -> None:
    """SIGTERM (every runner here and litecoind shut down cleanly on it), SIGKILL after ``timeout``."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def read_info(path: Path) -> dict[str, Any]:
    """A running dev chain's info file; ``FileNotFoundError`` when that chain is not running."""
    return json.loads(path.read_text())


@dataclass
class DevChainProcess:
    """``python -m <module> --data-dir <data_dir> <args>``, whose readiness is ``data_dir/<info_name>``."""

    module: str
    data_dir: Path
    info_name: str
    args: list[str] = field(default_factory=list)
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)

    @property
    def info_path(self) -> Path:
        return self.data_dir / self.info_name

    @property
    def log_path(self) -> Path:
        return self.data_dir / (self.info_name.removesuffix(".json") + ".log")

    def start(self, *, timeout: float = 120.0) -> dict[str, Any]:
        """Start the runner and wait until it answers; its info. ``RuntimeError`` (with the log's
        tail) if it exits or stays silent past ``timeout``."""
        self.launch()
        return self.wait(timeout=timeout)

    def launch(self) -> None:
        """Start the runner without waiting (to start several chains at once, then ``wait`` for each)."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.info_path.unlink(missing_ok=True)
        with self.log_path.open("ab") as out:
            self.process = subprocess.Popen(  # noqa: S603 - our own module, our own interpreter
                [sys.executable, "-m", self.module, "--data-dir", str(self.data_dir), *self.args],
                stdout=out,
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent,  # noqa: PLW1509
            )

    def wait(self, *, timeout: float = 120.0) -> dict[str, Any]:
        """Wait until the launched runner answers; its info (``RuntimeError`` as for ``start``)."""
        assert self.process is not None, "launch() first"
        deadline = time.monotonic() + timeout
        while not self.info_path.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                tail = self.log_path.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"{self.module} did not start; the end of {self.log_path}:\n{tail}")
            time.sleep(0.1)
        return read_info(self.info_path)

    def stop(self, *, timeout: float = 30.0) -> None:
        """SIGTERM, then SIGKILL after ``timeout``. Idempotent."""
        if self.process is not None:
            stop_process(self.process, timeout=timeout)
        self.process = None
        self.info_path.unlink(missing_ok=True)


def dev_evm(data_dir: Path, *, block_seconds: float, port: int = 0) -> DevChainProcess:
    """The dev EVM node (``store.chain_rpc.devnet.evm_server``)."""
    args = ["--block-seconds", str(block_seconds), "--port", str(port)]
    return DevChainProcess("store.chain_rpc.devnet.evm_server", data_dir, "evm.json", args)


def dev_litecoin(data_dir: Path, *, block_seconds: float, port: int = 0) -> DevChainProcess:
    """litecoind in regtest with its wallet and a block every ``block_seconds``
    (``store.chain_rpc.devnet.litecoin``)."""
    args = ["--block-seconds", str(block_seconds), "--port", str(port)]
    return DevChainProcess("store.chain_rpc.devnet.litecoin", data_dir, "ltc.json", args)
