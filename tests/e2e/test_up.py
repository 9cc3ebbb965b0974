"""`exchange up` as an operator runs it: it serves, and SIGTERM leaves no process behind."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from tests.utils.up import free_port, session_processes, start


def test_up_serves_then_stops_everything_on_sigterm(tmp_path: Path) -> None:
    # The test is about the lifecycle: one pair and no market maker keep start-up short.
    instance = start(tmp_path, pair_ids=[1], market_maker=False)
    try:
        answer = httpx.get(f"{instance.url}/api/news/categories", timeout=10)
        assert [c["id"] for c in answer.json()["data"]] == [22, 23, 24, 25, 26]
        assert session_processes(instance.proc.pid), "expected Ray and Redis processes while running"
    finally:
        code, left = instance.stop()
    assert code == 0, instance.log_tail()
    assert left == []


def test_up_joins_a_running_cluster_and_leaves_it_as_it_found_it(tmp_path: Path) -> None:
    """`exchange up --address` on a Ray an operator started (`ray start --head`): the pairs run on
    that cluster's node, operators see them, and stopping takes the exchange's actors away with it."""
    port = free_port()
    temp_dir = Path(tempfile.mkdtemp(prefix="rayx", dir="/tmp"))  # short: Ray puts unix sockets here
    ray_start = [str(Path(sys.executable).with_name("ray")), "start", "--head", "--block", f"--port={port}",
                 "--num-cpus=1", "--include-dashboard=false", "--node-name=ops-head",
                 '--resources={"pairs": 4}', f"--temp-dir={temp_dir}"]  # fmt: skip
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    head = subprocess.Popen(ray_start, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while not list(temp_dir.glob("session_*/logs/raylet.out")):  # the head's raylet has started
            assert head.poll() is None and time.monotonic() < deadline, "ray start --head did not come up"
            time.sleep(0.5)
        instance = start(tmp_path, pair_ids=[1], market_maker=False, args=("--address", f"127.0.0.1:{port}"))
        try:
            health = httpx.get(f"{instance.url}/api/health", timeout=30).json()["data"]
            assert health["pairs"] == {"BTC/USDT": True} and health["fanouts"] == {"ops-head": True}, health
            assert "BTC/USDT\tops-head\t-\t0\tup" in instance.cli("pairs")
            assert any("PairActor" in line for line in session_processes(head.pid))
        finally:
            code, _ = instance.stop()
        assert code == 0, instance.log_tail()
        # The cluster keeps running; the exchange's actors (the detached pairs too) are gone from it.
        deadline = time.monotonic() + 30
        while any("PairActor" in line or "Fanout" in line for line in session_processes(head.pid)):
            assert time.monotonic() < deadline, session_processes(head.pid)
            time.sleep(0.5)
        assert head.poll() is None
    finally:
        head.send_signal(signal.SIGTERM)
        try:
            head.wait(timeout=60)
        finally:
            for line in session_processes(head.pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(line.split()[1]), signal.SIGKILL)
            shutil.rmtree(temp_dir, ignore_errors=True)
