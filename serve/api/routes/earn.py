"""Lock savings (``storage_currency/*``) and mining (``mining/*``), issue 13
(docs/decisions.md "Lock savings and mining").

The edge checks presence and format and dates a buy or a cancel on the earn clock (the Scheduler's:
``store.earn.clock``); ``store.earn.lock`` and ``store.earn.mining`` check the rules and move the
money. Lists and product details are public; buying, cancelling and the user's orders need a login.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from serve.api.amounts import AmountText, parse_amount
from serve.api.deps import CurrentUid, Lang, OptionalUser, SingleFlight, Svc
from serve.api.idempotency import Keyed, idempotent
from serve.errors import envelope
from serve.i18n import N_, translate
from store.earn import FINANCIAL, clock, lock, mining
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, Account, Currency, EarnStatus, MiningOrder, MiningProduct
from store.money import money

lock_router = APIRouter(prefix="/storage_currency", tags=["lock savings"])
mining_router = APIRouter(prefix="/mining", tags=["mining"])

PURCHASED = N_("Purchase successful")
CANCELLED = N_("Cancelled")
BALANCE_KEYS = {"money": "USDT", "acb": "ACB", "mvbt": "MVBT"}  # mining/info's financial balances

Limit = Annotated[int, Query(ge=1, le=100)]
PageNo = Annotated[int, Query(ge=1, le=INT_MAX)]
ProductId = Annotated[int, Query(ge=1, le=INT_MAX)]
OrdersType = Annotated[int, Query(ge=0, le=1, description="0 in progress, 1 ended (or cancelled)")]


class EarnBody(BaseModel):
    model_config = ConfigDict(extra="ignore")


class LockSubmitIn(EarnBody, Keyed):
    id: int = Field(ge=1, le=INT_MAX, description="the lock product")


class MiningBuyIn(EarnBody, Keyed):
    id: int = Field(ge=1, le=INT_MAX, description="the mining product")
    nums: AmountText = Field(default=None, description="the principal")
    type: int = Field(default=1, ge=-INT_MAX, le=INT_MAX, description="1 USDT, 2 ACB, 3 MVBT")


class MiningCancelIn(EarnBody):
    id: int = Field(ge=1, le=2**63 - 1, description="the mining order")


async def _today(svc: Svc) -> int:
    return clock.day_of(await clock.scheduler_now_ms(svc.redis))


@lock_router.get("/lock_list")
async def lock_list(limit: Limit = 30) -> Any:
    """The lock products on offer, with the lots sold (public)."""
    return envelope(await lock.products(limit))


@lock_router.post("/submit_lock")
@idempotent(single_flight=True)
async def submit_lock(body: LockSubmitIn, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """Lock one lot of the product from the financial account until its maturity."""
    made = await lock.buy(uid=uid, product_id=body.id, day=await _today(svc))
    (order,) = await lock.orders_by_id([made.id])
    return envelope(order, translate(PURCHASED, lang))


@lock_router.get("/current_setting")
async def current_setting(uid: CurrentUid, limit: Limit = 30) -> Any:
    """The user's locks, newest first: start, maturity, accrued and expected interest."""
    return envelope(await lock.orders(uid, limit))


async def _value(svc: Svc) -> mining.Value:
    book = await svc.prices.book()
    return book.value


@mining_router.get("/index")
async def mining_index(svc: Svc, user: OptionalUser) -> Any:
    """The mining products and the user's summary (zeros when logged out; public)."""
    products = await MiningProduct.all().order_by("sort", "id")
    info = await mining.summary(user.id if user else None, await _today(svc), await _value(svc))
    return envelope({"list": [mining.product_public(p) for p in products], "info": info})


@mining_router.get("/info")
async def mining_info(id: ProductId, svc: Svc, user: OptionalUser) -> Any:  # noqa: A002 - the spec's name
    """A product with the user's financial USDT, ACB and MVBT balances and today's published rate."""
    product = await MiningProduct.get_or_none(id=id)
    if product is None:
        raise DomainError(ErrorCode.MINING_PRODUCT_NOT_FOUND)
    balances: dict[str, Decimal] = {}
    if user is not None:
        codes = list(BALANCE_KEYS.values())
        rows = await Account.filter(user_id=user.id, account_type=FINANCIAL, currency__code__in=codes).prefetch_related(
            "currency"
        )
        balances = {a.currency.code: a.balance for a in rows}
    rate = (await mining.published([product.id], await _today(svc))).get(product.id)
    return envelope({
        **mining.product_public(product),
        **{key: money(balances.get(code, Decimal(0))) for key, code in BALANCE_KEYS.items()},
        "rate_today": None if rate is None else money(rate),
    })  # fmt: skip


@mining_router.post("/buy")
@idempotent(single_flight=True)
async def mining_buy(body: MiningBuyIn, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """Put ``nums`` of the type's currency (1 USDT, 2 ACB, 3 MVBT) into the product for its cycle."""
    product = await MiningProduct.get_or_none(id=body.id)
    if product is None:
        raise DomainError(ErrorCode.MINING_PRODUCT_NOT_FOUND)
    currency = await mining.currency_of(body.type)
    try:
        nums = parse_amount(body.nums, missing=ErrorCode.MINING_AMOUNT_REQUIRED, places=currency.decimals,
                            maximum=product.maxs)  # fmt: skip
    except DomainError as exc:
        if exc.code == ErrorCode.AMOUNT_ABOVE_MAX:  # the spec's maximum message, with the number
            raise DomainError(ErrorCode.MINING_ABOVE_MAX, max=money(product.maxs)) from None
        raise
    made = await mining.buy(uid=uid, product_id=body.id, type_=body.type, nums=nums, day=await _today(svc))
    return envelope((await _orders_public([made]))[0], translate(PURCHASED, lang))


@mining_router.get("/orders")
async def mining_orders(uid: CurrentUid, svc: Svc, page: PageNo = 1, type: OrdersType = 0) -> Any:  # noqa: A002
    """The user's orders in progress (type 0) or ended (1), newest first, 6 a page; with the summary."""
    statuses = [EarnStatus.ACTIVE] if type == 0 else [EarnStatus.ENDED, EarnStatus.CANCELLED]
    query = MiningOrder.filter(user_id=uid, status__in=statuses)
    total = await query.count()
    rows = await query.order_by("-id").offset((page - 1) * mining.PER_PAGE).limit(mining.PER_PAGE)
    info = await mining.summary(uid, await _today(svc), await _value(svc))
    pages = max(1, -(-total // mining.PER_PAGE))
    return envelope({"list": await _orders_public(rows), "info": info, "page": pages, "total": total})


@mining_router.post("/cancel", dependencies=[SingleFlight])
async def mining_cancel(body: MiningCancelIn, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """End an active order early: the principal returns less penalty_rate % x remaining days x nums."""
    ended = await mining.cancel(uid=uid, order_id=body.id, day=await _today(svc))
    data = {"id": ended.id, "penalty": money(ended.penalty), "returned": money(ended.returned),
            "status": int(ended.status)}  # fmt: skip
    return envelope(data, translate(CANCELLED, lang))


async def _orders_public(rows: list[MiningOrder]) -> list[dict[str, Any]]:
    titles = dict(await MiningProduct.filter(id__in={r.product_id for r in rows}).values_list("id", "title"))
    codes = dict(await Currency.filter(id__in={r.currency_id for r in rows}).values_list("id", "code"))
    return [mining.order_public(r, titles.get(r.product_id, ""), codes.get(r.currency_id, "")) for r in rows]


router = APIRouter()
router.include_router(lock_router)
router.include_router(mining_router)
