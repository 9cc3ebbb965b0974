"""Live prices (issue 10): each pair's mark price (median of best bid, best ask and last trade) is
pushed on MARK.<symbol>, kept in Redis, and appended to a durable, ordered, hash-chained tick log
that answers "the last tick at or before t" and carries on across a restart of the pair."""

from __future__ import annotations

import asyncio
import json
import time
from decimal import Decimal
from typing import Any

import httpx
import pytest
import ray
from websockets.asyncio.client import ClientConnection, connect

from actors.pair.actor import pair_name
from actors.pair.marks import GENESIS, mark_of
from serve.stack import Stack
from tests.utils.prices import best, cross, deal, inside_price
from tests.utils.users import Member, member, ok
from tests.utils.wallets import fund

ETH_USDT, LTC_USDT = 2, 3


@pytest.fixture
async def pair_of_traders(api: httpx.Client, db: None) -> tuple[Member, Member]:
    seller, buyer = member(api), member(api)
    await fund(seller, "ETH", "10")
    await fund(seller, "LTC", "100")
    await fund(buyer, "USDT", "100000")
    return seller, buyer


def ticks(api: httpx.Client, pair_id: int, since_ms: int = 0) -> dict[str, Any]:
    params = {"currency_match_id": pair_id, "from": since_ms, "to": int(time.time() * 1000) + 1000}
    return ok(api.get("market/ticks", params=params))


async def marks_until(ws: ClientConnection, price: Decimal, wait: float = 10) -> dict[str, Any]:
    async def read() -> dict[str, Any]:
        while True:
            message = json.loads(await ws.recv())
            if message.get("type") == "mark" and Decimal(message["price"]) == price:
                return message

    return await asyncio.wait_for(read(), wait)


async def test_a_trade_moves_the_mark_pushed_kept_and_logged(
    stack: Stack, api: httpx.Client, pair_of_traders: tuple[Member, Member]
) -> None:
    seller, buyer = pair_of_traders
    url = f"ws://{stack.settings.http_host}:{stack.settings.ws_port}/ws"
    async with connect(url) as ws:
        await ws.send(json.dumps({"type": "sub", "params": "MARK.ETH/USDT"}))
        assert json.loads(await ws.recv()) == {"type": "sub", "params": "MARK.ETH/USDT", "code": 1}
        await asyncio.sleep(0.3)  # the fanout subscribes upstream asynchronously
        mark = inside_price(await asyncio.to_thread(deal, api, ETH_USDT))
        await asyncio.to_thread(cross, api, seller, buyer, ETH_USDT, "0.01", str(mark))
        snapshot = await asyncio.to_thread(deal, api, ETH_USDT)
        assert mark_of(*best(snapshot), 4) == mark  # the median of the book's best prices and the trade
        pushed = await marks_until(ws, mark)
    assert pushed["symbol"] == "ETH/USDT" and pushed["currency_match_id"] == ETH_USDT
    live = ok(await asyncio.to_thread(api.get, "market/mark", params={"currency_match_id": ETH_USDT}))
    assert (Decimal(live["price"]), live["id"], live["fresh"]) == (mark, pushed["id"], True)
    assert {"price", "id", "time", "hash"} <= snapshot["mark"].keys()  # market/deal shows the latest tick too
    log = await asyncio.to_thread(ticks, api, ETH_USDT)
    assert log["chained"] is True and log["ticks"][0]["prev_hash"] == GENESIS
    assert log["ticks"][-1] == {k: pushed[k] for k in log["ticks"][-1]}  # the push is the log's newest tick
    at = ok(await asyncio.to_thread(api.get, "market/tick_at",
                                    params={"currency_match_id": ETH_USDT, "time": pushed["time"]}))  # fmt: skip
    assert at["id"] == pushed["id"]
    earlier = ok(await asyncio.to_thread(api.get, "market/tick_at",
                                         params={"currency_match_id": ETH_USDT, "time": pushed["time"] - 1}))  # fmt: skip
    assert earlier is None or earlier["seq"] == pushed["seq"] - 1
    assert (
        ok(await asyncio.to_thread(api.get, "market/tick_at", params={"currency_match_id": ETH_USDT, "time": 0}))
        is None
    )


async def test_ticks_keep_their_interval_and_the_chain_survives_a_restart(
    stack: Stack, api: httpx.Client, pair_of_traders: tuple[Member, Member]
) -> None:
    seller, buyer = pair_of_traders
    start = int(time.time() * 1000)
    for _ in range(6):  # six marks in quick succession: at most one tick per interval
        price = inside_price(await asyncio.to_thread(deal, api, LTC_USDT))
        await asyncio.to_thread(cross, api, seller, buyer, LTC_USDT, "0.1", str(price))
    await asyncio.sleep(0.5)
    burst = (await asyncio.to_thread(ticks, api, LTC_USDT, start))["ticks"]
    assert burst, "the trades moved the mark: there are ticks"
    interval = stack.settings.mark_interval_ms
    assert all(b["time"] - a["time"] >= interval for a, b in zip(burst, burst[1:], strict=False))
    last = burst[-1]

    ray.kill(ray.get_actor(pair_name("LTC/USDT")), no_restart=False)
    deadline = time.monotonic() + 60
    while (await asyncio.to_thread(api.get, "market/deal", params={"currency_match_id": LTC_USDT})).status_code != 200:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.5)
    price = inside_price(await asyncio.to_thread(deal, api, LTC_USDT))
    await asyncio.to_thread(cross, api, seller, buyer, LTC_USDT, "0.1", str(price))
    deadline = time.monotonic() + 10
    while True:
        log = (await asyncio.to_thread(ticks, api, LTC_USDT, last["time"]))["ticks"]
        if len(log) > 1:
            break
        assert time.monotonic() < deadline, "the restarted pair wrote no tick"
        await asyncio.sleep(0.2)
    first_after = log[1]
    assert (first_after["seq"], first_after["prev_hash"]) == (last["seq"] + 1, last["hash"])  # the same chain
    assert (await asyncio.to_thread(ticks, api, LTC_USDT))["chained"] is True


async def test_a_pair_that_stops_confirming_its_mark_goes_stale(stack: Stack, api: httpx.Client) -> None:
    pair = ray.get_actor(pair_name("LTC/USDT"))
    params = {"currency_match_id": LTC_USDT}
    assert ok(await asyncio.to_thread(api.get, "market/mark", params=params))["fresh"] is True
    await pair.pause.remote()  # its queue takes nothing: no confirmation either
    try:
        await asyncio.sleep(stack.settings.mark_stale_seconds + 1.5)
        assert ok(await asyncio.to_thread(api.get, "market/mark", params=params))["fresh"] is False
    finally:
        await pair.resume.remote()
    deadline = time.monotonic() + 5
    while not ok(await asyncio.to_thread(api.get, "market/mark", params=params))["fresh"]:
        assert time.monotonic() < deadline, "the resumed pair did not confirm its mark again"
        await asyncio.sleep(0.2)


async def test_the_day_market_push_carries_the_live_usd_and_cny_prices(
    stack: Stack, api: httpx.Client, pair_of_traders: tuple[Member, Member]
) -> None:
    seller, buyer = pair_of_traders
    groups = ok(await asyncio.to_thread(api.get, "market/currency_matches"))
    rate = Decimal(next(g for g in groups if g["code"] == "USDT")["cny_price"])  # 1 USDT in CNY: the site's rate
    url = f"ws://{stack.settings.http_host}:{stack.settings.ws_port}/ws"
    async with connect(url) as ws:
        await ws.send(json.dumps({"type": "sub", "params": "DAY_MARKET"}))
        assert json.loads(await ws.recv())["code"] == 1
        await asyncio.sleep(0.3)
        price = inside_price(await asyncio.to_thread(deal, api, ETH_USDT))
        await asyncio.to_thread(cross, api, seller, buyer, ETH_USDT, "0.01", str(price))

        async def read() -> dict[str, Any]:
            while True:
                message = json.loads(await ws.recv())
                quote = message.get("quotation") or {}
                if message.get("currency_match_id") == ETH_USDT and Decimal(quote.get("close", 0)) == price:
                    return quote

        quotation = await asyncio.wait_for(read(), 10)
    assert Decimal(quotation["usd_price"]) == price  # quoted in USDT, which is worth 1 USD
    assert Decimal(quotation["cny_price"]) == price * rate
