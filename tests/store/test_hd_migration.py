"""Migration 0022: the HMAC build's addresses, which no key controls, are gone (their deposits stay), the
chains with no adapter are closed both ways, and protocols may share a family's address. Migration 0023:
that deposit is keyed by (chain, tx, output), the chain its protocol's. On a fresh SQLite
file and, when the session runs on PostgreSQL, on a scratch database."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from config.settings import ROOT, Settings
from tests.utils.scratch_db import scratch_postgres

EXPECTED = {
    "addresses": 1,  # only the one written after the migration
    "chain_deposits": 2,  # the HMAC build's, and one written after 0023 at another output of its transaction
    "open": {"USDT": [True, True], "BTC": [True, True], "XRP": [False, False]},
    "hd": [0, 0],
    "one_per_user": True,
    "legacy_deposit": ["TRC20", 0, None, "5"],  # 0023: its protocol's chain, output 0, no block
    "one_per_output": True,
}


def _probe(url: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "tests.store.hd_migration_probe", url], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_0022_on_sqlite(tmp_path: Path) -> None:
    assert _probe(f"sqlite://{tmp_path / 'exchange.sqlite3'}") == EXPECTED


async def test_0022_on_postgres(settings: Settings) -> None:
    async with scratch_postgres(settings, "hd") as url:
        assert _probe(url) == EXPECTED
