"""`exchange maker target`: the market maker walks a pair's price to a target within 30 s, trading as
it goes, so the pair's mark (market/mark, the tick log) gets there; the command says clearly when no
maker runs, the pair is unknown, or the target lies outside the pair's band."""

from __future__ import annotations

import asyncio
import time
from decimal import Decimal
from typing import Any

import httpx
import ray

from actors.maker.actor import MarketMaker
from actors.names import MAKER_NAME
from serve.stack import Stack
from tests.utils.cli import exchange
from tests.utils.prices import live_mark, wait_for
from tests.utils.users import ok

BTC_USDT = 1


def tick_log(api: httpx.Client, pair_id: int, since_ms: int) -> dict[str, Any]:
    """market/ticks of the pair from ``since_ms`` until now."""
    window = {"currency_match_id": pair_id, "from": since_ms, "to": int(time.time() * 1000)}
    return ok(api.get("market/ticks", params=window))


def test_the_command_says_when_no_market_maker_runs(stack: Stack) -> None:
    done = exchange(stack.settings, "maker", "target", "BTC/USDT", "70000")
    assert done.returncode == 1
    assert "no market maker is running" in done.stderr


async def test_the_maker_walks_btc_usdt_ten_percent_up_within_30_s(stack: Stack, api: httpx.Client) -> None:
    maker = MarketMaker.options(name=MAKER_NAME).remote(stack.settings.model_dump(mode="json"), [BTC_USDT])
    try:
        assert await maker.start.remote() == 1
        start = Decimal(wait_for(lambda: live_mark(api, BTC_USDT), "a mark on BTC/USDT", 30)["price"])
        target = (start * Decimal("1.1")).quantize(Decimal(1))

        unknown = await asyncio.to_thread(exchange, stack.settings, "maker", "target", "XYZ/USDT", "1")
        assert unknown.returncode == 1
        assert "quotes no pair XYZ/USDT (it quotes BTC/USDT)" in unknown.stderr
        far = await asyncio.to_thread(exchange, stack.settings, "maker", "target", "btc/usdt", str(start * 6))
        assert far.returncode == 1
        assert "outside BTC/USDT's price band around its mark" in far.stderr
        grid = await asyncio.to_thread(exchange, stack.settings, "maker", "target", "BTC/USDT", "70000.00001")
        assert "BTC/USDT prices have at most 4 decimals" in grid.stderr

        began_ms, began = int(time.time() * 1000), time.monotonic()
        done = await asyncio.to_thread(exchange, stack.settings, "maker", "target", "BTC/USDT", str(target))
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"mark now {target}" in done.stdout
        walked_s = float(done.stdout.split(" in ")[1].split(" s;")[0])
        assert walked_s <= 30
        assert time.monotonic() - began < 60  # the command's own start (joining Ray) included

        ticks = tick_log(api, BTC_USDT, began_ms)
        prices = [Decimal(t["price"]) for t in ticks["ticks"]]
        assert ticks["chained"] and target in prices
        between = {p for p in prices if start * Decimal("1.01") < p < target * Decimal("0.99")}
        assert len(between) >= 5, prices  # it walked there through trades, not in one jump
    finally:
        await maker.stop.remote()
        ray.kill(maker, no_restart=True)
