"""The ChainWatcher actor on the session's stack: started by the stack for a configured chain node, it
credits a real dev-chain transfer by itself and pushes it to the user (DEPOSIT), answers its status,
resumes from its stored cursor after Ray restarts it, and outlives a node that does not answer."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Awaitable, Callable
from decimal import Decimal
from typing import Any

import httpx
import ray
from websockets.asyncio.client import connect

from actors.chain.watcher import ChainWatcher
from actors.names import watcher_name
from serve.stack import Stack
from store.chain_rpc.devnet import faucet
from store.chain_rpc.devnet.clients import DevEvmNode
from tests.utils.cli import exchange_ok
from tests.utils.push import next_of
from tests.utils.sales import get
from tests.utils.users import member, ok
from tests.utils.wallets import USDT, balance


async def _until(check: Callable[[], Awaitable[Any]], what: str, within: float = 30.0) -> Any:
    deadline = time.monotonic() + within
    while not (found := await check()):
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.2)
    return found


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_the_stacks_watcher_credits_pushes_and_resumes_after_a_restart(
    api: httpx.Client, stack: Stack, evm: DevEvmNode, evm_chain: dict[str, Any]
) -> None:
    settings = stack.settings.model_copy(update={
        "evm_rpc_url": evm_chain["url"], "erc20_contracts": {"USDT": evm_chain["tokens"]["USDT"]["address"]},
        "chain_poll_seconds": 0.2,
    })  # fmt: skip
    name = watcher_name("ERC20")
    stack._start_watchers(settings)
    watcher = ray.get_actor(name)
    try:
        alice = member(api)
        erc20 = ok(get(api, "wallet/wallet", params={"currency_id": USDT}, headers=alice.auth))[0]["address"]
        url = f"ws://{settings.http_host}:{settings.ws_port}/ws"
        async with connect(url) as ws:
            await ws.send(json.dumps({"type": "login", "token": alice.token}))
            await ws.send(json.dumps({"type": "sub", "params": "DEPOSIT"}))
            assert (await next_of(ws, "sub"))["code"] == 1
            tx = await faucet.send_evm(evm_chain, to=erc20, amount=Decimal(42), currency="USDT")
            await evm.mine()  # nobody steps the watcher here: the actor's own loop finds it
            pushed = await next_of(ws, "deposit", wait=30)
        assert (pushed["kind"], pushed["tx_hash"], pushed["amount"], pushed["status"]) == ("credited", tx, "42", 1)
        assert balance(api, alice, USDT) == (Decimal(42), 0)
        tip = await evm.block_number()
        status = await watcher.status.remote()
        assert (status["chain"], status["node_height"], status["error"]) == ("ERC20", tip, "")
        assert status["cursor"] == tip and status["lag"] == 0 and status["pending_deposits"] >= 1
        listing = exchange_ok(stack.settings, "chain", "status").splitlines()
        assert listing[0] == "chain\tnode height\tcursor\tlag\tpending deposits\terror"
        assert listing[1].startswith(f"ERC20\t{tip}\t{tip}\t0\t") and listing[1].endswith("\t-")

        ray.kill(watcher, no_restart=False)  # Ray starts it again; it resumes from the stored cursor
        await evm.mine(2)

        async def resumed() -> dict[str, Any] | None:
            try:
                answer = await watcher.status.remote()
            except ray.exceptions.RayActorError:  # still restarting
                return None
            return answer if answer["cursor"] == tip + 2 and answer["last_step"] else None

        after = await _until(resumed, "the restarted watcher did not resume")
        assert after["last_step"]["rolled_back"] == 0
        assert balance(api, alice, USDT) == (Decimal(42), 0)  # nothing credited twice
    finally:
        ray.kill(watcher, no_restart=True)
        stack.actors.pop(name, None)


async def test_a_watcher_whose_node_does_not_answer_keeps_trying(stack: Stack) -> None:
    settings = stack.settings.model_copy(
        update={"ltc_rpc_url": f"http://u:secret@127.0.0.1:{_closed_port()}", "chain_poll_seconds": 0.1}
    )
    watcher = ChainWatcher.options(name="chain-watcher-unreachable").remote(settings.model_dump(mode="json"), "LTC")
    try:

        async def failing() -> dict[str, Any] | None:
            answer = await watcher.status.remote()
            return answer if answer["failures"] >= 3 else None

        status = await _until(failing, "the watcher did not retry")
        assert status["error"].startswith("node: getblockcount") and "unreachable" in status["error"]
        assert "secret" not in status["error"]  # the URL's password is never shown
        assert status["node_height"] is None and status["lag"] is None
        assert (await watcher.status.remote())["chain"] == "LTC"  # alive, answering
    finally:
        ray.kill(watcher, no_restart=True)
