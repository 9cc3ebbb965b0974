"""Leveraged contracts: lever/deal, submit, cancel, close, setstop, batch_close, dealall, my_trade
(docs/decisions.md "Leveraged contracts (issue 11)"). All POST with JSON and a login.

The edge checks presence and format (for a fixed price in the spec's order: price, multiple, hands)
and that the pair exists; the user's LeverShard (``engine.lever(uid)``) checks the business rules,
moves the money and answers the position. Reads of positions come from the database; the names of
side, state and close reason are added here, in the request's language.
"""

from __future__ import annotations

from collections.abc import Awaitable
from decimal import Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from actors.commands import LeverOrder
from actors.pair.state import PairConfig
from serve.api.amounts import AMOUNT_RE, MAX_LENGTH, AmountText, parse_amount
from serve.api.deps import CurrentUid, EngineDep, Lang, Services, Svc
from serve.api.idempotency import Keyed, attempt_of, idempotent
from serve.api.lever_answers import (
    LeverChoicesOut,
    LeverClosedOut,
    LeverDealAllOut,
    LeverDealOut,
    LeverPositionOut,
    LeverShareOut,
)
from serve.api.paging import paginate
from serve.api.responses import Envelope, Paged
from serve.api.schemas import fail
from serve.errors import envelope
from serve.i18n import N_, translate
from store import marks
from store.db import scalar
from store.errors import DomainError, ErrorCode
from store.lever import LONG, SHORT, position_public
from store.models import INT_MAX, CurrencyMatch, LeverPosition, LeverStatus
from store.money import money

router = APIRouter(prefix="/lever", tags=["lever"])

PER_PAGE = 10  # spec §9
MARKET, FIXED = 1, 0  # submit's ``status``
OPEN_ON_PAIR = 5  # my_trade's status for the open positions of one pair (the screen's first tab)
TYPE_NAMES = {LONG: N_("Long"), SHORT: N_("Short")}
STATUS_NAMES = {
    LeverStatus.ENTRUSTED: N_("Entrusted"),
    LeverStatus.OPEN: N_("Open"),
    LeverStatus.CLOSING: N_("Closing"),
    LeverStatus.CLOSED: N_("Closed"),
    LeverStatus.CANCELLED: N_("Cancelled"),
}
REASON_NAMES = {
    "manual": N_("Closed manually"),
    "batch": N_("Closed together"),
    "take_profit": N_("Take-profit"),
    "stop_loss": N_("Stop-loss"),
    "liquidation": N_("Liquidated"),
    "cancelled": N_("Cancelled"),
    "cover": N_("Closed to cover a loss"),  # the account's other positions and entrustments paid a close's loss
    "exposure": N_("Cancelled: the pair's position limit was reached"),  # an entrustment the cap refused at its fill
}
PLACED = N_("Order placed")
CANCELLED = N_("Order cancelled")
CLOSED = N_("Position closed")
SAVED = N_("Saved")
BAD_TAKE_PROFIT = N_("Please enter a valid take-profit price")
BAD_STOP_LOSS = N_("Please enter a valid stop-loss price")


def _blank_is_none(value: object) -> object:
    """An empty form field is no value; ``true`` is not a number (pydantic would read it as 1)."""
    if isinstance(value, bool):
        return "not a number"
    return None if isinstance(value, str) and not value.strip() else value


# A count typed or chosen on the screen (hands, multiple): a whole number, or its digits as a string;
# empty, absent or 0 is "not given" (the spec's prompt).
Count = Annotated[Annotated[int, Field(ge=0, le=INT_MAX)] | None, BeforeValidator(_blank_is_none)]
PairId = Annotated[int, Field(ge=1, le=INT_MAX)]
PositionId = Annotated[int, Field(ge=1, le=2**63 - 1)]
Page = Annotated[int, Field(ge=1, le=INT_MAX)]


class LeverBody(BaseModel):
    model_config = ConfigDict(extra="ignore")


class PairIn(LeverBody):
    currency_match_id: PairId


class SubmitIn(LeverBody, Keyed):
    currency_match_id: PairId
    type: int = Field(ge=LONG, le=SHORT, description="1 long, 2 short")
    status: int = Field(ge=FIXED, le=MARKET, description="1 at the market price, 0 at a fixed price (an entrustment)")
    share: Count = Field(default=None, description="hands, 1 to the pair's lever_max_hands")
    multiple: Count = Field(default=None, description="one of the pair's lever_multiples")
    target_price: AmountText = Field(default=None, description="a fixed price's target (status 0)")


class PositionRef(LeverBody):
    id: PositionId


class SetStopIn(PositionRef):
    target_profit_price: AmountText = Field(default=None, description="empty or 0 clears it")
    stop_loss_price: AmountText = Field(default=None, description="empty or 0 clears it")


class BatchCloseIn(LeverBody):
    type: int = Field(default=0, ge=0, le=SHORT, description="0 every side, 1 long, 2 short")
    currency_match_id: int = Field(default=0, ge=0, le=INT_MAX, description="0: every pair")


class DealAllIn(PairIn):
    page: Page = 1


class MyTradeIn(LeverBody):
    status: int = Field(default=int(LeverStatus.OPEN), ge=0, le=OPEN_ON_PAIR,
                        description="0 entrusted, 1 open, 2 closing, 3 closed, 4 cancelled (every pair); "
                        "5 open on currency_match_id")  # fmt: skip
    currency_match_id: int = Field(default=0, ge=0, le=INT_MAX)
    page: Page = 1


def _named(position: dict[str, Any], lang: str) -> LeverPositionOut:
    """A position (store.lever.position_public's shape) with its names in ``lang``, checked against the
    answer's model: a field the store renamed or dropped fails here."""
    reason = position.get("close_reason") or ""
    return LeverPositionOut.model_validate(
        {
            **position,
            "type_name": translate(TYPE_NAMES[position["type"]], lang),
            "status_name": translate(STATUS_NAMES[LeverStatus(position["status"])], lang),
            "close_reason_name": translate(REASON_NAMES[reason], lang) if reason in REASON_NAMES else reason,
        },
        strict=True,
    )


async def _on_position(call: Awaitable[dict[str, Any]], uid: int, position_id: int, *, gone: ErrorCode) -> Any:
    """A shard call about one position. A position the shard no longer holds but the database shows
    as the user's has closed or been cancelled meanwhile: ``gone``, not "not found"."""
    try:
        return await call
    except DomainError as exc:
        if exc.code == ErrorCode.LEVER_POSITION_NOT_FOUND and await LeverPosition.exists(id=position_id, user_id=uid):
            raise DomainError(gone) from exc
        raise


async def _marks(svc: Services, pairs: list[PairConfig]) -> dict[int, Decimal]:
    """The current mark of each pair that has one (fresh or not: only to show a profit)."""
    found = await marks.read(svc.redis, [p.symbol for p in pairs])
    return {p.id: found[p.symbol].price for p in pairs if p.symbol in found}


async def _page(svc: Services, query: Any, page: int, lang: str) -> Paged[LeverPositionOut]:
    """One page of positions, newest first, with profits at the current marks."""
    query = query.order_by("-created_at", "-id")
    result = await paginate(query, page, PER_PAGE, lambda p: p)
    rows: list[LeverPosition] = result["data"]
    pairs = {i: await svc.pairs.get(i) for i in {p.currency_match_id for p in rows}}
    current = await _marks(svc, list(pairs.values()))

    def shape(p: LeverPosition) -> LeverPositionOut:
        pair = pairs[p.currency_match_id]
        return _named(position_public(p, pair, current.get(pair.id)), lang)

    return Paged[LeverPositionOut](**{**result, "data": [shape(p) for p in rows]})


# --- reads ----------------------------------------------------------------------------------------


@router.post("/deal", response_model=Envelope[LeverDealOut])
async def deal(body: PairIn, uid: CurrentUid, svc: Svc, engine: EngineDep, lang: Lang) -> Any:
    """What the order panel needs: the free lever USDT, the multiples and hands offered, the user's
    entrustments on the pair, the pair's mark and the account's risk rate."""
    row = await CurrencyMatch.get_or_none(id=body.currency_match_id)
    if row is None:
        raise DomainError(ErrorCode.PAIR_NOT_FOUND)
    if not row.open_lever:
        raise DomainError(ErrorCode.LEVER_NOT_OFFERED)
    pair = await svc.pairs.get(row.id)
    overview = await engine.lever_overview(uid, pair.id)
    mark = (await _marks(svc, [pair])).get(pair.id)
    entrusted = LeverPosition.filter(user_id=uid, currency_match_id=pair.id, status=LeverStatus.ENTRUSTED)
    rows = await entrusted.order_by("-created_at", "-id")
    return envelope(
        LeverDealOut(
            user_lever=overview["balance"],
            multiple=LeverChoicesOut(
                muit=_numbers(row.lever_multiples),
                share=[LeverShareOut(value=n, label=str(n)) for n in _numbers(row.lever_shares)],
            ),
            my_transaction=[_named(position_public(p, pair, mark), lang) for p in rows],
            mark=money(mark) if mark is not None else None,
            hazard_rate=overview["hazard_rate"],
        )
    )


def _numbers(setting: str) -> list[int]:
    """A comma-separated list of whole numbers from a pair's settings."""
    return [int(part) for part in setting.split(",") if part.strip().isdigit()]


@router.post("/dealall", response_model=Envelope[LeverDealAllOut])
async def dealall(body: DealAllIn, uid: CurrentUid, svc: Svc, engine: EngineDep, lang: Lang) -> Any:
    """The user's open positions on the pair (10 a page, newest first, profits at the mark), the
    account's risk rate and the unrealised profit of those positions."""
    pair = await svc.pairs.get(body.currency_match_id)
    overview = await engine.lever_overview(uid, pair.id)
    query = LeverPosition.filter(user_id=uid, currency_match_id=pair.id, status=LeverStatus.OPEN)
    order = await _page(svc, query, body.page, lang)
    rate, profits = overview["hazard_rate"], overview["profits_all"]
    return envelope(LeverDealAllOut(order=order, hazard_rate=rate, profits_all=profits))


@router.post("/my_trade", response_model=Envelope[Paged[LeverPositionOut]])
async def my_trade(body: MyTradeIn, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """The user's positions in one state over every pair (0 entrusted, 1 open, 2 closing, 3 closed,
    4 cancelled), or 5: the open ones of ``currency_match_id``. 10 a page, newest first."""
    query = LeverPosition.filter(user_id=uid)
    if body.status == OPEN_ON_PAIR:
        if not body.currency_match_id:
            raise DomainError(ErrorCode.PAIR_NOT_FOUND)
        pair = await svc.pairs.get(body.currency_match_id)
        query = query.filter(currency_match_id=pair.id, status=LeverStatus.OPEN)
    else:
        query = query.filter(status=LeverStatus(body.status))
    return envelope(await _page(svc, query, body.page, lang))


# --- commands -------------------------------------------------------------------------------------


def _left_empty(text: object) -> bool:
    """Whether an amount field was left empty: absent, blank or zero."""
    if text is None:
        return True
    raw = (repr(text) if isinstance(text, float) else str(text)).strip()
    return not raw or len(raw) <= MAX_LENGTH and AMOUNT_RE.fullmatch(raw) is not None and Decimal(raw) == 0


def _count(value: int | None, missing: ErrorCode) -> int:
    if not value:
        raise DomainError(missing)
    return value


@router.post("/submit", response_model=Envelope[LeverPositionOut])
@idempotent(retry=True)
async def submit(body: SubmitIn, uid: CurrentUid, svc: Svc, engine: EngineDep, request: Request, lang: Lang) -> Any:
    """Open a position at the market price (status 1) or place an entrustment at a fixed price
    (status 0: opens when the mark reaches target_price). Answers the position."""
    fixed = body.status == FIXED
    if fixed and _left_empty(body.target_price):
        raise DomainError(ErrorCode.LEVER_PRICE_REQUIRED)
    multiple = _count(body.multiple, ErrorCode.LEVER_MULTIPLE_REQUIRED)
    hands = _count(body.share, ErrorCode.LEVER_HANDS_REQUIRED)
    pair = await svc.pairs.get(body.currency_match_id)
    target = None
    if fixed:
        target = parse_amount(body.target_price, missing=ErrorCode.LEVER_PRICE_REQUIRED, places=pair.price_decimals,
                              maximum=pair.max_price)  # fmt: skip
    attempt = attempt_of(request)
    # Every run of a key opens the same position: the shard opens it once.
    position_id = await attempt.remember("position", engine.lever_ids.next) if attempt is not None else None
    order = LeverOrder(pair_id=pair.id, side=body.type, hands=hands, multiple=multiple, target=target,
                       id=position_id)  # fmt: skip
    position = await engine.lever_submit(uid, order)
    return envelope(_named(position, lang), translate(PLACED, lang))


@router.post("/cancel", response_model=Envelope[LeverPositionOut])
async def cancel(body: PositionRef, uid: CurrentUid, svc: Svc, engine: EngineDep, lang: Lang) -> Any:
    """Cancel one of the user's entrustments: its frozen margin and fee return to the balance."""
    position = await _on_position(engine.lever_cancel(uid, body.id), uid, body.id, gone=ErrorCode.LEVER_NOT_ENTRUSTED)
    return envelope(_named(position, lang), translate(CANCELLED, lang))


@router.post("/close", response_model=Envelope[LeverPositionOut])
async def close(body: PositionRef, uid: CurrentUid, svc: Svc, engine: EngineDep, lang: Lang) -> Any:
    """Close one of the user's open positions at the mark less the spread."""
    position = await _on_position(
        engine.lever_close(uid, body.id), uid, body.id, gone=ErrorCode.LEVER_POSITION_NOT_OPEN
    )
    return envelope(_named(position, lang), translate(CLOSED, lang))


@router.post("/batch_close", response_model=Envelope[LeverClosedOut])
async def batch_close(body: BatchCloseIn, uid: CurrentUid, svc: Svc, engine: EngineDep, lang: Lang) -> Any:
    """Close every open position of the user on one pair (0: every pair) and side (0: both)."""
    if body.currency_match_id:
        await svc.pairs.get(body.currency_match_id)
    closed = await engine.lever_batch_close(uid, body.currency_match_id, body.type)
    data = [_named(p, lang) for p in closed]
    return envelope(LeverClosedOut(closed=len(data), data=data), translate(CLOSED, lang))


def _stop_price(text: object, places: int, maximum: Decimal, message: str) -> Decimal | None:
    """A take-profit or stop-loss price; None (clear it) for nothing, empty or 0."""
    if _left_empty(text):
        return None
    try:
        return parse_amount(text, missing=ErrorCode.BAD_REQUEST, places=places, maximum=maximum)
    except DomainError as exc:
        if exc.code == ErrorCode.BAD_REQUEST:
            raise fail(message) from exc
        raise


@router.post("/setstop", response_model=Envelope[LeverPositionOut])
async def setstop(body: SetStopIn, uid: CurrentUid, svc: Svc, engine: EngineDep, lang: Lang) -> Any:
    """Set or clear the take-profit and stop-loss of an open position. A long's take-profit must be
    above the mark and its stop-loss below (a short's the other way round)."""
    found = await scalar(LeverPosition.get_or_none(id=body.id, user_id=uid).values_list("currency_match_id", flat=True))
    if found is None:
        raise DomainError(ErrorCode.LEVER_POSITION_NOT_FOUND)
    pair = await svc.pairs.get(found)
    take_profit = _stop_price(body.target_profit_price, pair.price_decimals, pair.max_price, BAD_TAKE_PROFIT)
    stop_loss = _stop_price(body.stop_loss_price, pair.price_decimals, pair.max_price, BAD_STOP_LOSS)
    stops = engine.lever_setstop(uid, body.id, take_profit, stop_loss)
    position = await _on_position(stops, uid, body.id, gone=ErrorCode.LEVER_POSITION_NOT_OPEN)
    return envelope(_named(position, lang), translate(SAVED, lang))
