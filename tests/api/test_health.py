"""GET /api/health reports each part of the exchange, and 503 when one of them does not answer."""

from __future__ import annotations

import httpx
import ray

from actors.names import fanout_name, lever_name
from serve.stack import Stack
from tests.utils.users import member, ok


def test_health_reports_every_part_up(api: httpx.Client, stack: Stack) -> None:
    report = ok(api.get("health"))
    assert (report["database"], report["redis"], report["fanout"]) == (True, True, True)
    assert report["fanouts"] == {"node-1": True, "node-2": True}  # one per node
    assert report["placement"] is True
    assert report["pairs"] == {symbol: True for _, symbol in stack.pairs}
    assert report["lever"] == {f"lever:{i}": True for i in range(stack.settings.lever_shards)}


def test_health_answers_503_when_one_nodes_fanout_is_gone(api: httpx.Client, stack: Stack) -> None:
    fanout = ray.get_actor(fanout_name("node-2"))
    ray.get(fanout.stop.remote())
    ray.kill(fanout, no_restart=True)
    try:
        answer = api.get("health")
        body = answer.json()
        assert (answer.status_code, body["code"]) == (503, 0), body
        assert body["data"]["fanouts"] == {"node-1": True, "node-2": False}
        assert body["data"]["fanout"] is False and body["data"]["database"] is True
    finally:
        stack._start_fanout(stack.settings)  # later tests push through it
    assert ok(api.get("health"))["fanout"] is True


def test_health_answers_503_when_a_lever_shard_is_gone(api: httpx.Client, stack: Stack) -> None:
    """And the API, which knew the old shard, reaches the one started in its place."""
    trader = next(m for m in (member(api) for _ in range(8)) if m.uid % stack.settings.lever_shards == 0)
    deal = lambda: api.post("lever/deal", json={"currency_match_id": 1}, headers=trader.auth)  # noqa: E731
    ok(deal())  # the API replica now holds a handle to lever:0
    ray.kill(ray.get_actor(lever_name(0)), no_restart=True)
    try:
        answer = api.get("health")
        assert (answer.status_code, answer.json()["data"]["lever"]["lever:0"]) == (503, False), answer.text
        assert deal().status_code == 503
    finally:
        stack._start_lever(stack.settings.model_dump(mode="json"), stack.settings.lever_shards)  # later tests use it
    assert ok(api.get("health"))["lever"]["lever:0"] is True
    ok(deal())  # not the dead handle: the failure above made the API look the name up again
