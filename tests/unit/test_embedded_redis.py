"""The embedded Redis of `make run` keeps its data across restarts (sessions survive them)."""

from __future__ import annotations

from pathlib import Path

from redis import Redis

from serve.embedded_redis import EmbeddedRedis


def test_the_embedded_redis_dumps_its_data_and_loads_it_on_the_next_start(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path)
    try:
        client = Redis.from_url(server.start())
        assert client.config_get("save") == {"save": "60 1"}  # a dump every minute something changed
        client.set("ex:session:probe", "7")
        client.close()
    finally:
        server.stop()  # SIGTERM: Redis saves once more when saving is on
    again = EmbeddedRedis(tmp_path)
    try:
        client = Redis.from_url(again.start())
        assert client.get("ex:session:probe") == b"7"
        client.close()
    finally:
        again.stop()


def test_the_test_sessions_embedded_redis_saves_nothing(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path, persist=False)
    try:
        client = Redis.from_url(server.start())
        assert client.config_get("save") == {"save": ""}
        client.close()
    finally:
        server.stop()
