"""What the P2P API tests share: messages, helpers over the API, and the clocks they move (the API's
"now" and a sweeping Scheduler's)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import httpx
from redis.asyncio import Redis

from store import scheduler
from store.models import (
    AccountLog,
    P2PEvent,
    P2POrder,
)
from store.times import now_ms
from tests.utils.p2p import (
    LEGAL,
    ad_body,
    legal_lock_matches,
)
from tests.utils.sales import DAY_MS, Sweeper
from tests.utils.users import Member, ok
from tests.utils.wallets import USDT, balance, system_totals

D = Decimal
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(64)
MINUTE_MS = 60_000

NOT_UNPAID = "Only an unpaid order can be marked paid or cancelled"
NOT_PAID = "Only a paid order can be released or appealed"
BUYER_ONLY, SELLER_ONLY = "Only the buyer can do this", "Only the seller can do this"
NOT_FOUND = "Order not found"
REAL_NAME_FIRST = "Complete real-name authentication first"
CANCEL_LIMIT = "You cancelled 3 orders today; you can buy again after 00:00 UTC"


async def steady(before: dict[int, Decimal]) -> None:
    """The invariant holds and no coin appeared or vanished."""
    assert await legal_lock_matches() == {}
    assert await system_totals() == before


def legal(api: httpx.Client, m: Member, currency: int = USDT) -> tuple[Decimal, Decimal]:
    """(balance, lock) of the user's legal account."""
    return balance(api, m, currency, LEGAL)


def save_ad(api: httpx.Client, m: Member, **change: Any) -> httpx.Response:
    return api.post("shop/ad/save", json=ad_body(**change), headers=m.auth)


def edit_ad(api: httpx.Client, m: Member, ad: dict[str, Any], **change: Any) -> httpx.Response:
    """Save ``ad`` again with ``change``d fields (the fields an edit sends: all of them)."""
    fields = ("side", "currency_id", "fiat", "price", "min_fiat", "max_fiat", "total", "methods", "window_min",
              "remarks")  # fmt: skip
    return api.post("shop/ad/save", json={"id": ad["id"], **{k: ad[k] for k in fields}, **change}, headers=m.auth)


def my_ads(api: httpx.Client, m: Member, status: int = 0) -> dict[int, dict[str, Any]]:
    return {a["id"]: a for a in ok(api.get("shop/ads", params={"status": status}, headers=m.auth))}


def set_status(api: httpx.Client, m: Member, ad_id: int, status: int) -> httpx.Response:
    return api.post("shop/ad/status", json={"id": ad_id, "status": status}, headers=m.auth)


def close_ad(api: httpx.Client, m: Member, ad_id: int) -> httpx.Response:
    return api.post("shop/ad/close", json={"id": ad_id}, headers=m.auth)


def market(api: httpx.Client, side: str = "buy", **params: Any) -> list[dict[str, Any]]:
    """Every ad the market lists for a taker on ``side``, page after page, in the market's order."""
    found: list[dict[str, Any]] = []
    page = 1
    while True:
        data = ok(api.get("legal/ads", params={"side": side, "page": page, **params}))
        assert data["limit"] == 10 and len(data["list"]) <= 10
        found += data["list"]
        if page * data["limit"] >= data["total"]:
            assert len(found) == data["total"]
            return found
        page += 1


def listed(api: httpx.Client, side: str = "buy", **params: Any) -> list[int]:
    return [a["id"] for a in market(api, side, **params)]


def image(api: httpx.Client, m: Member) -> str:
    return ok(api.post("common/image_upload", files={"file": ("proof.png", PNG, "image/png")}, headers=m.auth))["url"]


def order_list(api: httpx.Client, m: Member, path: str, state: int = 0) -> list[dict[str, Any]]:
    return ok(api.get(path, params={"state": state}, headers=m.auth))["list"]


async def refs(order_id: int) -> list[str]:
    """The ledger refs written for an order, sorted (each appears once per batch it moved)."""
    return sorted(await AccountLog.filter(ref__startswith=f"p2p{order_id}:").values_list("ref", flat=True))


async def journal(order_id: int) -> list[tuple[int, int, int, str]]:
    rows = await P2PEvent.filter(order_id=order_id).order_by("seq").values_list("seq", "from_state", "to_state", "by")
    return [(int(s), int(f), int(t), str(b)) for s, f, t, b in rows]


async def state_of(order_id: int) -> int:
    return int((await P2POrder.get(id=order_id)).state)


@dataclass
class Clocks:
    """The API's clock and the test's sweeping Scheduler's.

    ``api_at`` moves only the API's "now" (the session Scheduler's offset in Redis, read on every call;
    the session Scheduler itself keeps real time, so its own sweeps do not run ahead); ``at`` moves both
    to one moment, and when it returns the sweeps have run there (by the call's own pass or by one of
    the Scheduler's loop that saw the new clock first: which one did the work is not for tests to rely
    on, only that it is done)."""

    redis: Redis
    sweep: Sweeper

    async def api_at(self, moment_ms: int) -> None:
        await scheduler.set_clock_offset(self.redis, scheduler.SCHEDULER_NAME, moment_ms - now_ms())

    async def at(self, moment_ms: int) -> None:
        await self.api_at(moment_ms)
        await self.sweep.at(moment_ms)


def tomorrow_at(hours: float) -> int:
    """A moment of the next UTC day: a test that counts a day's cancellations runs within one day."""
    return (now_ms() // DAY_MS + 1) * DAY_MS + int(hours * 3_600_000)
