"""The peer-to-peer market, issue 14 (docs/decisions.md "Peer-to-peer market"): the market's ads and
orders (``legal/*``), merchant applications (``merchant/*``) and a merchant's own ads and orders
(``shop/*``).

The edge parses amounts and checks presence and format; ``store.p2p`` checks the rules and moves the
coins. "Now" is the Scheduler's clock (``store.earn.clock``), so a moved clock and the payment windows
agree. Every transition is pushed to both sides on LEGAL_ORDER once it is durable.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from serve.api.amounts import AmountText, parse_amount
from serve.api.deps import CurrentUid, CurrentUser, Lang, SingleFlight, Svc, check_pay_password
from serve.api.idempotency import Keyed, idempotent
from serve.api.p2p_answers import (
    AdOut,
    ListPage,
    MarketAdOut,
    MerchantInfoOut,
    P2PConfigOut,
    P2PCurrencyOut,
    P2PMethodOut,
    P2POrderDetailOut,
    P2POrderItemOut,
    ShopAdOut,
)
from serve.api.responses import Envelope
from serve.api.schemas import Text
from serve.errors import envelope
from serve.i18n import N_, translate
from store.earn import clock
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, AdStatus, P2PAd, P2POrder, P2PState
from store.p2p import ads, merchants, orders, push, rules, views
from store.p2p.ads import AdInput

legal_router = APIRouter(prefix="/legal", tags=["p2p market"])
merchant_router = APIRouter(prefix="/merchant", tags=["p2p merchants"])
shop_router = APIRouter(prefix="/shop", tags=["p2p merchants"])

STATE_NAMES = {
    P2PState.UNPAID: N_("Unpaid"),
    P2PState.PAID: N_("Paid"),
    P2PState.COMPLETED: N_("Completed"),
    P2PState.CANCELLED: N_("Cancelled"),
    P2PState.APPEAL: N_("In appeal"),
}
MERCHANT_NAMES = {
    -1: N_("Not applied"),
    0: N_("Under review"),
    1: N_("Approved"),
    2: N_("Rejected"),
}
METHOD_NAMES = {"alipay": N_("Alipay"), "wxpay": N_("WeChat Pay"), "bank": N_("Bank card")}
DONE = {
    "create": N_("Order placed: pay within the payment window"),
    "paid": N_("Marked as paid: waiting for the seller to release"),
    "cancel": N_("Order cancelled"),
    "release": N_("Released: the coins are in the buyer's account"),
    "appeal": N_("Appeal submitted: an operator will review it"),
    "reply": N_("Your answer is with the appeal: an operator will review both"),
}
APPLIED = N_("Application submitted, please wait for the review")
SAVED = N_("Saved")
AD_CLOSED = N_("Ad closed")
PAGE_SIZE = 10

PageNo = Annotated[int, Query(ge=1, le=INT_MAX)]
OrderId = Annotated[int, Query(ge=1, le=2**63 - 1)]
StateFilter = Annotated[
    int, Query(ge=0, le=5, description="0 all, 1 unpaid, 2 paid, 3 completed, 4 cancelled, 5 appeal")
]


class Body(BaseModel):
    model_config = ConfigDict(extra="ignore")


class OrderIn(Body):
    id: int = Field(ge=1, le=2**63 - 1, description="the order")


class CreateIn(Body, Keyed):
    ad_id: int = Field(ge=1, le=INT_MAX)
    number: AmountText = Field(default=None, description="coins; or give fiat_amount")
    fiat_amount: AmountText = Field(default=None, description="fiat to pay or be paid")
    pay_method: Text = Field(default="", description="alipay, wxpay or bank")


class PaidIn(OrderIn):
    proof: Text = Field(default="", description="a payment-proof image (common/image_upload's URL)")


class ReleaseIn(OrderIn):
    pay_password: str = Field(default="", max_length=128)


class AppealIn(OrderIn):
    reason: str = Field(default="", max_length=2000)
    images: list[Text] = Field(default_factory=list, max_length=10)


class ApplyIn(Body):
    nickname: str = Field(default="", max_length=64)


class AdIn(Body):
    id: int | None = Field(default=None, ge=1, le=INT_MAX, description="the ad to edit; none posts a new one")
    side: int = Field(default=0, ge=0, le=INT_MAX, description="1 you sell, 2 you buy")
    currency_id: int = Field(default=0, ge=0, le=INT_MAX)
    fiat: Text = ""
    price: AmountText = None
    min_fiat: AmountText = None
    max_fiat: AmountText = None
    total: AmountText = None
    methods: list[Text] = Field(default_factory=list, max_length=10)
    window_min: int = Field(default=rules.DEFAULT_WINDOW, ge=0, le=INT_MAX)
    remarks: str = Field(default="", max_length=2000)


class AdStatusIn(Body):
    id: int = Field(ge=1, le=INT_MAX)
    status: int = Field(ge=1, le=2, description="1 online, 2 paused")


class AdCloseIn(Body):
    id: int = Field(ge=1, le=INT_MAX)


async def _now(svc: Svc) -> int:
    return await clock.scheduler_now_ms(svc.redis)


def _ad_amount(text: object, refusal: ErrorCode, decimals: int, **params: Any) -> Decimal:
    """A price, limit or total of an ad: any refusal (missing, not a number, too many decimals) is the
    field's own, whose message names the field and its decimals."""
    try:
        return parse_amount(text, missing=refusal, places=decimals)
    except DomainError as exc:
        raise DomainError(refusal, **params) from exc


def _optional_amount(text: object, places: int) -> Decimal | None:
    if text is None or isinstance(text, str) and not text.strip():
        return None
    return parse_amount(text, missing=ErrorCode.P2P_AMOUNT_REQUIRED, places=places)


async def _detail(order: P2POrder, uid: int, now: int, lang: str) -> P2POrderDetailOut:
    data = await views.detail(order, uid, now)
    data["state_name"] = translate(STATE_NAMES[P2PState(order.state)], lang)
    data["pay_method_name"] = translate(METHOD_NAMES.get(order.pay_method, ""), lang) if order.pay_method else ""
    return P2POrderDetailOut.model_validate(data, strict=True)


async def _answer(svc: Svc, order: P2POrder, uid: int, lang: str, done: str) -> Any:
    """Push the transition to both sides, then answer the order's detail."""
    await push.notify(svc.redis, [order])
    return envelope(await _detail(order, uid, await _now(svc), lang), translate(DONE[done], lang))


def _with_names(page: dict[str, Any], lang: str) -> ListPage[P2POrderItemOut]:
    for item in page["list"]:
        item["state_name"] = translate(STATE_NAMES[P2PState(item["state"])], lang)
    return ListPage[P2POrderItemOut].model_validate(page, strict=True)


# --- the market -------------------------------------------------------------------------------------


@legal_router.get("/config", response_model=Envelope[P2PConfigOut])
async def config(lang: Lang) -> Any:
    """What the market trades: currencies, fiats, payment methods, payment windows, the daily
    cancellation limit and how many orders a taker may have waiting for payment at once (public)."""
    currencies = [P2PCurrencyOut(id=c.id, code=c.code, decimals=c.decimals) for c in await ads.market_currencies()]
    methods = [P2PMethodOut(code=m, name=translate(METHOD_NAMES[m], lang)) for m in rules.METHODS]
    return envelope(P2PConfigOut(currencies=currencies, fiats=list(rules.FIATS), methods=methods,
                                 windows=list(rules.WINDOWS), cancel_limit=rules.CANCEL_LIMIT,
                                 unpaid_max=await orders.unpaid_max()))  # fmt: skip


@legal_router.get("/ads", response_model=Envelope[ListPage[MarketAdOut]])
async def market_ads(
    svc: Svc,
    side: Annotated[str, Query(pattern="^(buy|sell)$", description="buy or sell, as the taker")] = "buy",
    currency_id: Annotated[int, Query(ge=0, le=INT_MAX)] = 0,
    fiat: Annotated[str, Query(pattern="^[A-Za-z]{0,8}$", description="CNY or USD; empty for both")] = "",
    page: PageNo = 1,
) -> Any:
    """Ads a taker can trade on, best price first (public)."""
    found = await ads.market(side, currency_id or None, fiat.upper() or None, page, PAGE_SIZE, await _now(svc))
    return envelope(ListPage[MarketAdOut].model_validate(found, strict=True))


@legal_router.post("/order/create", response_model=Envelope[P2POrderDetailOut])
@idempotent(single_flight=True)
async def order_create(body: CreateIn, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """Open an order on an ad: the seller's coins are held in escrow at once."""
    ad = await P2PAd.get_or_none(id=body.ad_id)
    if ad is None:
        raise DomainError(ErrorCode.P2P_AD_NOT_FOUND)
    currency = await ads.p2p_currency(ad.currency_id)
    number = _optional_amount(body.number, currency.decimals)
    fiat = None if number is not None else _optional_amount(body.fiat_amount, rules.FIAT_PLACES)
    if number is None and fiat is None:
        raise DomainError(ErrorCode.P2P_AMOUNT_REQUIRED)
    opening = orders.Opening(ad_id=body.ad_id, number=number, fiat_amount=fiat, pay_method=body.pay_method)
    order = await orders.create(uid, opening, await _now(svc))
    return await _answer(svc, order, uid, lang, "create")


@legal_router.post("/order/paid", dependencies=[SingleFlight], response_model=Envelope[P2POrderDetailOut])
async def order_paid(body: PaidIn, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """The buyer has paid the fiat (optionally with a proof image)."""
    order = await orders.mark_paid(body.id, uid, body.proof, await _now(svc))
    return await _answer(svc, order, uid, lang, "paid")


@legal_router.post("/order/cancel", dependencies=[SingleFlight], response_model=Envelope[P2POrderDetailOut])
async def order_cancel(body: OrderIn, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """The buyer cancels an unpaid order."""
    order = await orders.cancel(body.id, uid, await _now(svc))
    return await _answer(svc, order, uid, lang, "cancel")


@legal_router.post("/order/release", dependencies=[SingleFlight], response_model=Envelope[P2POrderDetailOut])
async def order_release(body: ReleaseIn, user: CurrentUser, svc: Svc, request: Request, lang: Lang) -> Any:
    """The seller releases the escrow to the buyer, with the deal password."""
    seen = await P2POrder.get_or_none(id=body.id)
    if seen is None or user.id not in (seen.buyer_id, seen.seller_id):
        raise DomainError(ErrorCode.P2P_ORDER_NOT_FOUND)
    if user.id != seen.seller_id:
        raise DomainError(ErrorCode.P2P_SELLER_ONLY)
    if seen.state != P2PState.PAID:
        raise DomainError(ErrorCode.P2P_NOT_PAID)
    await check_pay_password(svc, request, user, body.pay_password)
    order = await orders.release(body.id, user.id, await _now(svc))
    return await _answer(svc, order, user.id, lang, "release")


@legal_router.post("/order/appeal", dependencies=[SingleFlight], response_model=Envelope[P2POrderDetailOut])
async def order_appeal(body: AppealIn, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """Either side disputes a paid order; the escrow stays frozen until an operator decides."""
    order = await orders.appeal(body.id, uid, body.reason, [i for i in body.images if i], await _now(svc))
    return await _answer(svc, order, uid, lang, "appeal")


@legal_router.post("/order/reply", dependencies=[SingleFlight], response_model=Envelope[P2POrderDetailOut])
async def order_reply(body: AppealIn, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """The side that did not appeal answers the appeal once, with its statement and images, for the
    operator to read beside it; the order stays in appeal."""
    order = await orders.reply(body.id, uid, body.reason, [i for i in body.images if i], await _now(svc))
    return await _answer(svc, order, uid, lang, "reply")


@legal_router.get("/orders", response_model=Envelope[ListPage[P2POrderItemOut]])
async def my_orders(uid: CurrentUid, svc: Svc, lang: Lang, state: StateFilter = 0, page: PageNo = 1) -> Any:
    """Orders the user opened on others' ads, newest first."""
    return envelope(_with_names(await views.page(uid, False, state, page, PAGE_SIZE, await _now(svc)), lang))


@legal_router.get("/order/detail", response_model=Envelope[P2POrderDetailOut])
async def order_detail(id: OrderId, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """One order as its side sees it (buyer or seller; the merchant included)."""
    order = await P2POrder.get_or_none(id=id)
    if order is None or uid not in (order.buyer_id, order.seller_id):
        raise DomainError(ErrorCode.P2P_ORDER_NOT_FOUND)
    return envelope(await _detail(order, uid, await _now(svc), lang))


# --- merchants --------------------------------------------------------------------------------------


@merchant_router.post("/apply", dependencies=[SingleFlight], response_model=Envelope[MerchantInfoOut])
async def merchant_apply(body: ApplyIn, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """Apply to be a merchant (an approved real name needed; an operator decides)."""
    await merchants.apply(uid, body.nickname, await _now(svc))
    return envelope(await _merchant_info(uid, svc, lang), translate(APPLIED, lang))


async def _merchant_info(uid: int, svc: Svc, lang: str) -> MerchantInfoOut:
    data = await merchants.info(uid, await _now(svc))
    data["status_name"] = translate(MERCHANT_NAMES[data["status"]], lang)
    return MerchantInfoOut.model_validate(data, strict=True)


@merchant_router.get("/info", response_model=Envelope[MerchantInfoOut])
async def merchant_info(uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """The user's merchant state, verification levels, figures and the methods they may offer."""
    return envelope(await _merchant_info(uid, svc, lang))


# --- a merchant's shop ------------------------------------------------------------------------------


@shop_router.get("/ads", response_model=Envelope[list[ShopAdOut]])
async def shop_ads(
    uid: CurrentUid, status: Annotated[int, Query(ge=0, le=3, description="0 all, 1 online, 2 paused, 3 closed")] = 0
) -> Any:
    """The merchant's ads, with the escrow of their open orders and what they sold."""
    return envelope([ShopAdOut.model_validate(ad, strict=True) for ad in await ads.mine(uid, status)])


@shop_router.post("/ad/save", dependencies=[SingleFlight], response_model=Envelope[AdOut])
async def shop_ad_save(body: AdIn, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """Post an ad, or edit one (its side and currency stay as posted)."""
    if not await merchants.is_merchant(uid):  # before the fields: a non-merchant learns what to do first
        raise DomainError(ErrorCode.MERCHANT_REQUIRED)
    if body.id is None:
        places = (await ads.p2p_currency(body.currency_id)).decimals
    else:
        ad = await P2PAd.get_or_none(id=body.id, merchant_id=uid)
        if ad is None:
            raise DomainError(ErrorCode.P2P_AD_NOT_FOUND)
        places = (await ads.p2p_currency(ad.currency_id)).decimals
    fiat_places = rules.FIAT_PLACES
    inp = AdInput(
        side=body.side, currency_id=body.currency_id, fiat=body.fiat.upper(),
        price=_ad_amount(body.price, ErrorCode.P2P_PRICE_INVALID, fiat_places),
        min_fiat=_ad_amount(body.min_fiat, ErrorCode.P2P_LIMITS_INVALID, fiat_places),
        max_fiat=_ad_amount(body.max_fiat, ErrorCode.P2P_LIMITS_INVALID, fiat_places),
        total=_ad_amount(body.total, ErrorCode.P2P_TOTAL_INVALID, places, places=places),
        methods=tuple(body.methods), window_min=body.window_min, remarks=body.remarks.strip(),
    )  # fmt: skip
    saved = await ads.save(uid, body.id, inp, await _now(svc))
    code = (await ads.p2p_currency(saved.currency_id)).code
    return envelope(AdOut.model_validate(ads.view(saved, code), strict=True), translate(SAVED, lang))


@shop_router.post("/ad/status", dependencies=[SingleFlight], response_model=Envelope[AdOut])
async def shop_ad_status(body: AdStatusIn, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """Put an ad online (1) or pause it (2)."""
    saved = await ads.set_status(uid, body.id, AdStatus(body.status), await _now(svc))
    code = (await ads.p2p_currency(saved.currency_id)).code
    return envelope(AdOut.model_validate(ads.view(saved, code), strict=True), translate(SAVED, lang))


@shop_router.post("/ad/close", dependencies=[SingleFlight], response_model=Envelope[AdOut])
async def shop_ad_close(body: AdCloseIn, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """Close an ad: its stock returns to the balance; open orders on it go on."""
    closed = await ads.close(uid, body.id, await _now(svc))
    code = (await ads.p2p_currency(closed.currency_id)).code
    return envelope(AdOut.model_validate(ads.view(closed, code), strict=True), translate(AD_CLOSED, lang))


@shop_router.get("/orders", response_model=Envelope[ListPage[P2POrderItemOut]])
async def shop_orders(uid: CurrentUid, svc: Svc, lang: Lang, state: StateFilter = 0, page: PageNo = 1) -> Any:
    """Orders on the merchant's ads, newest first."""
    return envelope(_with_names(await views.page(uid, True, state, page, PAGE_SIZE, await _now(svc)), lang))


router = APIRouter()
router.include_router(legal_router)
router.include_router(merchant_router)
router.include_router(shop_router)
