"""Spot order helpers for API tests: a pair's mark on a cent grid, an order of a batch (or of a
websocket), waiting for settlement, and a user's locks against what their open orders hold."""

from __future__ import annotations

import time
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import httpx

from tests.utils.users import Member, ok
from tests.utils.wallets import BTC, ETH, USDT, balance

BTC_USDT, ETH_USDT, FIL_USDT, ACB_USDT = 1, 2, 13, 64
CENT = Decimal("0.01")


def mark(api: httpx.Client, pair_id: int) -> Decimal:
    """The pair's mark price, on a 0.01 grid (every limit price here is well inside the band)."""
    return Decimal(ok(api.get("market/mark", params={"currency_match_id": pair_id}))["price"]).quantize(CENT)


def order(side: str, pair_id: int, number: str = "", price: Decimal | str = "", **more: str) -> dict[str, Any]:
    return {"side": side, "currency_match_id": pair_id, "number": number, "price": str(price), **more}


def batch(api: httpx.Client, m: Member, orders: list[Any]) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = ok(api.post("tx/batch_add", json={"orders": orders}, headers=m.auth))["results"]
    assert len(results) == len(orders)
    return results


def cancel(api: httpx.Client, m: Member, ids: list[int]) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = ok(api.post("tx/batch_cancel", json={"ids": ids}, headers=m.auth))["results"]
    return results


def eventually(check: Callable[[], Any], timeout: float = 10) -> Any:
    """``check()``'s answer once it stops failing an assertion (its last failure after ``timeout`` s)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return check()
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def open_holds(api: httpx.Client, m: Member) -> dict[int, Decimal]:
    """What the user's open orders hold, per currency: a resting buy the quote of what is left at its
    own price (a maker fills at its price), a sell the base left."""
    held: dict[int, Decimal] = {}
    for route, way in (("tx_in/list", 1), ("tx_out/list", 2)):
        for o in ok(api.get(route, params={"limit": 100}, headers=m.auth))["data"]:
            left = Decimal(o["number"]) - Decimal(o["transacted_amount"])
            currency = {BTC_USDT: BTC, ETH_USDT: ETH}[o["currency_match_id"]] if way == 2 else USDT
            held[currency] = held.get(currency, Decimal(0)) + (left * Decimal(o["price"]) if way == 1 else left)
    return held


def assert_locks_are_holds(api: httpx.Client, m: Member) -> None:
    held = open_holds(api, m)
    for currency in (USDT, BTC, ETH):
        assert balance(api, m, currency)[1] == held.get(currency, Decimal(0)), (m.uid, currency)
