"""Token sales (``shoufa/*``) and listing applications (``listing/*``): lists and details (public),
subscriptions and applications (logged in), a user's applications (docs/decisions.md "Token sales
and listing").

The edge checks presence and format; ``store.earn.sales`` and ``store.earn.listing`` check the rules,
lock the funds in the financial account and write the rows in one transaction. Closes, allocations,
releases and credits are the Scheduler's sweeps. "Now" is the earn clock (``store.earn.clock``), the
Scheduler's, so a subscription and a close agree on whether a sale has ended.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from serve.api.amounts import AmountText, parse_amount
from serve.api.deps import CurrentUid, Lang, OptionalUser, Svc
from serve.api.idempotency import Keyed, idempotent
from serve.errors import envelope
from serve.i18n import N_, translate
from store.earn import FINANCIAL, clock, listing, sales
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, Account, ListingApplication, ListingProject, TokenSale

router = APIRouter()
shoufa_router = APIRouter(prefix="/shoufa", tags=["shoufa"])
listing_router = APIRouter(prefix="/listing", tags=["listing"])

PURCHASED = N_("Purchase successful")
ALL, IN_PROGRESS, COMPLETED = 99, sales.IN_PROGRESS, sales.COMPLETED
SaleType = Annotated[int, Query(description="99 all, 0 in progress, 1 completed")]
Id = Annotated[int, Query(ge=1, le=INT_MAX)]
PageNo = Annotated[int, Query(ge=1, le=INT_MAX)]


class SalesBody(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: int = Field(ge=1, le=INT_MAX)


class SaleBuyIn(SalesBody, Keyed):
    nums: AmountText = Field(default=None, description="tokens to subscribe, a multiple of the sale's step")


class ListingBuyIn(SalesBody, Keyed):
    nums: AmountText = Field(default=None, description="USDT to apply with")


# -- token sales ---------------------------------------------------------------------------------------


async def _sales_public(rows: list[TokenSale], uid: int | None, now: int) -> list[dict[str, Any]]:
    mine = await sales.mine(uid, [r.id for r in rows]) if uid is not None else {}
    return [sales.sale_public(r, now, mine.get(r.id)) for r in rows]


@shoufa_router.get("/index")
async def sales_index(svc: Svc, user: OptionalUser, type: SaleType = ALL) -> Any:  # noqa: A002 - the spec's name
    """Token sales: all (type 99), in progress (0: upcoming, open or waiting for its close) or completed
    (1: allocated); with ``mine`` (the user's subscriptions, summed) when logged in."""
    if type not in (ALL, IN_PROGRESS, COMPLETED):
        raise DomainError(ErrorCode.BAD_REQUEST)
    query = TokenSale.all() if type == ALL else TokenSale.filter(status=type)
    rows = await query.prefetch_related("huodong", "jieshou")
    return envelope(await _sales_public(rows, user.id if user else None, await clock.scheduler_now_ms(svc.redis)))


@shoufa_router.get("/info")
async def sales_info(svc: Svc, user: OptionalUser, id: Id) -> Any:  # noqa: A002 - the spec's name
    """One token sale, with ``mine`` when logged in."""
    sale = await sales.get_sale(id)
    (found,) = await _sales_public([sale], user.id if user else None, await clock.scheduler_now_ms(svc.redis))
    return envelope(found)


@shoufa_router.post("/buy")
@idempotent(single_flight=True)
async def sales_buy(body: SaleBuyIn, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """Subscribe ``nums`` tokens while the sale is open: ``nums x rengou`` of the accepted asset is
    locked in the financial account until the allocation. Answers the sale with ``mine``."""
    sale = await sales.get_sale(body.id)
    nums = parse_amount(body.nums, missing=ErrorCode.SALE_NUMS_REQUIRED, places=sale.huodong.decimals)
    now = await clock.scheduler_now_ms(svc.redis)
    await sales.subscribe(uid, sale, nums, now)
    (found,) = await _sales_public([await sales.get_sale(body.id)], uid, now)
    return envelope(found, translate(PURCHASED, lang))


# -- listing applications ------------------------------------------------------------------------------


async def _usdt_balance(uid: int | None) -> Decimal:
    if uid is None:
        return Decimal(0)
    coin = await listing.usdt()
    found = await Account.get_or_none(user_id=uid, currency_id=coin.id, account_type=FINANCIAL)
    return found.balance if found else Decimal(0)


@listing_router.get("/index")
async def listing_index(svc: Svc, user: OptionalUser) -> Any:
    """Listing projects, and ``nums``: how many applications the user has made (0 when logged out)."""
    uid = user.id if user else None
    now, balance = await clock.scheduler_now_ms(svc.redis), await _usdt_balance(uid)
    rows = await ListingProject.all().prefetch_related("bizhong")
    count = await ListingApplication.filter(user_id=uid).count() if uid is not None else 0
    return envelope({"list": [listing.project_public(r, now, balance) for r in rows], "nums": count})


@listing_router.get("/info")
async def listing_info(svc: Svc, user: OptionalUser, id: Id) -> Any:  # noqa: A002 - the spec's name
    """One listing project, with the user's financial USDT (``money``)."""
    project = await listing.get_project(id)
    balance = await _usdt_balance(user.id if user else None)
    return envelope(listing.project_public(project, await clock.scheduler_now_ms(svc.redis), balance))


@listing_router.post("/buy")
@idempotent(single_flight=True)
async def listing_buy(body: ListingBuyIn, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """Apply with ``nums`` USDT while the project is in progress: they are locked in the financial
    account for ``lock_days``. 0 or less: the no-funds message; more than the balance: insufficient
    balance. Answers the application."""
    project = await listing.get_project(body.id)
    coin = await listing.usdt()
    nums = parse_amount(body.nums, missing=ErrorCode.LISTING_NO_FUNDS, places=coin.decimals, maximum=coin.max_amount)
    row = await listing.apply(uid, project, nums, await clock.scheduler_now_ms(svc.redis))
    return envelope(listing.application_public(row, project), translate(PURCHASED, lang))


@listing_router.get("/orders")
async def listing_orders(uid: CurrentUid, page: PageNo = 1) -> Any:
    """The user's applications, newest first, 10 a page: ``total`` counts them, ``page`` the pages."""
    query = ListingApplication.filter(user_id=uid)
    total = await query.count()
    rows = await query.order_by("-id").offset((page - 1) * listing.PER_PAGE).limit(listing.PER_PAGE)
    ids = {r.project_id for r in rows}
    projects = {p.id: p for p in await ListingProject.filter(id__in=ids).prefetch_related("bizhong")}
    found = [listing.application_public(r, projects[r.project_id]) for r in rows]
    return envelope({"list": found, "total": total, "page": max(1, -(-total // listing.PER_PAGE))})


router.include_router(shoufa_router)
router.include_router(listing_router)
