"""Run the `exchange` operator command as an operator would, against the test session's storage."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from config.settings import Settings

EXCHANGE = str(Path(sys.executable).with_name("exchange"))


def exchange(settings: Settings, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The command's run; ``env`` adds to (or overrides) the test environment (EXCHANGE_ENV=test)."""
    full = {
        **os.environ,
        "EXCHANGE_ENV": "test",
        "EXCHANGE_DATA_DIR": str(settings.data_dir),
        "DATABASE_URL": settings.db_url,
        "REDIS_URL": settings.redis_url or "",
        **(env or {}),
    }
    return subprocess.run(
        [EXCHANGE, *args], env=full, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
    )


def exchange_ok(settings: Settings, *args: str) -> str:
    done = exchange(settings, *args)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout
