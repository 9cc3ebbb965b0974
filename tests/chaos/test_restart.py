"""A restarted PairActor serves the same book, candles, ticker and recent trades from the database."""

from __future__ import annotations

import asyncio
import time
from decimal import Decimal

import httpx
import ray

from actors.pair.directory import pair_actor
from serve.stack import Stack
from store.ledger import credit
from store.models import AccountType, Currency
from tests.utils.users import member, ok

LTC_USDT = 3


async def test_book_and_market_data_survive_a_pair_restart(stack: Stack, api: httpx.Client, db: None) -> None:
    seller, buyer = member(api), member(api)
    for m, code in ((seller, "LTC"), (buyer, "USDT")):
        await credit(user_id=m.uid, currency=await Currency.get(code=code), account_type=AccountType.CHANGE,
                     amount=Decimal(50000), log_type="deposit", ref=f"restart:{m.uid}")  # fmt: skip
    ok(await asyncio.to_thread(api.post, "tx_out/add", json={"currency_match_id": LTC_USDT, "number": "3", "price": "91.25"},
                               headers=seller.auth))  # fmt: skip
    bought = ok(await asyncio.to_thread(api.post, "tx_in/add", json={"currency_match_id": LTC_USDT, "number": "1",
                                        "price": "91.25"}, headers=buyer.auth))  # fmt: skip
    assert bought["transacted_amount"] == "1"  # from the best asks (other tests may have left some on the book)
    ok(await asyncio.to_thread(api.post, "tx_in/add", json={"currency_match_id": LTC_USDT, "number": "2", "price": "80"},
                               headers=buyer.auth))  # fmt: skip
    before = ok(await asyncio.to_thread(api.get, "market/deal", params={"currency_match_id": LTC_USDT}))
    bars_before = ok(
        await asyncio.to_thread(api.get, "market/kline", params={"currency_match_id": LTC_USDT, "period": "1min"})
    )
    assert bars_before and bars_before[-1]["close"] == before["quotation"]["close"]

    ray.kill(pair_actor("LTC/USDT"), no_restart=False)
    deadline = time.monotonic() + 60
    while True:
        answer = await asyncio.to_thread(api.get, "market/deal", params={"currency_match_id": LTC_USDT})
        if answer.status_code == 200:
            break
        assert time.monotonic() < deadline, answer.text
        await asyncio.sleep(0.5)
    after = answer.json()["data"]
    assert after["depth"]["in"] == before["depth"]["in"] and after["depth"]["out"] == before["depth"]["out"]
    assert after["tx_completes"] == before["tx_completes"]
    assert after["quotation"]["close"] == before["quotation"]["close"]
    bars_after = ok(
        await asyncio.to_thread(api.get, "market/kline", params={"currency_match_id": LTC_USDT, "period": "1min"})
    )
    assert bars_after == bars_before
