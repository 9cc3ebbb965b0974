"""``exchange up`` outside production serves /api/dev/* (free credits, everyone's codes), so it must
refuse to listen beyond this machine: a clear message, a non-zero exit, and nothing started."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from serve.cli import is_loopback
from tests.utils.up import EXCHANGE


def up(data_dir: Path, host: str, env: str) -> tuple[subprocess.CompletedProcess[str], float]:
    environ = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "RAY_ADDRESS")}
    environ.update({"EXCHANGE_ENV": env, "EXCHANGE_HTTP_HOST": host, "EXCHANGE_DATA_DIR": str(data_dir)})
    began = time.monotonic()
    done = subprocess.run([EXCHANGE, "up"], env=environ, capture_output=True, text=True, timeout=60)
    return done, time.monotonic() - began


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "10.0.0.1", "example.com", "[::]"])
@pytest.mark.parametrize("env", ["development", "test"])
def test_up_refuses_a_public_address_outside_production(tmp_path: Path, host: str, env: str) -> None:
    done, took = up(tmp_path, host, env)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"EXCHANGE_HTTP_HOST={host} is not a loopback address" in done.stderr
    assert "EXCHANGE_ENV=production" in done.stderr
    # Nothing started: no embedded Redis, no database, no Ray (its address file), no lock taken.
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    assert took < 30
    assert "Exchange is up" not in done.stdout


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost", "LOCALHOST"])
def test_loopback_addresses_are_allowed(host: str) -> None:
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "", "192.168.1.20", "localhost.example.com", "127.0.0.1.nip.io"])
def test_other_addresses_are_not_loopback(host: str) -> None:
    assert not is_loopback(host)
