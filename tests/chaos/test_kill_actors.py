"""Kill the pair and wallet actors while orders stream in; then nothing is lost or counted twice
(the invariants of DESIGN.md, ``tests.utils.trading.assert_invariants``)."""

from __future__ import annotations

import time

import httpx
import ray

from actors.pair.actor import pair_name
from actors.wallet.shard import wallet_name
from serve.stack import Stack
from tests.utils.trading import Stream, assert_invariants, funded_traders, quiesce

TRADERS = 6


async def test_killing_pair_and_wallet_actors_loses_nothing(stack: Stack, api: httpx.Client, db: None) -> None:
    traders = await funded_traders(api, TRADERS, "chaos")
    stream = Stream(api, traders)
    stream.start()
    # Kills happen at order-count milestones (not times), so the scenario is the same on any machine.
    schedule = [
        (10, [pair_name("LTC/USDT")]),
        (20, [wallet_name(0)]),
        (30, [wallet_name(1), pair_name("LTC/USDT")]),
        (45, []),
    ]
    deadline = time.monotonic() + 240
    try:
        for milestone, victims in schedule:
            await stream.wait_for(milestone, deadline)
            for name in victims:
                ray.kill(ray.get_actor(name), no_restart=False)
    finally:
        stream.stop()
    assert set(stream.outcomes) <= {200, 400, 404, 409, 503}, dict(stream.outcomes)  # refused or busy, never a 500

    await quiesce(stack)
    await assert_invariants(stream.accepted, traders)
