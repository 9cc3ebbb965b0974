"""Twenty kills over the pair, wallet, fanout and placement actors while orders stream in (one by
one, in batches of tx/batch_add and pipelined over the websocket), and a restart of PostgreSQL in the middle of the stream; then
nothing is lost or counted twice (the invariants of docs/architecture.md "The order path",
``tests.utils.trading.assert_invariants``) and every pair answered again within 10 s of each kill and of the database's return."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import ray

from actors.names import PLACEMENT_NAME, fanout_name, pair_name, wallet_name
from actors.pair.directory import current
from serve.stack import Stack
from tests.utils.trading import Stream, assert_invariants, funded_traders, quiesce

TRADERS = 6
KILLS = 20
ORDERS_PER_KILL = 6
BACK_WITHIN_S = 10.0  # the bound: a deadline for coming back, not a speed figure


def victims(stack: Stack) -> list[str]:
    """Twenty actors to kill, in turn: the streamed pair, the other pairs, both wallet shards, each
    node's fanout and the placement actor."""
    kinds = [
        pair_name("LTC/USDT"),
        wallet_name(0),
        "fanout:node-1",
        PLACEMENT_NAME,
        wallet_name(1),
        pair_name("BTC/USDT"),
        fanout_name("node-2"),
        pair_name("LTC/USDT"),
        pair_name("ETH/USDT"),
        wallet_name(0),
    ]
    assert len(stack.pairs) >= 3 and stack.settings.wallet_shards == 2
    return (kinds * 2)[:KILLS]


async def answers(name: str) -> None:
    """One call that the actor of ``name`` answers only once it serves again."""
    actor = ray.get_actor(current(name))
    if name.startswith("pair:"):
        await actor.ping.remote()
    elif name.startswith("wallet:"):
        await actor.ping.remote()
    elif name.startswith("fanout:"):
        await actor.stats.remote()
    else:
        await actor.symbols.remote()


async def back_within(stack: Stack, names: list[str], bound_s: float) -> float:
    """Seconds until every actor in ``names`` and every pair answers; fails past ``bound_s``."""
    began = time.monotonic()
    waiting = set(names) | {pair_name(symbol) for _, symbol in stack.pairs}
    while waiting:
        for name in list(waiting):
            try:
                await asyncio.wait_for(answers(name), 2)
                waiting.discard(name)
            except Exception:  # dead, restarting, still loading, or the database is still coming back
                pass
        elapsed = time.monotonic() - began
        assert not waiting or elapsed < bound_s, f"{sorted(waiting)} did not answer within {bound_s} s"
        if waiting:
            await asyncio.sleep(0.1)
    return time.monotonic() - began


def restart_postgres(settings: Any) -> bool:
    """Restart the PostgreSQL cluster the session runs on (CI's and this machine's, on 127.0.0.1);
    False when the session runs on SQLite or the cluster is not managed here."""
    if not (settings.database_url or "").startswith("postgres") or shutil.which("pg_ctlcluster") is None:
        return False
    version = sorted(p.name for p in Path("/etc/postgresql").iterdir())[0]
    subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart"], check=True,
                   capture_output=True, timeout=120)  # fmt: skip
    return True


async def test_kills_and_a_database_restart_lose_nothing(stack: Stack, api: httpx.Client, db: None) -> None:
    traders = await funded_traders(api, TRADERS, "chaos")
    url = f"ws://{stack.settings.http_host}:{stack.settings.ws_port}/ws"
    # of the four threads: one places through tx/batch_add, one over the websocket, two one by one
    stream = Stream(api, traders, batches=1, sockets=1, ws_url=url)
    stream.start()
    recoveries: list[tuple[str, float]] = []
    deadline = time.monotonic() + 600
    try:
        # Kills happen at order-count milestones (not times), so the scenario is the same on any machine.
        for index, name in enumerate(victims(stack)):
            await stream.wait_for((index + 1) * ORDERS_PER_KILL, deadline)
            ray.kill(ray.get_actor(current(name)), no_restart=False)
            recoveries.append((name, await back_within(stack, [name], BACK_WITHIN_S)))
            if index == KILLS // 2 and await asyncio.to_thread(restart_postgres, stack.settings):
                recoveries.append(("postgresql", await back_within(stack, [], BACK_WITHIN_S)))
        await stream.wait_for((KILLS + 2) * ORDERS_PER_KILL, deadline)
    finally:
        stream.stop()
    print("back after each kill (s):", ", ".join(f"{name} {s:.1f}" for name, s in recoveries))
    assert set(stream.outcomes) <= {200, 400, 404, 409, 503}, dict(stream.outcomes)  # refused or busy, never a 500
    assert set(stream.paths) == {"rest", "batch", "socket"}, dict(stream.paths)  # every entry path streamed

    await quiesce(stack)
    await assert_invariants(stream.accepted, traders)
