"""An actor whose ORM runs on SQLite still exits when Ray tells it to (regression).

aiosqlite keeps each connection in a non-daemon thread, and Python waits for such threads before it
exits; an actor that never closed its connection therefore hung for ever once Ray told it to exit,
and outlived ``exchange up``. ``store.db`` stops those threads first.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import psutil
import ray
from tortoise import connections

from actors.runtime import DbActor
from config.settings import Settings
from serve.stack import Stack


class _Leaving(DbActor):
    async def query(self) -> bool:
        await self._ready()
        await connections.get("default").execute_query("SELECT 1")  # opens the connection and its thread
        return True

    def leave(self) -> None:
        ray.actor.exit_actor()  # the graceful exit Ray's own shutdown asks of a worker


ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers need not import tests/
SqliteActor = ray.remote(num_cpus=0)(_Leaving)


def _actor_processes() -> list[psutil.Process]:
    return [p for p in psutil.process_iter(["cmdline"]) if (p.info["cmdline"] or [""])[0] == "ray::_Leaving"]


def test_an_actor_with_an_open_sqlite_connection_exits_when_it_leaves(stack: Stack, tmp_path: Path) -> None:
    settings = Settings(env="test", data_dir=tmp_path, database_url=None)  # SQLite, even when CI sets PostgreSQL
    assert settings.db_url.startswith("sqlite://")
    before = {p.pid for p in _actor_processes()}
    actor = SqliteActor.remote(settings.model_dump(mode="json"))
    assert ray.get(actor.query.remote(), timeout=60) is True
    (process,) = [p for p in _actor_processes() if p.pid not in before]
    actor.leave.remote()
    deadline = time.monotonic() + 20
    while process.is_running() and process.status() != psutil.STATUS_ZOMBIE and time.monotonic() < deadline:
        time.sleep(0.2)
    alive = process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    if alive:
        process.kill()
    assert not alive, "the actor process did not exit within 20 s of leaving"
