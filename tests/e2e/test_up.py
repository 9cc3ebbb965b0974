"""`exchange up` as an operator runs it: it serves, and SIGTERM leaves no process behind."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.utils.up import session_processes, start


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
