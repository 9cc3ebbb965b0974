"""Which process holds which PostgreSQL connection: each pool names itself after its actor."""

from __future__ import annotations

import asyncio

import httpx
from tortoise import connections

from serve.stack import Stack


async def test_postgresql_sees_each_actor_by_name(stack: Stack, api: httpx.Client, db: None) -> None:
    assert stack.settings.db_url.startswith("postgres://")
    # A connection idle for db_idle_seconds closes: a request makes the API replica open one.
    assert (await asyncio.to_thread(api.get, "news/categories")).status_code == 200
    _, rows = await connections.get("default").execute_query(
        "SELECT DISTINCT application_name FROM pg_stat_activity WHERE datname = current_database()"
    )
    names = {row["application_name"] for row in rows}
    assert {"exchange wallet shard 0", "exchange scheduler", "exchange serve"} <= names, sorted(names)
    assert any(name.startswith("exchange pair ") for name in names), sorted(names)
