"""Migration 0009: a database written by a build before the pending-work tables gets them filled, so an
upgrade loses no stranded freeze, unsettled trade side or unreleased final order. On a fresh SQLite
file (the ``make run`` default) and, when the session runs on PostgreSQL, on a scratch database."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from config.settings import ROOT, Settings
from tests.utils.scratch_db import scratch_postgres

EXPECTED = {
    "holds": [[101, 1, 1, "10.5", "2025-01-02T03:04:05+00:00"]],
    "settlements": [[201, 2], [203, 1], [203, 2]],
    "releases": [104, 107, 108],
}


def _probe(url: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "tests.store.backfill_probe", url], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_backfill_on_sqlite(tmp_path: Path) -> None:
    found = _probe(f"sqlite://{tmp_path / 'exchange.sqlite3'}")
    assert found == {"first": EXPECTED, "again": EXPECTED}


async def test_backfill_on_postgres(settings: Settings) -> None:
    async with scratch_postgres(settings, "backfill") as url:
        found = _probe(url)
        assert found == {"first": EXPECTED, "again": EXPECTED}
