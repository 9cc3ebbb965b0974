"""`exchange up` as an operator runs it: it serves, and SIGTERM leaves no process behind."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

EXCHANGE = str(Path(sys.executable).with_name("exchange"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _session_processes(sid: int) -> list[str]:
    out = subprocess.run(["ps", "-eo", "sid=,pid=,args="], capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if line.split(None, 1)[0] == str(sid)]


def test_up_serves_then_stops_everything_on_sigterm(tmp_path: Path) -> None:
    port = _free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
        "EXCHANGE_ENV": "development",
        "EXCHANGE_DATA_DIR": str(tmp_path),  # its own SQLite file and embedded Redis
        "HTTP_PORT": str(port),
        "WS_PORT": str(_free_port()),
        "EXCHANGE_RAY_NUM_CPUS": "1",
        # The test is about the lifecycle: one pair and no market maker keep start-up short.
        "EXCHANGE_PAIR_IDS": "[1]",
        "EXCHANGE_MARKET_MAKER": "false",
    }
    log = (tmp_path / "up.log").open("w")
    proc = subprocess.Popen([EXCHANGE, "up"], env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            assert proc.poll() is None, (tmp_path / "up.log").read_text()[-3000:]
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/api/news/categories", timeout=2)
                if answer.status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "exchange up did not serve within 180 s"
            time.sleep(1)
        assert [c["id"] for c in answer.json()["data"]] == [22, 23, 24, 25, 26]
        assert _session_processes(proc.pid), "expected Ray and Redis processes while running"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=90) == 0
        deadline = time.monotonic() + 30
        while _session_processes(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert _session_processes(proc.pid) == []
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        leftovers = _session_processes(proc.pid)
        for line in leftovers:
            os.kill(int(line.split()[1]), signal.SIGKILL)
        log.close()
