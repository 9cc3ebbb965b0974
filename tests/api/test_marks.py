"""Live prices (issue 10): each pair's mark price is pushed on MARK.<symbol>, kept in Redis, and appended
to a durable, ordered, hash-chained tick log that answers "the last tick at or before t" and carries on
across a restart of the pair. Issue 27: the mark is the smoothed median of impact bid, impact ask and
last price over a per-pair impact notional, so one order worth less than it no longer sets it, the
house's trades with itself do not count, and every tick says which rule made it."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from decimal import Decimal
from typing import Any

import httpx
import pytest
import ray
from websockets.asyncio.client import ClientConnection, connect

from actors.pair.directory import pair_actor
from actors.pair.mark_rule import mark_of
from actors.pair.marks import GENESIS
from serve.stack import Stack
from store.models import User
from tests.api.test_admin import make_operator, token_of
from tests.utils.prices import best, cross, deal, inside_price, live_mark, mark_traders, wait_for
from tests.utils.sales import post
from tests.utils.users import Member, member, ok
from tests.utils.wallets import fund

BTC_USDT, ETH_USDT, LTC_USDT = 1, 2, 3
RULES = ("impact", "thin", "mid")


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
    assert pushed["rule"] == live["rule"] in RULES and pushed["version"] == 2  # which rule made it, hashed
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

    ray.kill(pair_actor("LTC/USDT"), no_restart=False)
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
    pair = pair_actor("LTC/USDT")
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


@asynccontextmanager
async def impact_notional(api: httpx.Client, pair_id: int, value: str) -> AsyncIterator[None]:
    """The pair's impact notional set to ``value`` through the console (the running pair takes it at
    once), and back to what it was afterwards."""
    op, secret = await make_operator("markets")
    auth = token_of(api, op, secret)
    pairs = {p["id"]: p for p in ok(await asyncio.to_thread(api.get, "admin/pairs", headers=auth))}
    was = pairs[pair_id]["impact_notional"]
    changed = ok(post(api, "admin/pairs/update", json={"id": pair_id, "impact_notional": value}, headers=auth))
    assert (changed["impact_notional"], changed["applied_live"]) == (value, True)
    try:
        yield
    finally:
        ok(post(api, "admin/pairs/update", json={"id": pair_id, "impact_notional": was}, headers=auth))


def place(api: httpx.Client, m: Member, way: str, number: str, price: Decimal) -> dict[str, Any]:
    body = {"currency_match_id": BTC_USDT, "number": number, "price": str(price)}
    return ok(api.post(f"{way}/add", json=body, headers=m.auth))


def cancel_all(api: httpx.Client, *members: Member) -> None:
    for m in members:
        for way in ("tx_in", "tx_out"):
            listed = ok(api.get(f"{way}/list", params={"currency_match_id": BTC_USDT, "limit": 100}, headers=m.auth))
            for order in listed["data"]:
                ok(api.post(f"{way}/cancel", json={"id": order["id"]}, headers=m.auth))


def settled_mark(api: httpx.Client, pair_id: int, price: Decimal) -> dict[str, Any]:
    def shown() -> dict[str, Any] | None:
        mark = live_mark(api, pair_id)
        return mark if mark and Decimal(mark["price"]) == price and mark["fresh"] else None

    return wait_for(shown, f"the mark of pair {pair_id} to become {price}")


async def test_one_order_worth_less_than_the_impact_notional_does_not_set_the_mark(
    stack: Stack, api: httpx.Client, db: None
) -> None:
    """Issue 27, item 6: one resting bid inside BTC/USDT's spread made the mark (the median of the touch
    and the last trade), and two accounts trading small amounts inside the spread held it where they
    wanted. With an impact notional of 1,000 USDT, neither moves it."""
    depth, small, (wash_seller, wash_buyer) = await mark_traders(api), member(api), await mark_traders(api)
    await fund(small, "USDT", "1000")
    seller, buyer = depth
    window = stack.settings.mark_window_ms / 1000
    async with impact_notional(api, BTC_USDT, "1000"):
        try:
            mark = Decimal(live_mark(api, BTC_USDT)["price"]).quantize(Decimal(1))  # type: ignore[index]
            low, high = mark * Decimal("0.99"), mark * Decimal("1.01")
            place(api, buyer, "tx_in", "0.05", low)  # about 3,400 USDT bid 1 % below ...
            place(api, seller, "tx_out", "0.05", high)  # ... and offered 1 % above
            cross(api, seller, buyer, BTC_USDT, "0.02", str(mark))  # about 1,360 USDT traded at the mark
            settled_mark(api, BTC_USDT, mark)
            inputs = deal(api, BTC_USDT)["mark_inputs"]
            assert (inputs["notional"], inputs["rule"], Decimal(inputs["last"])) == ("1000", "impact", mark)
            assert Decimal(inputs["impact_bid"]) == low and Decimal(inputs["impact_ask"]) == high
            since = int(time.time() * 1000)

            inside = high - Decimal("0.0001")  # one bid of about 48 USDT a tick under the best ask
            place(api, small, "tx_in", "0.0007", inside)
            await asyncio.sleep(window + 1)
            after = live_mark(api, BTC_USDT)
            assert after is not None and Decimal(after["price"]) == mark, "one small bid set the mark"
            inputs = deal(api, BTC_USDT)["mark_inputs"]
            assert low < Decimal(inputs["impact_bid"]) < mark == Decimal(inputs["raw"])  # it weighs its share
            logged = (await asyncio.to_thread(ticks, api, BTC_USDT, since))["ticks"]
            assert inside not in {Decimal(t["price"]) for t in logged}
            cancel_all(api, small)

            wanted = mark * Decimal("1.005")  # two accounts trading about 48 USDT at a time where they want it
            for _ in range(3):
                cross(api, wash_seller, wash_buyer, BTC_USDT, "0.0007", str(wanted))
            await asyncio.sleep(window + 1)
            held = Decimal(live_mark(api, BTC_USDT)["price"])  # type: ignore[index]
            share = 3 * Decimal("0.0007") * wanted / 1000  # of the notional: about 14 %
            assert mark < held <= mark + share * (wanted - mark) + Decimal("0.0002"), (mark, held, wanted)
        finally:
            cancel_all(api, seller, buyer, small, wash_seller, wash_buyer)


async def test_the_house_trading_with_itself_does_not_make_the_last_price(stack: Stack, api: httpx.Client,
                                                                           db: None) -> None:  # fmt: skip
    """Two accounts of the house (the market maker's bots) trading with each other: not counted."""
    seller, buyer = await mark_traders(api)
    await User.filter(id__in=[seller.uid, buyer.uid]).update(is_bot=True)
    await asyncio.sleep(2)  # the pairs read the house's accounts again every second
    before = deal(api, ETH_USDT)
    mark = Decimal(live_mark(api, ETH_USDT)["price"])  # type: ignore[index]
    price = inside_price(before)
    await asyncio.to_thread(cross, api, seller, buyer, ETH_USDT, "0.05", str(price))
    await asyncio.sleep(stack.settings.mark_window_ms / 1000 + 1)
    after = deal(api, ETH_USDT)
    assert Decimal(after["quotation"]["close"]) == price  # it traded ...
    assert after["mark_inputs"]["last"] == before["mark_inputs"]["last"]  # ... but made no last price
    assert Decimal(live_mark(api, ETH_USDT)["price"]) == mark != price  # type: ignore[index]
