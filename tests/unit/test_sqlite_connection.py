"""The embedded SQLite connection survives queries cancelled at any point, the first ones included."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tortoise import Tortoise, connections

from config.settings import Settings
from store.db import close_db, init_db


async def test_queries_cancelled_from_the_start_leave_the_connection_usable(tmp_path: Path, settings: Settings) -> None:
    """A process's first queries given up by their callers (a client timing out on a replica that is still
    starting) must not wedge the process: before init_db opened the file itself, the first query opened it
    holding tortoise's connection lock, and a cancel there kept the lock for good."""
    session_orm = Tortoise.is_inited()  # the session's ORM (the ``db`` fixture), opened again afterwards
    await init_db(Settings(env="test", data_dir=tmp_path, database_url=None))
    try:
        conn = connections.get("default")
        for ticks in range(6):  # cancelled after 0, 1, … event-loop turns: wherever the query has got to
            query = asyncio.create_task(conn.execute_query("select 1"))
            for _ in range(ticks):
                await asyncio.sleep(0)
            query.cancel()
            await asyncio.gather(query, return_exceptions=True)
        assert (await asyncio.wait_for(conn.execute_query("select 1"), 5))[0] == 1
    finally:
        await close_db()
        if session_orm:  # the tests after this one that use ``db`` find it open
            await init_db(settings)
