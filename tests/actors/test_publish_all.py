"""``channels.publish_all``: a batch of pushes as one Redis command (a script) reaches every subscriber in
the order given, on the session's Redis and on the embedded one ``make run`` starts."""

from __future__ import annotations

import json
import time
from pathlib import Path

from redis.asyncio import Redis

from config.settings import Settings
from serve.embedded_redis import EmbeddedRedis
from store import channels
from store.cache import connect_redis


async def _received(redis: Redis, topics: list[str], messages: list[tuple[str, str]]) -> list[tuple[str, str]]:
    pubsub = redis.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(*topics)
    await channels.publish_all(redis, messages)
    await channels.publish_all(redis, [])  # nothing to send: no command, no error
    got: list[tuple[str, str]] = []
    deadline = time.monotonic() + 10
    while len(got) < len(messages) and time.monotonic() < deadline:
        message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
        if message is not None:
            got.append((message["channel"], message["data"]))
    await pubsub.aclose()
    return got


def _batch(prefix: str) -> tuple[list[str], list[tuple[str, str]]]:
    topics = [f"{prefix}:a", f"{prefix}:b"]
    messages = [(topics[i % 2], json.dumps({"n": i, "text": "é" * (i % 3)})) for i in range(601)]
    return topics, messages


async def test_a_batch_reaches_its_subscribers_in_order(settings: Settings) -> None:
    redis = connect_redis(settings)
    topics, messages = _batch(channels.user_topic(0, "publish-all"))
    assert await _received(redis, topics, messages) == messages
    await redis.aclose()


async def test_the_embedded_redis_runs_the_script(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path, persist=False)
    try:
        redis = Redis.from_url(server.start(), decode_responses=True)  # as connect_redis answers
        topics, messages = _batch("embedded")
        assert await _received(redis, topics, messages) == messages
        await redis.aclose()
    finally:
        server.stop()
