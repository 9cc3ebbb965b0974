"""A scratch PostgreSQL database beside the session's, for tests that migrate a database of their own."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from config.settings import Settings


@asynccontextmanager
async def scratch_postgres(settings: Settings, suffix: str) -> AsyncIterator[str]:
    """The URL of an empty database ``<session database>_<suffix>``, dropped afterwards; skips the test
    when the session runs on SQLite."""
    if not (settings.database_url or "").startswith(("postgres://", "postgresql://")):
        pytest.skip("the session runs on SQLite")
    import asyncpg

    server = settings.db_url.replace("postgres://", "postgresql://", 1)
    base, _, name = server.rpartition("/")
    scratch = f"{name.split('?')[0]}_{suffix}"
    admin = await asyncpg.connect(f"{base}/postgres")
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
        await admin.execute(f'CREATE DATABASE "{scratch}"')
        yield f"postgres://{base.removeprefix('postgresql://')}/{scratch}"
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
        await admin.close()
