"""A push fanout on every node: clients spread over them, and each client gets every push whichever
fanout holds its connection (each is fed by Redis)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

import httpx
import ray
from websockets.asyncio.client import connect

from actors.names import fanout_name
from serve.stack import Stack
from store.cache import connect_redis
from store.channels import public_topic

CLIENTS = 24


async def test_clients_spread_over_the_fanouts_of_both_nodes_and_all_get_pushes(stack: Stack) -> None:
    url = f"ws://{stack.settings.http_host}:{stack.settings.ws_port}/ws"
    async with contextlib.AsyncExitStack() as sockets:
        clients = [await sockets.enter_async_context(connect(url)) for _ in range(CLIENTS)]
        for ws in clients:
            await ws.send(json.dumps({"type": "sub", "params": "DAY_MARKET"}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["code"] == 1

        counts = {label: (await ray.get_actor(fanout_name(label)).stats.remote())["connections"]
                  for label in ("node-1", "node-2")}  # fmt: skip
        assert sum(counts.values()) >= CLIENTS and all(counts.values()), counts  # the kernel spread them

        redis = connect_redis(stack.settings)
        event = '{"type":"daymarket","currency_match_id":1,"symbol":"BTC/USDT","quotation":{"close":"2"}}'
        firsts = [asyncio.create_task(asyncio.wait_for(ws.recv(), 15)) for ws in clients]
        try:
            # Published again until every socket has it: a fanout subscribes upstream asynchronously.
            while not all(task.done() for task in firsts):
                await redis.publish(public_topic("DAY_MARKET"), event)
                await asyncio.wait(firsts, timeout=0.2)
            got = [task.result() for task in firsts]
        finally:
            await redis.aclose()
        assert all(json.loads(message)["quotation"]["close"] == "2" for message in got)


def test_a_node_that_joins_gets_its_fanout_and_the_health_report_follows_it(stack: Stack, api: httpx.Client) -> None:
    assert stack.cluster is not None
    node = stack.cluster.add_node(num_cpus=0, node_name="node-3", resources={"pairs": 10})
    try:
        stack.cover_new_nodes()  # what `exchange up` runs every NODE_CHECK_S
        assert ray.get(ray.get_actor(fanout_name("node-3")).stats.remote())["connections"] == 0
        fanouts = api.get("health").json()["data"]["fanouts"]
        assert fanouts == {"node-1": True, "node-2": True, "node-3": True}
    finally:
        stack.cluster.remove_node(node)
    deadline = time.monotonic() + 60
    while "node-3" in (report := api.get("health").json()["data"])["fanouts"]:
        assert time.monotonic() < deadline, report
        time.sleep(0.5)
    assert report["fanouts"] == {"node-1": True, "node-2": True}
    stack.cover_new_nodes()  # the next check forgets the node that left
    assert set(stack.fanouts) == {"node-1", "node-2"}
