"""Token sales (shoufa) in the database: subscribing, the close at the end time, and each
subscription's settlement (docs/decisions.md "Token sales and listing").

1. Subscribe (``subscribe``): while ``btime <= now < etime``, ``nums`` tokens (a whole step, see
   ``store.earn.allocation``, worth at least the sale's ``min_amount``) lock ``nums x price`` of the
   accepted asset in the user's financial account; the sale's row is locked first and the terms read
   from it, the subscription row is written in the transaction of that lock and counted on the sale.
2. Close (``close``, the Scheduler's ``sale_close`` job of the sale once ``etime`` has passed: each
   sale's close and settlements are a job of their own, ``close_and_settle``): under the sale's
   row lock the status flips to completed, so no subscription can join after; the pro-rata allocation
   of every subscription is computed from the stored rows and written onto them (no money moves yet).
3. Settle (``settle``, the same job, one subscription at a time): the lock leaves the account, the
   cost goes to the house (``sale_proceeds``), the rest returns to the balance, and the allocated
   tokens are credited from the house (``sale_issue``); the subscription's status flips to allocated
   in that transaction, so each settlement happens once (its refs make a replay a no-op as well).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.expressions import F

from store import bulk, ledger
from store.db import column, retry_busy, transaction
from store.earn import FINANCIAL, LOG_SHOUFA, SALE_ISSUE, SALE_PROCEEDS, allocation
from store.earn.book import HouseRow, Stale, move
from store.earn.closing import close_once, closes_due, percent
from store.errors import DomainError, ErrorCode
from store.ledger import ZERO, Change
from store.models import Currency, SaleSubscription, TokenSale
from store.money import money

IN_PROGRESS, COMPLETED = 0, 1  # TokenSale.status
PENDING, ALLOCATED = 0, 1  # SaleSubscription.status
SETTLE_BATCH = 500  # subscriptions read at a time by a sale's settlements


def phase(sale: TokenSale, now: int) -> str:
    """upcoming (before btime), open, closed (past etime, the close not run yet), allocated."""
    if sale.status == COMPLETED:
        return "allocated"
    if now < sale.btime:
        return "upcoming"
    return "open" if now < sale.etime else "closed"


def sale_step(sale: TokenSale) -> Decimal:
    """The quantities a subscription may ask: whole multiples of this."""
    return allocation.step(sale.rengou, sale.huodong.decimals, sale.jieshou.decimals)


@dataclass(frozen=True)
class Mine:
    """A user's subscriptions to one sale, summed."""

    nums: Decimal
    locked: Decimal
    allocated: Decimal
    cost: Decimal
    refunded: Decimal
    status: int  # 1 once every one is settled

    def public(self) -> dict[str, Any]:
        return {"nums": money(self.nums), "locked": money(self.locked), "allocated": money(self.allocated),
                "cost": money(self.cost), "refunded": money(self.refunded), "status": self.status}  # fmt: skip


async def mine(uid: int, sale_ids: list[int]) -> dict[int, Mine]:
    """The user's subscriptions to these sales, summed per sale."""
    found: dict[int, list[SaleSubscription]] = {}
    for row in await SaleSubscription.filter(user_id=uid, sale_id__in=sale_ids):
        found.setdefault(row.sale_id, []).append(row)
    return {
        sale_id: Mine(
            nums=sum((r.nums for r in rows), ZERO),
            locked=sum((r.locked for r in rows), ZERO),
            allocated=sum((r.allocated for r in rows), ZERO),
            cost=sum((r.cost for r in rows), ZERO),
            refunded=sum((r.refunded for r in rows), ZERO),
            status=ALLOCATED if all(r.status == ALLOCATED for r in rows) else PENDING,
        )
        for sale_id, rows in found.items()
    }


def sale_public(sale: TokenSale, now: int, mine_: Mine | None = None) -> dict[str, Any]:
    """A sale as shoufa/index and shoufa/info show it (``huodong`` and ``jieshou`` fetched)."""
    return {
        "id": sale.id,
        "title": sale.title,
        "logo": sale.logo,
        "desc": sale.desc,
        "status": sale.status,
        "phase": phase(sale, now),
        "total": money(sale.total),
        "btime": sale.btime,
        "etime": sale.etime,
        "jindu": percent(sale.subscribed, sale.total),
        "rengou": money(sale.rengou),
        "huodong": sale.huodong.code,
        "jieshou": sale.jieshou.code,
        "cishu": sale.cishu,
        "shuliang": money(sale.subscribed),
        "per_user_max": money(sale.per_user_max),
        "step": money(sale_step(sale)),
        "min_amount": money(sale.min_amount),
        "min_nums": money(allocation.least_tokens(sale.min_amount, sale.rengou, sale_step(sale))),
        "allocated_at": sale.allocated_at,
        "mine": mine_.public() if mine_ else None,
    }


async def get_sale(sale_id: int) -> TokenSale:
    sale = await TokenSale.get_or_none(id=sale_id).prefetch_related("huodong", "jieshou")
    if sale is None:
        raise DomainError(ErrorCode.SALE_NOT_FOUND)
    return sale


def _check_open(sale: TokenSale, now: int) -> None:
    if sale.status != IN_PROGRESS or now >= sale.etime:
        raise DomainError(ErrorCode.SALE_ENDED)
    if now < sale.btime:
        raise DomainError(ErrorCode.SALE_NOT_STARTED)


async def _check_limit(sale: TokenSale, uid: int, nums: Decimal, conn: BaseDBAsyncClient) -> None:
    """SALE_PER_USER_MAX when the user's asks with ``nums`` would pass the sale's limit (its total when
    it has none)."""
    limit = sale.per_user_max if sale.per_user_max > 0 else sale.total
    asked = sum(await column(SaleSubscription.filter(sale_id=sale.id, user_id=uid).using_db(conn).values_list(
        "nums", flat=True)), ZERO)  # fmt: skip
    if asked + nums > limit:
        raise DomainError(ErrorCode.SALE_PER_USER_MAX, max=money(limit), left=money(max(limit - asked, ZERO)))


@retry_busy
async def subscribe(uid: int, sale: TokenSale, nums: Decimal, now: int) -> SaleSubscription:
    """Subscribe ``nums`` tokens (already a positive amount with at most the token's places) to the
    sale ``sale`` names.

    In one transaction: the sale's row is locked first and every term is read from it (never from
    ``sale``, which the caller read before: an operator's edit in between changed the price or the
    accepted asset of a sale nobody had subscribed to yet, and the subscription was locked at one price
    and priced at the other), then ``nums x price`` of the accepted asset is locked in the financial
    account and the subscription written. Raises SALE_ENDED, SALE_NOT_STARTED, SALE_NUMS_STEP (not a
    whole step), SALE_BELOW_MIN (it would lock less than the sale's ``min_amount``), SALE_PER_USER_MAX
    (the user's asks would pass the sale's limit, or its total when it has none) and
    INSUFFICIENT_BALANCE; nothing is written then. Not idempotent: each call is a
    subscription (the route refuses a second one in flight)."""
    async with transaction() as conn:
        # The sale's lock before the account's (ledger.apply_in): closes and edits wait for it.
        row = await TokenSale.filter(id=sale.id).select_for_update().using_db(conn).get()
        _check_open(row, now)
        token_id, asset_id = row.huodong_id, row.jieshou_id
        coins = {c.id: c for c in await Currency.filter(id__in=(token_id, asset_id)).using_db(conn)}
        token = coins[token_id]
        unit = allocation.step(row.rengou, token.decimals, coins[asset_id].decimals)
        if not allocation.is_whole(nums, unit):
            raise DomainError(ErrorCode.SALE_NUMS_STEP, step=money(unit))
        locked = allocation.sale_lock(nums, row.rengou)
        if locked < row.min_amount:
            least = allocation.least_tokens(row.min_amount, row.rengou, unit)
            raise DomainError(ErrorCode.SALE_BELOW_MIN, min=money(row.min_amount), currency=coins[asset_id].code,
                              nums=money(least), token=token.code)  # fmt: skip
        await _check_limit(row, uid, nums, conn)  # before the balance: the clearer refusal first
        change = Change(uid, asset_id, FINANCIAL, -locked, locked, LOG_SHOUFA,
                        f"sf{row.id}:{uuid.uuid4().hex}:lock", f"token sale {row.id}: subscribe {money(nums)} "
                        f"{token.code}", {"sale_id": row.id})  # fmt: skip
        await ledger.apply_in(conn, [change])
        made = await SaleSubscription.create(sale_id=row.id, user_id=uid, nums=nums, price=row.rengou, locked=locked,
                                             using_db=conn)  # fmt: skip
        await TokenSale.filter(id=row.id).using_db(conn).update(subscribed=F("subscribed") + nums, cishu=F("cishu") + 1)
    return made


# -- the close and the settlements (the Scheduler's sale_close jobs) -----------------------------------


async def close(sale_id: int, now: int) -> bool:
    """Close a sale whose end time has come: flip it to completed and write each subscription's
    allocation (tokens, cost, refund) onto it, in one transaction. False when it was closed before
    or its end has not come (nothing written)."""

    async def write(conn: BaseDBAsyncClient) -> None:
        sale = await TokenSale.get(id=sale_id, using_db=conn).prefetch_related("huodong", "jieshou")
        subs = await SaleSubscription.filter(sale_id=sale_id).using_db(conn)
        for sub, line in zip(subs, allocate(sale, subs).lines, strict=True):  # the lines come in the rows' order
            sub.allocated, sub.cost, sub.refunded = line.allocated, line.cost, line.refund
        await bulk.update_rows(conn, subs, ("allocated", "cost", "refunded"))  # one statement, however many

    due = TokenSale.filter(id=sale_id, status=IN_PROGRESS, etime__lte=now)
    return await close_once(due, {"status": COMPLETED, "allocated_at": now}, write)


def allocate(sale: TokenSale, subs: list[SaleSubscription]) -> allocation.SaleAllocation:
    """The allocation of a sale from its subscriptions (``huodong`` and ``jieshou`` fetched): what the
    close writes, and what ``exchange products allocation`` recomputes."""
    rows = [allocation.Subscription(s.id, s.nums, s.price, s.locked) for s in subs]
    return allocation.allocate_sale(sale.total, rows, token_places=sale.huodong.decimals,
                                    asset_places=sale.jieshou.decimals)  # fmt: skip


async def settle(sub: SaleSubscription, sale: TokenSale) -> bool:
    """Settle one closed subscription: its lock leaves, its cost goes to the house, the rest returns
    and its tokens are credited from the house; its status flips in the same transaction. False when
    it was settled before."""
    uid, ref = sub.user_id, f"sf{sale.id}:{sub.id}"
    asset, token = sale.jieshou_id, sale.huodong_id
    memo = f"token sale {sale.id}: {money(sub.allocated)} {sale.huodong.code} allocated"
    extra = {"sale_id": sale.id, "subscription_id": sub.id}
    changes = [Change(uid, asset, FINANCIAL, sub.refunded, -sub.locked, LOG_SHOUFA, f"{ref}:alloc", memo, extra)]
    if sub.allocated > 0:
        changes.append(Change(uid, token, FINANCIAL, sub.allocated, ZERO, LOG_SHOUFA, f"{ref}:tokens", memo, extra))
    house = [
        HouseRow(SALE_PROCEEDS, asset, sub.cost, f"{ref}:proceeds", uid, sub.id),
        HouseRow(SALE_ISSUE, token, -sub.allocated, f"{ref}:issue", uid, sub.id),
    ]

    async def flip(conn: BaseDBAsyncClient) -> None:
        if not await SaleSubscription.filter(id=sub.id, status=PENDING).using_db(conn).update(status=ALLOCATED):
            raise Stale  # settled before

    return await move(changes, house, flip)


async def due(now: int) -> dict[str, Any]:
    """The sales with work at ``now`` (``due``, their ids): those whose end has come and that are not
    closed yet (oldest end first), then the closed ones with subscriptions left to settle. ``next_ms``:
    now while some are due, else the next end to come (None for none)."""
    ended = TokenSale.filter(status=IN_PROGRESS, etime__lte=now)
    settling = TokenSale.filter(status=COMPLETED, subscriptions__status=PENDING)
    return await closes_due(ended, settling, TokenSale.filter(status=IN_PROGRESS), now)


async def close_and_settle(sale_id: int, now: int) -> dict[str, Any]:
    """One sale's work, the Scheduler's job for it: close it if its end has come (``close``), then
    settle its subscriptions, SETTLE_BATCH at a time, until none is left. Every step is idempotent, so
    a job cut short (a crash, a timeout) is simply done again. What it did: closed (0 or 1), settled."""
    closed = await close(sale_id, now)
    sale = await TokenSale.get(id=sale_id).prefetch_related("huodong", "jieshou")
    settled = 0
    while sale.status == COMPLETED:
        pending = await SaleSubscription.filter(sale_id=sale_id, status=PENDING).order_by("id").limit(SETTLE_BATCH)
        now_settled = sum([await settle(sub, sale) for sub in pending])
        settled += now_settled
        if len(pending) < SETTLE_BATCH or not now_settled:  # none left, or none this batch could settle
            break
    return {"closed": int(closed), "settled": settled}
