"""Orders over the websocket (issue 15, part 3): after login a client places and cancels spot orders
on its /ws connection and gets an ``order_ack`` per command with the code, message and data of the
REST call, pipelined (many in flight on one connection), rate-limited per connection."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from serve.stack import Stack
from tests.utils.spot import CENT, ETH_USDT, assert_locks_are_holds, batch, cancel, eventually, mark, order
from tests.utils.users import Member, error, member, ok
from tests.utils.wallets import ETH, USDT, balance, fund, system_totals


@pytest.fixture
async def alice(api: httpx.Client, db: None) -> Member:
    """A new user with 2 ETH and 10,000 USDT."""
    user = member(api)
    await fund(user, "ETH", "2")
    await fund(user, "USDT", "10000")
    return user


@pytest.fixture
async def socket(stack: Stack) -> AsyncIterator[ClientConnection]:
    async with connect(f"ws://{stack.settings.http_host}:{stack.settings.ws_port}/ws") as ws:
        yield ws


async def log_in(ws: ClientConnection, m: Member, lang: str = "") -> None:
    await ws.send(json.dumps({"type": "login", "token": m.token, **({"lang": lang} if lang else {})}))
    assert json.loads(await ws.recv()) == {"type": "login", "code": 1, "uid": m.uid}


async def acks(ws: ClientConnection, count: int, wait: float = 20) -> dict[Any, dict[str, Any]]:
    """The next ``count`` order_acks, by client id (pushes in between are skipped)."""
    found: dict[Any, dict[str, Any]] = {}

    async def read() -> None:
        while len(found) < count:
            message = json.loads(await ws.recv())
            if message.get("type") == "order_ack":
                assert message["id"] not in found, message  # one ack per command
                found[message["id"]] = message
            else:
                assert message.get("type") in ("pong", "login"), message

    await asyncio.wait_for(read(), wait)
    return found


async def command(ws: ClientConnection, kind: str, client_id: Any, params: Any) -> dict[str, Any]:
    await ws.send(json.dumps({"type": kind, "id": client_id, "params": params}))
    return (await acks(ws, 1))[client_id]


async def test_place_and_cancel_over_the_socket_answer_as_rest_does(
    api: httpx.Client, alice: Member, socket: ClientConnection
) -> None:
    await log_in(socket, alice)
    eth = await asyncio.to_thread(mark, api, ETH_USDT)
    low = (eth * Decimal("0.5")).quantize(CENT)
    ack = await command(socket, "order", 7, order("buy", ETH_USDT, "0.1", low))
    assert (ack["type"], ack["id"], ack["code"], ack["msg"]) == ("order_ack", 7, 1, "Order placed")
    placed = ack["data"]
    assert (placed["way"], placed["currency_match_id"], placed["status"], Decimal(placed["price"])) == (
        1,
        ETH_USDT,
        1,
        low,
    )
    assert await asyncio.to_thread(balance, api, alice, USDT) == (Decimal(10000) - low / 10, low / 10)
    listed = ok(await asyncio.to_thread(api.get, "tx_in/list", headers=alice.auth))["data"]
    assert [o["id"] for o in listed] == [placed["id"]]  # the REST list shows the socket's order

    gone = await command(socket, "cancel", "c-1", {"id": placed["id"]})
    assert (gone["id"], gone["code"], gone["msg"], gone["data"]["status"]) == ("c-1", 1, "Order cancelled", 4)
    assert await asyncio.to_thread(balance, api, alice, USDT) == (Decimal(10000), Decimal(0))
    again = await command(socket, "cancel", "c-2", {"id": placed["id"]})
    assert (again["code"], again["msg"], again["data"]) == (0, "The order is no longer open", None)


async def test_a_socket_order_trades_with_a_rest_order_and_keeps_every_sum(
    api: httpx.Client, alice: Member, socket: ClientConnection, quiet_books: None
) -> None:
    bob = await asyncio.to_thread(member, api)
    await fund(bob, "USDT", "10000")
    before = await system_totals()
    eth = await asyncio.to_thread(mark, api, ETH_USDT)
    await log_in(socket, alice)
    sold = await command(socket, "order", 1, order("sell", ETH_USDT, "0.3", eth))
    assert sold["code"] == 1, sold
    taken = await asyncio.to_thread(
        api.post,
        "tx_in/add",
        json={"currency_match_id": ETH_USDT, "number": "0.3", "price": str(eth)},
        headers=bob.auth,
    )
    assert ok(taken)["transacted_amount"] == "0.3"

    def settled() -> None:
        assert balance(api, alice, ETH) == (Decimal("1.7"), Decimal(0))
        assert_locks_are_holds(api, bob)

    await asyncio.to_thread(eventually, settled)
    totals = await system_totals()
    assert {c: totals[c] for c in (USDT, ETH)} == {c: before[c] for c in (USDT, ETH)}  # fees included


async def test_refusals_are_the_rest_calls_own_in_the_login_language(
    api: httpx.Client, alice: Member, socket: ClientConnection
) -> None:
    eth = await asyncio.to_thread(mark, api, ETH_USDT)
    bad = [
        order("buy", ETH_USDT, "abc", eth),
        order("buy", ETH_USDT, "0.1", "1.00001"),
        order("buy", ETH_USDT, "1000", eth),
        {"currency_match_id": ETH_USDT, "number": "1", "price": str(eth)},
        order("buy", 999, "1", "1"),
        order("buy", ETH_USDT, "0.0001", eth),
        "not an order",
    ]
    for lang in ("en", "fr"):
        await log_in(socket, alice, lang)
        for i, params in enumerate(bad):
            await socket.send(json.dumps({"type": "order", "id": i, "params": params}))
        answers = await acks(socket, len(bad))
        rest = await asyncio.to_thread(
            api.post, "tx/batch_add", json={"orders": bad}, headers={**alice.auth, "lang": lang}
        )
        expected = ok(rest)["results"]
        assert [(answers[i]["code"], answers[i]["msg"], answers[i]["data"]) for i in range(len(bad))] == [
            (r["code"], r["msg"], r["data"]) for r in expected
        ]
        assert {a["code"] for a in answers.values()} == {0}
    single = await asyncio.to_thread(api.post, "tx_in/add", json=order("buy", ETH_USDT, "1000", eth),
                                     headers={**alice.auth, "lang": "fr"})  # fmt: skip
    assert answers[2]["msg"] == error(single, 400) != "Insufficient balance"
    assert await asyncio.to_thread(balance, api, alice, USDT) == (Decimal(10000), Decimal(0))


async def test_commands_need_a_login_a_client_id_and_good_params(
    api: httpx.Client, alice: Member, socket: ClientConnection
) -> None:
    one = order("buy", ETH_USDT, "0.01", "1000")
    logged_out = await command(socket, "order", 1, one)
    assert (logged_out["code"], logged_out["msg"], logged_out["data"]) == (999, "Please log in first", None)
    await socket.send(json.dumps({"type": "login", "token": "not-a-token"}))
    assert json.loads(await socket.recv()) == {"type": "login", "code": 999}
    assert (await command(socket, "cancel", 2, {"id": 1}))["code"] == 999

    await log_in(socket, alice)
    for bad_id in (None, [1], {"a": 1}, "", "x" * 65, True, 2**63):
        await socket.send(json.dumps({"type": "order", "id": bad_id, "params": one}))
        ack = (await acks(socket, 1))[None]
        assert (ack["code"], ack["msg"]) == (0, "The id must be a number or a string of at most 64 characters")
    for params, msg in (({}, "ID is required"), ({"id": "x"}, "ID is invalid"), ({"id": 0}, "ID is invalid"),
                        (None, "request is invalid"), ({"id": 10**15}, "Order not found")):  # fmt: skip
        ack = await command(socket, "cancel", "k", params)
        assert (ack["code"], ack["msg"], ack["data"]) == (0, msg, None), params
    # another user's order cannot be cancelled from alice's socket
    bob = await asyncio.to_thread(member, api)
    await fund(bob, "USDT", "100")
    low = (await asyncio.to_thread(mark, api, ETH_USDT) * Decimal("0.5")).quantize(CENT)
    theirs = await asyncio.to_thread(batch, api, bob, [order("buy", ETH_USDT, "0.01", low)])
    ack = await command(socket, "cancel", "theirs", {"id": theirs[0]["data"]["id"]})
    assert (ack["code"], ack["msg"]) == (0, "Order not found")
    assert (await asyncio.to_thread(balance, api, bob, USDT))[1] == low / 100
    # the connection still serves its other uses
    await socket.send(json.dumps({"type": "ping"}))
    assert json.loads(await socket.recv()) == {"type": "pong"}


async def test_pipelined_orders_are_each_acked_once_and_hold_exactly_what_rests(
    api: httpx.Client, alice: Member, socket: ClientConnection
) -> None:
    await log_in(socket, alice)
    eth = await asyncio.to_thread(mark, api, ETH_USDT)
    prices = [(eth * Decimal("0.5") + k * CENT).quantize(CENT) for k in range(40)]
    for k, price in enumerate(prices):  # all sent before any ack is read
        await socket.send(json.dumps({"type": "order", "id": k, "params": order("buy", ETH_USDT, "0.01", price)}))
    placed = await acks(socket, len(prices))
    assert sorted(placed) == list(range(len(prices)))
    assert {(a["code"], a["msg"]) for a in placed.values()} == {(1, "Order placed")}
    assert [Decimal(placed[k]["data"]["price"]) for k in range(len(prices))] == prices
    ids = [placed[k]["data"]["id"] for k in range(len(prices))]
    assert len(set(ids)) == len(ids)
    held = sum(prices) * Decimal("0.01")
    assert await asyncio.to_thread(balance, api, alice, USDT) == (Decimal(10000) - held, held)
    await asyncio.to_thread(assert_locks_are_holds, api, alice)

    for order_id in ids:
        await socket.send(json.dumps({"type": "cancel", "id": f"x{order_id}", "params": {"id": order_id}}))
    cancelled = await acks(socket, len(ids))
    assert {(a["code"], a["data"]["status"]) for a in cancelled.values()} == {(1, 4)}
    assert await asyncio.to_thread(balance, api, alice, USDT) == (Decimal(10000), Decimal(0))


async def test_a_connection_over_its_order_rate_is_refused_at_once(
    stack: Stack, alice: Member, socket: ClientConnection
) -> None:
    rate, burst = stack.settings.ws_order_rate, stack.settings.ws_order_burst
    await log_in(socket, alice)
    sent = burst + 100
    started = time.monotonic()
    for k in range(sent):  # refused by the rules (no quantity) when not by the rate: nothing is placed
        await socket.send(json.dumps({"type": "order", "id": k, "params": order("buy", ETH_USDT, "", "1")}))
    answers = await acks(socket, sent)
    elapsed = time.monotonic() - started
    too_fast = [
        k for k, a in answers.items() if a["msg"] == f"Too many orders on this connection: at most {rate:g} a second"
    ]
    checked = [k for k, a in answers.items() if a["msg"] == "Please enter a quantity"]
    assert len(too_fast) + len(checked) == sent and {a["code"] for a in answers.values()} == {0}
    assert burst <= len(checked) <= burst + rate * elapsed + 1
    assert too_fast and min(too_fast) >= burst  # the burst passes, then the bucket refuses
    await asyncio.sleep(2 / rate + 0.05)  # the bucket refills
    again = await command(socket, "order", "later", order("buy", ETH_USDT, "", "1"))
    assert again["msg"] == "Please enter a quantity"


async def test_an_order_with_a_client_id_is_placed_once_however_often_it_is_sent(
    api: httpx.Client, alice: Member, socket: ClientConnection
) -> None:
    """Issue 27: a ``client_id`` in an order's params is its idempotency key, as on REST: commands sent
    together or again later under it place one order, and every ack after the first says it replays."""
    await log_in(socket, alice)
    low = (await asyncio.to_thread(mark, api, ETH_USDT) * Decimal("0.5")).quantize(CENT)
    params = {**order("buy", ETH_USDT, "0.1", low), "client_id": f"ws-{time.time_ns()}"}
    for i in range(3):
        await socket.send(json.dumps({"type": "order", "id": i, "params": params}))
    found = await acks(socket, 3)
    again = await command(socket, "order", 3, params)
    answers = [found[0], found[1], found[2], again]
    assert {(a["code"], a["msg"], a["data"]["id"]) for a in answers} == {(1, "Order placed", answers[0]["data"]["id"])}
    assert sorted(a.get("replayed", False) for a in answers) == [False, True, True, True]
    listed = ok(await asyncio.to_thread(api.get, "tx_in/list", headers=alice.auth))["data"]
    assert [o["id"] for o in listed] == [answers[0]["data"]["id"]]
    assert await asyncio.to_thread(balance, api, alice, USDT) == (Decimal(10000) - low / 10, low / 10)
    other = await command(socket, "order", 4, {**params, "number": "0.2"})
    assert (other["code"], other["msg"]) == (
        0, "This key was already used for another request: send a new key with a new request")  # fmt: skip
    bad = await command(socket, "order", 5, {**params, "client_id": "x" * 65})
    assert (bad["code"], bad["msg"]) == (0, "An idempotency key is 1 to 64 printable characters")
    assert (await command(socket, "cancel", 6, {"id": answers[0]["data"]["id"]}))["code"] == 1  # the book as it was


async def test_orders_beyond_the_in_flight_limit_are_told_to_slow_down(
    api: httpx.Client, stack: Stack, alice: Member, socket: ClientConnection
) -> None:
    """Every order sent before any ack is read: at most ``ws_order_in_flight`` wait for the engine at
    once; one more is answered at once ("slow down") and starts nothing (it holds nothing)."""
    limit, burst = stack.settings.ws_order_in_flight, stack.settings.ws_order_burst
    assert burst > 2 * limit, "the test session must let a burst pass the in-flight limit"
    await log_in(socket, alice)
    low = (await asyncio.to_thread(mark, api, ETH_USDT) * Decimal("0.5")).quantize(CENT)
    for k in range(burst):
        await socket.send(json.dumps({"type": "order", "id": k, "params": order("buy", ETH_USDT, "0.01", low)}))
    answers = await acks(socket, burst, wait=60)
    slow = f"Slow down: at most {limit} orders and cancels can wait for an answer on this connection"
    told = [k for k, a in answers.items() if (a["code"], a["msg"], a["data"]) == (0, slow, None)]
    placed = [k for k, a in answers.items() if (a["code"], a["msg"]) == (1, "Order placed")]
    assert told and len(told) + len(placed) == burst, Counter(a["msg"] for a in answers.values())
    assert len(placed) >= limit
    held = low * Decimal("0.01") * len(placed)
    assert await asyncio.to_thread(balance, api, alice, USDT) == (Decimal(10000) - held, held)
    await asyncio.to_thread(assert_locks_are_holds, api, alice)
    ids = [answers[k]["data"]["id"] for k in placed]
    for start in range(0, len(ids), 20):  # over REST: the socket's rate is spent
        cancelled = await asyncio.to_thread(cancel, api, alice, ids[start : start + 20])
        assert {r["code"] for r in cancelled} == {1}
    assert await asyncio.to_thread(balance, api, alice, USDT) == (Decimal(10000), Decimal(0))


async def test_orders_before_login_are_refused_by_the_reader_itself_in_order(stack: Stack) -> None:
    """Before login an order starts no work: the connection's reader answers it (999) before it reads
    the next message, so 50 orders and a ping written at once are answered in the order sent. (The old
    fanout spawned a task per order, without bound, and the reader answered the ping before them.)"""
    async with connect(f"ws://{stack.settings.http_host}:{stack.settings.ws_port}/ws") as ws:
        for k in range(50):  # framed by the client's protocol and written in one go
            ws.protocol.send_text(json.dumps({"type": "order", "id": k, "params": {}}).encode())
        ws.protocol.send_text(b'{"type":"ping"}')
        ws.transport.write(b"".join(ws.protocol.data_to_send()))
        answers = [json.loads(await asyncio.wait_for(ws.recv(), 10)) for _ in range(51)]
    refused = {"type": "order_ack", "code": 999, "msg": "Please log in first", "data": None}
    assert answers == [{**refused, "id": k} for k in range(50)] + [{"type": "pong"}]
