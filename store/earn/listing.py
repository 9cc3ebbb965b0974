"""Listing applications in the database: applying, the allocation at the project's end, the lock's
release and the tokens' credit on the online date (docs/decisions.md "Token sales and listing").

1. Apply (``apply``): while ``btime <= now < etime``, ``nums`` USDT (at least the project's
   ``min_amount``) leave the balance of the user's financial account for its lock, for ``lock_days``
   (``release_ms``); the application is written in that transaction, under the project's row lock.
2. Allocate (``allocate``, the ``listing_allocation`` job of the project once ``etime`` has passed:
   each project's allocation and decisions are a job of their own, ``allocate_and_decide``): under the
   project's row lock it is marked allocated (no application can join after) and each application's
   pro-rata share of ``shengyu`` is written onto it (``store.earn.allocation.allocate_listing``).
   Then each one is decided (``decide``): the USDT won leaves the lock to the house (``sale_proceeds``)
   and its status becomes won or not won, in one transaction.
3. Release (``release``, ``listing_release``): once decided and ``release_ms`` has come, the rest of
   the lock returns to the balance; ``released`` flips in that transaction.
4. Credit (``credit``, ``listing_credit``): once won and the project's ``online`` date has come, the
   tokens won are credited from the house (``sale_issue``); ``credited`` flips in that transaction.

Every step is idempotent: its flag or status changes with its money, and its refs make a replay a no-op.
"""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from store import bulk, ledger
from store.db import scalar
from store.earn import FINANCIAL, LOG_LISTING, SALE_ISSUE, SALE_PROCEEDS, allocation
from store.earn.book import HouseRow, Stale, Write, move
from store.earn.clock import DAY_MS
from store.earn.closing import close_once, closes_due, percent
from store.errors import DomainError, ErrorCode
from store.ledger import ZERO, Change
from store.models import Currency, ListingApplication, ListingProject
from store.money import money

USDT = "USDT"
UPCOMING, IN_PROGRESS, ENDED = 0, 1, 2  # ListingProject.status
REVIEW, WON, NOT_WON = 0, 1, 2  # ListingApplication.status
BATCH = 500  # applications a sweep's pass (or a project's job) reads at a time
PER_PAGE = 10


def status(project: ListingProject, now: int) -> int:
    """0 upcoming, 1 in progress, 2 ended (its end has come, or it was allocated)."""
    if project.allocated_at is not None or now >= project.etime:
        return ENDED
    return UPCOMING if now < project.btime else IN_PROGRESS


def project_public(project: ListingProject, now: int, balance: Decimal) -> dict[str, Any]:
    """A project as listing/index and listing/info show it (``bizhong`` fetched); ``money`` is the
    user's financial USDT (``balance``), ``radio`` the USDT applied against the USDT the remaining
    tokens cost, in percent (above 100 when oversubscribed)."""
    return {
        "id": project.id,
        "title": project.title,
        "desc": project.desc,
        "status": status(project, now),
        "bizhong": project.bizhong.code,
        "total": money(project.total),
        "shengyu": money(project.shengyu),
        "radio": percent(project.applied, project.shengyu * project.price),
        "price": money(project.price),
        "applied": money(project.applied),
        "btime": project.btime,
        "etime": project.etime,
        "online": project.online,
        "lock_days": project.lock_days,
        "min_amount": money(project.min_amount),
        "allocated_at": project.allocated_at,
        "money": money(balance),
    }


def application_public(row: ListingApplication, project: ListingProject) -> dict[str, Any]:
    """An application as listing/buy and listing/orders show it."""
    return {
        "id": row.id,
        "project_id": project.id,
        "title": project.title,
        "times": int(row.created_at.timestamp() * 1000),
        "bizhong": project.bizhong.code,
        "total": money(row.nums),
        "nums": money(row.won_tokens),
        "won_usdt": money(row.won_usdt),
        "price": money(row.price),
        "online": project.online,
        "status": row.status,
        "release_ms": row.release_ms,
        "released": row.released,
        "credited": row.credited,
    }


async def get_project(project_id: int) -> ListingProject:
    project = await ListingProject.get_or_none(id=project_id).prefetch_related("bizhong")
    if project is None:
        raise DomainError(ErrorCode.LISTING_NOT_FOUND)
    return project


async def usdt() -> Currency:
    return await Currency.get(code=USDT)


def _check_application(project: ListingProject, now: int, nums: Decimal) -> None:
    if project.allocated_at is not None or now >= project.etime:
        raise DomainError(ErrorCode.LISTING_ENDED)
    if now < project.btime:
        raise DomainError(ErrorCode.LISTING_NOT_STARTED)
    if nums < project.min_amount:
        raise DomainError(ErrorCode.LISTING_BELOW_MIN, min=money(project.min_amount), currency=USDT)


async def apply(uid: int, project: ListingProject, nums: Decimal, now: int) -> ListingApplication:
    """Apply with ``nums`` USDT (already positive, with at most USDT's places): they move from the
    balance of the financial account to its lock until ``now + lock_days``. Raises LISTING_ENDED,
    LISTING_NOT_STARTED, LISTING_BELOW_MIN (less than the project's ``min_amount``) and
    INSUFFICIENT_BALANCE; nothing is written then. Each call is an application."""
    _check_application(project, now, nums)
    coin = await usdt()
    made: list[ListingApplication] = []

    async def record(conn: BaseDBAsyncClient) -> None:
        row = await ListingProject.filter(id=project.id).select_for_update().using_db(conn).get()  # allocations wait
        _check_application(row, now, nums)  # again under the row's lock: an edit may have come between
        release_ms = now + row.lock_days * DAY_MS
        made.append(await ListingApplication.create(project_id=row.id, user_id=uid, nums=nums, price=row.price,
                                                    release_ms=release_ms, using_db=conn))  # fmt: skip
        row.applied += nums
        await row.save(using_db=conn, update_fields=["applied"])

    memo = f"listing {project.id}: apply {money(nums)} {USDT} for {project.bizhong.code}"
    ref = f"ls{project.id}:{uuid.uuid4().hex}:lock"
    change = Change(uid, coin.id, FINANCIAL, -nums, nums, LOG_LISTING, ref, memo, {"project_id": project.id})
    await ledger.apply([change], also=record)
    return made[0]


# -- allocation, release and credit (the Scheduler's listing sweeps) -----------------------------------


def allocate_rows(project: ListingProject, apps: list[ListingApplication], usdt_places: int) -> tuple[
    allocation.ListingLine, ...
]:  # fmt: skip
    """The allocation of a project (``bizhong`` fetched) from its applications: what ``allocate``
    writes, and what ``exchange products allocation`` recomputes."""
    rows = [allocation.Application(a.id, a.nums, a.price) for a in apps]
    return allocation.allocate_listing(project.shengyu, rows, token_places=project.bizhong.decimals,
                                       asset_places=usdt_places)  # fmt: skip


async def allocate(project_id: int, now: int) -> bool:
    """Mark a project whose end has come allocated and write each application's share onto it, in
    one transaction. False when it was allocated before or its end has not come."""
    coin = await usdt()

    async def write(conn: BaseDBAsyncClient) -> None:
        project = await ListingProject.get(id=project_id, using_db=conn).prefetch_related("bizhong")
        apps = await ListingApplication.filter(project_id=project_id).using_db(conn)
        for app, line in zip(apps, allocate_rows(project, apps, coin.decimals), strict=True):
            app.won_tokens, app.won_usdt = line.won_tokens, line.won_usdt
        await bulk.update_rows(conn, apps, ("won_tokens", "won_usdt"))  # one statement, however many

    due = ListingProject.filter(id=project_id, allocated_at=None, etime__lte=now)
    return await close_once(due, {"status": ENDED, "allocated_at": now}, write)


def _flag(row_id: int, expect: dict[str, Any], to: dict[str, Any]) -> Write:
    """A step's flag, flipped in the transaction of its money; Stale when it had flipped before."""

    async def flip(conn: BaseDBAsyncClient) -> None:
        if not await ListingApplication.filter(id=row_id, **expect).using_db(conn).update(**to):
            raise Stale

    return flip


def _extra(app: ListingApplication) -> dict[str, Any]:
    return {"project_id": app.project_id, "application_id": app.id}


async def decide(app: ListingApplication, project: ListingProject, usdt_id: int) -> bool:
    """The USDT won leaves the lock to the house and the application becomes won (or not won)."""
    uid, ref = app.user_id, f"ls{app.id}"
    changes = []
    if app.won_usdt > 0:
        memo = f"listing {project.id}: won {money(app.won_tokens)} {project.bizhong.code}"
        changes.append(
            Change(uid, usdt_id, FINANCIAL, ZERO, -app.won_usdt, LOG_LISTING, f"{ref}:won", memo, _extra(app))
        )
    house = [HouseRow(SALE_PROCEEDS, usdt_id, app.won_usdt, f"{ref}:proceeds", uid, app.id)]
    to = {"status": WON if app.won_tokens > 0 else NOT_WON}
    return await move(changes, house, _flag(app.id, {"status": REVIEW}, to))


async def release(app: ListingApplication, project: ListingProject, usdt_id: int) -> bool:
    """The rest of the lock (applied less won) returns to the balance."""
    uid, rest = app.user_id, app.nums - app.won_usdt
    changes = []
    if rest > 0:
        memo = f"listing {project.id}: {money(rest)} {USDT} released"
        changes.append(
            Change(uid, usdt_id, FINANCIAL, rest, -rest, LOG_LISTING, f"ls{app.id}:release", memo, _extra(app))
        )
    flag = _flag(app.id, {"released": False, "status__in": (WON, NOT_WON)}, {"released": True})
    return await move(changes, [], flag)


async def credit(app: ListingApplication, project: ListingProject) -> bool:
    """The tokens won are credited from the house."""
    uid, ref, coin = app.user_id, f"ls{app.id}", project.bizhong_id
    memo = f"listing {project.id}: {money(app.won_tokens)} {project.bizhong.code} credited"
    changes = [Change(uid, coin, FINANCIAL, app.won_tokens, ZERO, LOG_LISTING, f"{ref}:tokens", memo, _extra(app))]
    house = [HouseRow(SALE_ISSUE, coin, -app.won_tokens, f"{ref}:issue", uid, app.id)]
    return await move(changes, house, _flag(app.id, {"credited": False, "status": WON}, {"credited": True}))


async def _projects(apps: list[ListingApplication]) -> dict[int, ListingProject]:
    ids = {a.project_id for a in apps}
    return {p.id: p for p in await ListingProject.filter(id__in=ids).prefetch_related("bizhong")}


def _next(found: int, *candidates: int | None, now: int) -> int | None:
    """``now`` while a batch was full (more is due), else the earliest of the candidates."""
    if found >= BATCH:
        return now
    times = [t for t in candidates if t is not None]
    return min(times) if times else None


async def due_allocation(now: int) -> dict[str, Any]:
    """The projects with work at ``now`` (``due``, their ids): those whose end has come and that are not
    allocated yet (oldest end first), then the allocated ones with applications left to decide.
    ``next_ms``: now while some are due, else the next end to come (None for none)."""
    ended = ListingProject.filter(allocated_at=None, etime__lte=now)
    deciding = ListingProject.filter(allocated_at__isnull=False, applications__status=REVIEW)
    return await closes_due(ended, deciding, ListingProject.filter(allocated_at=None), now)


async def allocate_and_decide(project_id: int, now: int) -> dict[str, Any]:
    """One project's work, the Scheduler's job for it: allocate it if its end has come (``allocate``),
    then decide its applications, BATCH at a time, until none is left (each step idempotent). What it
    did: allocated (0 or 1), decided."""
    allocated = await allocate(project_id, now)
    project, coin = await ListingProject.get(id=project_id).prefetch_related("bizhong"), await usdt()
    decided = 0
    while project.allocated_at is not None:
        apps = await ListingApplication.filter(project_id=project_id, status=REVIEW).order_by("id").limit(BATCH)
        now_decided = sum([await decide(app, project, coin.id) for app in apps])
        decided += now_decided
        if len(apps) < BATCH or not now_decided:  # none left, or none this batch could decide
            break
    return {"allocated": int(allocated), "decided": decided}


async def sweep_release(now: int) -> dict[str, Any]:
    """Release the rest of every decided application whose lock has ended (up to BATCH)."""
    undone = ListingApplication.filter(released=False, status__in=(WON, NOT_WON))
    apps = await undone.filter(release_ms__lte=now).order_by("release_ms").limit(BATCH)
    projects, coin = await _projects(apps), await usdt()
    released = 0
    for app in apps:
        released += await release(app, projects[app.project_id], coin.id)
    later = await scalar(
        undone.filter(release_ms__gt=now).order_by("release_ms").first().values_list("release_ms", flat=True)
    )
    return {"released": released, "next_ms": _next(len(apps), later, now=now)}


async def sweep_credit(now: int) -> dict[str, Any]:
    """Credit the tokens of every won application whose project's online date has come (up to BATCH)."""
    undone = ListingApplication.filter(credited=False, status=WON)
    apps = await undone.filter(project__online__lte=now).order_by("id").limit(BATCH)
    projects = await _projects(apps)
    credited = 0
    for app in apps:
        credited += await credit(app, projects[app.project_id])
    waiting = ListingProject.filter(online__gt=now, allocated_at=None).order_by("online").first()
    won = undone.filter(project__online__gt=now).order_by("project__online").first()
    later = [
        await scalar(waiting.values_list("online", flat=True)),
        await scalar(won.values_list("project__online", flat=True)),
    ]
    return {"credited": credited, "next_ms": _next(len(apps), *later, now=now)}
