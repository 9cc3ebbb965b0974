"""Moving funds inside one user's wallet: account/transfer (between account types) and account/convert
(BTC or ETH into USDT at the live mark price less a spread). Both go through the user's WalletShard as
one ledger batch."""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import ConfigDict, Field, field_validator
from ray.exceptions import RayActorError

from actors.engine import Engine
from actors.wallet.legs import Conversion
from serve.api.amounts import AmountText, parse_amount
from serve.api.deps import CurrentUid, EngineDep, Lang, Svc
from serve.api.idempotency import Keyed, idempotent, journaled_before, movement_ref
from serve.api.paging import paginate
from serve.api.routes.records import record_public
from serve.api.schemas import fail
from serve.errors import envelope
from serve.i18n import N_, translate
from store import marks
from store.errors import DomainError, ErrorCode
from store.ledger import account_type_of
from store.models import INT_MAX, AccountLog, AccountType, Currency
from store.money import money
from store.prices import USD, conversion_rate
from store.times import now_ms

router = APIRouter(prefix="/account", tags=["account"])

CONVERTIBLE = ("BTC", "ETH")  # spec §9: Bitcoin and Ether only
CONVERT_TO = USD
TRANSFERRED = N_("Transferred")
CONVERTED = N_("Converted")
CHOOSE_ACCOUNT = N_("Please choose an account")
RECORDS_PER_PAGE = 15


def _account_type(value: object) -> AccountType:
    """1 to 5, or an account code (``legal_account`` or ``legal``)."""
    try:
        if isinstance(value, int) and not isinstance(value, bool) or isinstance(value, str) and value.isdigit():
            return AccountType(int(value))
        if isinstance(value, str) and value.strip():
            return account_type_of(value.strip())
    except (ValueError, LookupError):
        pass
    raise fail(CHOOSE_ACCOUNT)


class TransferIn(Keyed):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    currency_id: int = Field(ge=1, le=INT_MAX)
    balance: AmountText = None
    source: AccountType = Field(default=None, validation_alias="from", validate_default=True)
    target: AccountType = Field(default=None, validation_alias="to", validate_default=True)

    @field_validator("source", "target", mode="before")
    @classmethod
    def _type(cls, value: object) -> AccountType:
        return _account_type(value)


class ConvertIn(Keyed):
    model_config = ConfigDict(extra="ignore")
    currency_id: int = Field(ge=1, le=INT_MAX)
    number: AmountText = None
    currency_protocol_id: int | None = None  # sent by the client; a conversion involves no chain


async def _currency(currency_id: int) -> Currency:
    currency = await Currency.get_or_none(id=currency_id)
    if currency is None:
        raise DomainError(ErrorCode.CURRENCY_NOT_FOUND)
    return currency


def holds(currency: Currency, account_type: AccountType) -> bool:
    return str(int(account_type)) in currency.account_types.split(",")


async def call_wallet(engine: Engine, uid: int, method: str, *args: Any) -> Any:
    """Call one method of the user's wallet actor; a shard that died mid-call is a 503."""
    wallet = engine.wallet(uid)
    try:
        return await getattr(wallet, method).remote(*args)
    except RayActorError as exc:
        engine.forget_handles()  # a shard started in place of a dead one is found next time
        raise DomainError(ErrorCode.WALLET_UNAVAILABLE) from exc


@router.post("/transfer")
@idempotent(retry=True, single_flight=True)
async def transfer(body: TransferIn, uid: CurrentUid, engine: EngineDep, request: Request, lang: Lang) -> Any:
    """Move an amount between two of the user's accounts of one currency, atomically."""
    currency = await _currency(body.currency_id)
    amount = parse_amount(
        body.balance, missing=ErrorCode.TRANSFER_AMOUNT_REQUIRED, places=currency.decimals, maximum=currency.max_amount
    )
    if body.source == body.target:
        raise DomainError(ErrorCode.SAME_ACCOUNT)
    if not holds(currency, body.source) or not holds(currency, body.target):
        raise DomainError(ErrorCode.ACCOUNT_TYPE_NOT_ALLOWED)
    data = {"currency_id": currency.id, "balance": money(amount), "from": body.source.code, "to": body.target.code}
    ref = movement_ref(request, "x")  # a keyed transfer's every run moves under its key's ref: once
    if await journaled_before(request, f"{ref}:out"):
        return envelope(data, translate(TRANSFERRED, lang))
    args = (uid, currency.id, amount, int(body.source), int(body.target), ref)
    if AccountType.LEVER in (body.source, body.target):  # its lever shard is the lever account's one writer
        await engine.lever_transfer(*args)
    else:
        await call_wallet(engine, uid, "transfer", *args)
    return envelope(data, translate(TRANSFERRED, lang))


@router.post("/convert")
@idempotent(retry=True, single_flight=True)
async def convert(body: ConvertIn, uid: CurrentUid, engine: EngineDep, request: Request, lang: Lang, svc: Svc) -> Any:
    """Convert BTC or ETH of the change account into USDT at the live mark of ``<CODE>/USDT`` less
    ``convert_spread`` (the USDT rounded down). Refuses (PRICE_STALE, 503) when the pair has not
    confirmed its mark within ``mark_stale_seconds``; the log rows record the rate, mark, spread and tick id."""
    currency = await _currency(body.currency_id)
    if currency.code not in CONVERTIBLE:
        raise DomainError(ErrorCode.CONVERT_NOT_SUPPORTED)
    ref = movement_ref(request, "c")  # a keyed conversion's every run moves under its key's ref: once
    if await journaled_before(request, f"{ref}:out"):  # at the rate of the run that made it
        return envelope(await _converted(ref), translate(CONVERTED, lang))
    amount = parse_amount(
        body.number, missing=ErrorCode.QUANTITY_REQUIRED, places=currency.decimals, maximum=currency.max_amount
    )
    usdt = await Currency.get(code=CONVERT_TO)
    symbol = f"{currency.code}/{usdt.code}"
    mark = (await marks.read(svc.redis, [symbol])).get(symbol)
    if mark is None or mark.price <= 0 or not mark.fresh(now_ms(), svc.settings.mark_stale_seconds):
        raise DomainError(ErrorCode.PRICE_STALE)
    spread = svc.settings.convert_spread
    rate = conversion_rate(mark.price, spread)
    value = (amount * rate).quantize(Decimal(1).scaleb(-usdt.decimals), rounding=ROUND_DOWN)
    if value <= 0:
        raise DomainError(ErrorCode.AMOUNT_TOO_SMALL)
    if value > usdt.max_amount:  # the most this rate lets one conversion take, in the currency converted
        most = (usdt.max_amount / rate).quantize(Decimal(1).scaleb(-currency.decimals), rounding=ROUND_DOWN)
        raise DomainError(ErrorCode.AMOUNT_ABOVE_MAX, max=money(most))
    conversion = Conversion(
        uid, currency.id, usdt.id, amount, value, rate, currency.code, usdt.code,
        mark=mark.price, spread=spread, tick_id=mark.tick_id,
    )  # fmt: skip
    await call_wallet(engine, uid, "convert", conversion, ref)
    data = {
        "currency_id": currency.id,
        "number": money(amount),
        "price": money(rate),  # the rate paid, as the log rows record it
        "mark": money(mark.price),
        "spread": money(spread),
        "tick_id": mark.tick_id,
        "usdt": money(value),
    }
    return envelope(data, translate(CONVERTED, lang))


async def _converted(ref: str) -> dict[str, Any]:
    """A conversion's answer from its journal rows (``ref``:out and ``ref``:in)."""
    out = await AccountLog.get(ref=f"{ref}:out")
    paid = await AccountLog.get(ref=f"{ref}:in")
    terms = out.extra or {}
    return {"currency_id": out.currency_id, "number": money(-out.amount), "price": terms.get("price"),
            "mark": terms.get("mark"), "spread": terms.get("spread"), "tick_id": terms.get("tick_id"),
            "usdt": money(paid.amount)}  # fmt: skip


@router.get("/transfer_log")
async def transfer_log(
    uid: CurrentUid,
    lang: Lang,
    currency_id: Annotated[int | None, Query(ge=1, le=INT_MAX)] = None,
    page: Annotated[int, Query(ge=1, le=INT_MAX)] = 1,
) -> Any:
    """The user's transfers between accounts, newest first (one row per transfer, 15 a page)."""
    query = AccountLog.filter(user_id=uid, log_type="transfer", amount__lt=0)
    if currency_id is not None:
        query = query.filter(currency_id=currency_id)
    query = query.order_by("-id").prefetch_related("currency")
    page_data = await paginate(query, page, RECORDS_PER_PAGE, lambda r: record_public(r, lang))
    for row in page_data["data"]:
        row["value"] = row["value"].removeprefix("-")  # the amount moved, not the out leg's sign
    return envelope(page_data)
