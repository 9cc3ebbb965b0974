"""Moving a pair's live mark price by trading, and holding it still (stale or gone) for a test."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from decimal import Decimal
from typing import Any

import httpx
from redis.asyncio import Redis

from actors.pair.directory import pair_actor
from actors.pair.mark_rule import mark_of
from store import marks
from tests.utils.users import Member, member, ok
from tests.utils.wallets import fund


def deal(api: httpx.Client, pair_id: int) -> dict[str, Any]:
    return ok(api.get("market/deal", params={"currency_match_id": pair_id}))


def best(snapshot: dict[str, Any]) -> tuple[Decimal | None, Decimal | None, Decimal | None]:
    """Best bid, best ask and last trade of a market/deal answer."""
    depth = snapshot["depth"]
    bid = Decimal(depth["in"][0]["price"]) if depth["in"] else None
    ask = Decimal(depth["out"][0]["price"]) if depth["out"] else None
    return bid, ask, Decimal(snapshot["quotation"]["close"]) or None


def inside_price(snapshot: dict[str, Any]) -> Decimal:
    """A price strictly inside the spread and off the current mark: a trade there makes it the mark."""
    bid, ask, last = best(snapshot)
    mark = mark_of(bid, ask, last, 4) or Decimal(100)
    low, high = bid if bid is not None else mark * Decimal("0.9"), ask if ask is not None else mark * Decimal("1.1")
    step = Decimal("0.0001")
    price = ((low + high) / 2).quantize(step)
    if price == mark:
        price += step
    assert low < price < high, (low, price, high)
    return price


def cross(api: httpx.Client, seller: Member, buyer: Member, pair_id: int, number: str, price: str) -> None:
    """``seller`` offers, ``buyer`` takes it at the same price: a trade at ``price``."""
    ok(api.post("tx_out/add", json={"currency_match_id": pair_id, "number": number, "price": price},
                headers=seller.auth))  # fmt: skip
    ok(api.post("tx_in/add", json={"currency_match_id": pair_id, "number": number, "price": price},
                headers=buyer.auth))  # fmt: skip


async def mark_traders(api: httpx.Client) -> tuple[Member, Member]:
    """A seller of BTC and ETH and a buyer with USDT, with no orders: their trades move the marks."""
    seller, buyer = member(api), member(api)
    await fund(seller, "BTC", "1")
    await fund(seller, "ETH", "10")
    await fund(buyer, "USDT", "1000000")
    return seller, buyer


def live_mark(api: httpx.Client, pair_id: int) -> dict[str, Any] | None:
    """market/mark of the pair (price, id, fresh ...), or None before its first tick."""
    return ok(api.get("market/mark", params={"currency_match_id": pair_id}))


def wait_for(check: Callable[[], Any], what: str, timeout: float = 10) -> Any:
    """Poll ``check`` until it answers something truthy; that answer."""
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)
    return found


def locked(api: httpx.Client, m: Member) -> Decimal:
    """Everything the user has locked, over every account."""
    groups = ok(api.get("account/list", headers=m.auth))
    return sum((Decimal(a["lock_balance"]) for g in groups for a in g["accounts"]), Decimal(0))


def move_mark(api: httpx.Client, seller: Member, buyer: Member, pair_id: int, number: str) -> dict[str, Any]:
    """A trade strictly inside the spread and off the current mark: it becomes the pair's new mark.
    Answers market/mark once the pair shows it, fresh, and both sides are settled (the traders have
    no other orders, so nothing of theirs stays locked)."""
    price = inside_price(deal(api, pair_id))
    cross(api, seller, buyer, pair_id, number, str(price))

    def moved() -> dict[str, Any] | None:
        mark = live_mark(api, pair_id)
        return mark if mark and Decimal(mark["price"]) == price and mark["fresh"] else None

    mark = wait_for(moved, f"the mark of pair {pair_id} to become {price}")
    wait_for(lambda: locked(api, seller) == locked(api, buyer) == 0, "the trade to settle")
    return mark


@asynccontextmanager
async def held_mark(redis: Redis, symbol: str) -> AsyncIterator[marks.Mark]:
    """Pause the pair (it stops confirming its mark) and yield its mark as Redis holds it; the test may
    age or delete the key. Afterwards the key is put back as it was and the pair resumes."""
    pair = pair_actor(symbol)
    await pair.pause.remote()
    saved = await redis.get(marks.key(symbol))
    assert saved, f"{symbol} has no mark to hold"
    try:
        yield marks.Mark.decode(saved)
    finally:
        await redis.set(marks.key(symbol), saved, ex=marks.TTL_S)
        await pair.resume.remote()


async def age_mark(redis: Redis, mark: marks.Mark, seconds: float) -> None:
    """Overwrite the pair's mark as if it was last confirmed ``seconds`` ago."""
    await marks.publish(redis, replace(mark, at_ms=int(time.time() * 1000) - int(seconds * 1000)))


def mark_to(api: httpx.Client, seller: Member, buyer: Member, pair_id: int, price: Decimal,
            number: str = "10") -> dict[str, Any]:  # fmt: skip
    """Trade at ``price`` through whatever the book holds, so the pair's mark becomes ``price``: the
    seller offers ``number`` there (taking the bids above it), the buyer takes as much (the asks below
    it, then the seller's). ``number`` must exceed what the book holds around ``price``. What either
    left resting is cancelled; answers market/mark once it shows ``price``, fresh."""
    body = {"currency_match_id": pair_id, "number": number, "price": str(price)}
    ok(busy_retried(lambda: api.post("tx_out/add", json=body, headers=seller.auth)))
    ok(busy_retried(lambda: api.post("tx_in/add", json=body, headers=buyer.auth)))

    def moved() -> dict[str, Any] | None:
        mark = live_mark(api, pair_id)
        return mark if mark and Decimal(mark["price"]) == price and mark["fresh"] else None

    mark = wait_for(moved, f"the mark of pair {pair_id} to become {price}")
    for m, way in ((seller, "tx_out"), (buyer, "tx_in")):
        for order in ok(api.get(f"{way}/list", params={"currency_match_id": pair_id, "limit": 100}, headers=m.auth))[
            "data"
        ]:
            ok(api.post(f"{way}/cancel", json={"id": order["id"]}, headers=m.auth))
    return mark


def busy_retried(send: Callable[[], httpx.Response], within: float = 15) -> httpx.Response:
    """``send`` again while it answers 503 "busy" (a pair or wallet shard that Ray is restarting), as a
    client does; the last answer."""
    deadline = time.monotonic() + within
    while (answer := send()).status_code == 503 and time.monotonic() < deadline:
        time.sleep(0.3)
    return answer
