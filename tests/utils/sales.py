"""Token sales and listing projects for tests, and a Scheduler of their own whose clock they move.

The sweeping scheduler runs only the sweeps (no day jobs), under a name of its own: moving its clock
closes, allocates, releases and credits what the moved time has reached, and leaves the session's
scheduler (its day jobs, its clock) alone. Its clock is put back to real time and the actor killed at
the end. The session's scheduler sweeps the same rows on real time meanwhile: every step is
idempotent, so whichever comes first does it, once.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from decimal import Decimal
from typing import Any

import httpx
import ray

from actors.scheduler.actor import Scheduler
from actors.scheduler.jobs import SWEEPS
from config.settings import Settings
from store.models import AccountType, Currency, ListingProject, TokenSale
from store.times import now_ms
from tests.utils.users import Member, member
from tests.utils.wallets import fund

HOUR_MS, DAY_MS = 3_600_000, 86_400_000
FINANCIAL = int(AccountType.FINANCIAL)  # account/detail's account_type_id
_ids = itertools.count(1)


async def make_sale(*, token: str = "ACB", price: str = "0.5", total: str = "1000", per_user_max: str = "0",
                    starts_in_ms: int = -60_000, ends_in_ms: int = HOUR_MS, title: str = "",
                    min_amount: str | None = None) -> TokenSale:  # fmt: skip
    """A sale of ``total`` ``token`` at ``price`` USDT, open from a minute ago for an hour by default (its
    minimum subscription the column's default unless given)."""
    coins = {c.code: c for c in await Currency.filter(code__in=(token, "USDT"))}
    now = now_ms()
    least = {} if min_amount is None else {"min_amount": Decimal(min_amount)}
    return await TokenSale.create(title=title or f"test sale {next(_ids)}", desc="a sale for tests",
                                  huodong=coins[token], jieshou=coins["USDT"], rengou=Decimal(price),
                                  total=Decimal(total), per_user_max=Decimal(per_user_max), btime=now + starts_in_ms,
                                  etime=now + ends_in_ms, sort=-1, **least)  # fmt: skip


async def make_project(*, token: str = "MVBT", price: str = "0.5", total: str = "20000", shengyu: str = "10000",
                       starts_in_ms: int = -60_000, ends_in_ms: int = HOUR_MS, online_in_ms: int = 3 * DAY_MS,
                       lock_days: int = 7, min_amount: str | None = None) -> ListingProject:  # fmt: skip
    """A listing project open from a minute ago for an hour, its tokens online in 3 days (its minimum
    application the column's default unless given)."""
    now = now_ms()
    least = {} if min_amount is None else {"min_amount": Decimal(min_amount)}
    return await ListingProject.create(title=f"test listing {next(_ids)}", desc="a listing for tests",
                                       bizhong=await Currency.get(code=token), price=Decimal(price),
                                       total=Decimal(total), shengyu=Decimal(shengyu), btime=now + starts_in_ms,
                                       etime=now + ends_in_ms, online=now + online_in_ms, lock_days=lock_days,
                                       status=1, sort=-1, **least)  # fmt: skip


class Sweeper:
    """A handle on the sweeping scheduler: ``at(ms)`` moves its clock to that moment and runs the
    sweeps; the passes that did something are answered."""

    def __init__(self, actor: Any) -> None:
        self.actor = actor

    async def at(self, moment_ms: int) -> list[dict[str, Any]]:
        return await self.actor.set_clock.remote(moment_ms - now_ms())

    async def status(self) -> dict[str, Any]:
        return await self.actor.status.remote()


async def financial_member(api: httpx.Client, usdt: str = "10000") -> Member:
    """A registered, logged-in user with ``usdt`` USDT in the financial account."""
    m = member(api)
    await fund(m, "USDT", usdt, AccountType.FINANCIAL)
    return m


@asynccontextmanager
async def sweeper(settings: Settings) -> AsyncIterator[Sweeper]:
    name = f"scheduler-sales-{uuid.uuid4().hex[:8]}"
    actor = Scheduler.options(name=name).remote(settings.model_dump(mode="json"), [], 0.2, SWEEPS)
    try:
        await actor.status.remote()  # started: a moved clock's offset is counted from the call on
        yield Sweeper(actor)
    finally:
        try:
            await actor.set_clock.remote(0)  # back to real time (its offset is kept in Redis under its name)
        finally:
            ray.kill(actor, no_restart=True)


# Sync calls, so async tests read as the others do (a blocking client is what every API test uses).
def get(api: httpx.Client, path: str, **kw: Any) -> httpx.Response:
    return api.get(path, **kw)


def post(api: httpx.Client, path: str, **kw: Any) -> httpx.Response:
    return api.post(path, **kw)


async def totals() -> dict[int, Decimal]:
    """``system_totals`` without the currencies that sum to zero (a token only ever issued by the house
    sums to zero: what users hold, less what the house issued)."""
    from tests.utils.wallets import system_totals

    return {k: v for k, v in (await system_totals()).items() if v != 0}
