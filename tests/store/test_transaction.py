"""store.db.transaction() when the database fails at the edges of a transaction (as a PostgreSQL
restart does): the task that ran it goes on with working queries and transactions, and what the
failed transaction held goes back. tortoise's own in_transaction() leaves the task bound to a dead
transaction client in both cases (a pair's batch loop then failed for ever in the chaos test)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from tortoise import connections
from tortoise.transactions import in_transaction

from config.settings import Settings
from store.db import transaction
from store.models import SiteSetting

KEY = "transaction-test"


def _wrapper_class() -> type:
    context: Any = in_transaction()
    return type(getattr(context, "client", None) or context.connection)


@pytest.fixture
def begin_fails_once(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    cls = _wrapper_class()
    begin = cls.begin
    failed: list[bool] = []

    async def failing_begin(self: Any) -> None:
        if not failed:
            failed.append(True)
            raise ConnectionResetError("the server went away at BEGIN")
        await begin(self)

    monkeypatch.setattr(cls, "begin", failing_begin)
    yield
    assert failed, "BEGIN was never tried"


async def _write(value: str) -> None:
    async with transaction() as conn:
        await SiteSetting.update_or_create(key=KEY, defaults={"value": value}, using_db=conn)


async def _read_elsewhere() -> str:
    """Read from another task (its own binding), so only what was committed is seen."""

    async def read() -> str:
        row = await SiteSetting.get_or_none(key=KEY)
        return row.value if row else ""

    return await asyncio.create_task(read())


async def test_a_failed_begin_leaves_the_task_working(db: None, begin_fails_once: None) -> None:
    root = connections.get("default")
    pool = getattr(root, "_pool", None)
    idle = pool.get_idle_size() if pool is not None else None
    with pytest.raises(ConnectionResetError):
        await _write("never")
    assert connections.get("default") is root
    if pool is not None:
        assert pool.get_idle_size() == idle  # the connection BEGIN failed on went back
    await asyncio.wait_for(_write("after a failed begin"), 10)  # SQLite: its transaction lock is free
    assert await _read_elsewhere() == "after a failed begin"


async def test_a_failed_release_leaves_the_task_working(
    db: None, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not settings.db_url.startswith(("postgres://", "postgresql://")):
        pytest.skip("SQLite has one connection and no pool to release it to")
    root = connections.get("default")
    pool = root._pool  # type: ignore[attr-defined]
    release = type(pool).release
    failed: list[bool] = []

    async def failing_release(self: Any, connection: Any, *args: Any, **kwargs: Any) -> None:
        await release(self, connection, *args, **kwargs)
        if not failed:
            failed.append(True)
            raise ConnectionResetError("the server went away while the connection was reset")

    monkeypatch.setattr(type(pool), "release", failing_release)
    with pytest.raises(ConnectionResetError):
        await _write("committed before the release failed")
    assert failed
    assert connections.get("default") is root
    assert await SiteSetting.filter(key=KEY).count() == 1  # a plain query of the same task works
    await _write("after a failed release")
    assert await _read_elsewhere() == "after a failed release"


@pytest.fixture(autouse=True)
async def _forget_the_setting() -> Any:
    yield
    await SiteSetting.filter(key=KEY).delete()
