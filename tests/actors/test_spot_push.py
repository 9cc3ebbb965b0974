"""A trade on ETH/USDT reaches /ws subscribers: GLOBAL_TX, MARKET_DEPTH (with seq) and TX_MATCHED."""

from __future__ import annotations

import asyncio
import json
from decimal import Decimal

import httpx
from websockets.asyncio.client import connect

from serve.stack import Stack
from store.ledger import credit
from store.models import AccountType, Currency
from tests.utils.push import first_of_each, next_of
from tests.utils.users import member, ok

ETH_USDT = 2


async def test_a_trade_is_pushed_to_public_and_private_channels(stack: Stack, api: httpx.Client, db: None) -> None:
    alice, bob = member(api), member(api)
    for m, code, amount in ((alice, "ETH", "3"), (bob, "USDT", "20000")):
        currency = await Currency.get(code=code)
        await credit(user_id=m.uid, currency=currency, account_type=AccountType.CHANGE, amount=Decimal(amount),
                     log_type="deposit", ref=f"push:{m.uid}")  # fmt: skip
    url = f"ws://{stack.settings.http_host}:{stack.settings.ws_port}/ws"
    async with connect(url) as ws:
        await ws.send(json.dumps({"type": "login", "token": bob.token}))
        assert (await next_of(ws, "login"))["code"] == 1
        for channel in ("TX_MATCHED", "TX_SUBMIT", "GLOBAL_TX.ETH/USDT", "MARKET_DEPTH.ETH/USDT", "KLINE.ETH/USDT"):
            await ws.send(json.dumps({"type": "sub", "params": channel}))
            assert (await next_of(ws, "sub"))["code"] == 1
        await asyncio.sleep(0.3)  # the fanout subscribes upstream asynchronously

        ask = {"currency_match_id": ETH_USDT, "number": "2", "price": "3500.5"}
        ok(await asyncio.to_thread(api.post, "tx_out/add", json=ask, headers=alice.auth))
        depth = await next_of(ws, "market_depth")
        assert depth["depth"]["out"][0]["price"] == "3500.5" and isinstance(depth["depth"]["seq"], int)

        bid = {"currency_match_id": ETH_USDT, "number": "0.5", "price": "3600"}
        placed = ok(await asyncio.to_thread(api.post, "tx_in/add", json=bid, headers=bob.auth))
        got = await first_of_each(ws, {"tx_submit", "tx_matched", "global_tx", "kline", "market_depth"})
        assert got["tx_submit"]["order"]["id"] == placed["id"] and got["tx_submit"]["way"] == 1
        matched = got["tx_matched"]["order"]
        assert matched["id"] == placed["id"] and matched["transacted_amount"] == "0.5"
        trade = got["global_tx"]["completes"][0]
        assert (trade["price"], trade["amount"], trade["way"]) == ("3500.5", "0.5", 1)
        assert got["kline"]["close"] == "3500.5" and got["kline"]["symbol"] == "ETH/USDT"
        assert got["market_depth"]["depth"]["seq"] > depth["depth"]["seq"]
        assert got["market_depth"]["depth"]["out"][0]["amount"] == "1.5"
