"""Withdrawals: account/draw (lock the amount and create a request through the wallet shard),
account/withdrawals (the user's requests and their state) and user/addr (bound withdrawal addresses)."""

from __future__ import annotations

import logging
import re
from decimal import ROUND_UP, Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from config.chains import withdraw_chains
from config.settings import Settings
from serve.api.amounts import AmountText, parse_amount
from serve.api.deps import CurrentUid, CurrentUser, EngineDep, Lang, SingleFlight, Svc, check_pay_password
from serve.api.idempotency import Keyed, idempotent, journaled_before, movement_ref
from serve.api.paging import paginate
from serve.api.routes.transfer import call_wallet
from serve.errors import envelope
from serve.i18n import N_, translate
from store.admin import approvals
from store.chain.addresses import withdrawable
from store.chain.keys import family_of
from store.errors import DomainError, ErrorCode
from store.models import (
    INT_MAX,
    Currency,
    CurrencyProtocol,
    WithdrawAddress,
    Withdrawal,
    WithdrawalStatus,
)
from store.money import money
from store.users import check_withdrawals_open

log = logging.getLogger(__name__)
router = APIRouter(tags=["withdraw"])

REQUESTED = N_("Withdrawal requested")
ADDRESS_BOUND = N_("Address bound")
STATUS_NAMES = {
    WithdrawalStatus.PENDING: N_("Under review"),
    WithdrawalStatus.COMPLETED: N_("Completed"),
    WithdrawalStatus.REJECTED: N_("Rejected"),
    WithdrawalStatus.APPROVED: N_("Sending"),
    WithdrawalStatus.FAILED: N_("Failed, funds returned"),
}
MEMO_RE = re.compile(r"^[A-Za-z0-9 _-]{1,64}$")


def address_ok(settings: Settings, chain: str, address: str) -> bool:
    """An address a withdrawal on ``chain`` can reach on this exchange's network (checksums checked:
    store/chain/addresses.py); never one on a chain with no adapter."""
    return withdrawable(chain, address, settings.chain_network)


class DrawIn(Keyed):
    model_config = ConfigDict(extra="ignore")
    currency_id: int = Field(ge=1, le=INT_MAX)
    number: AmountText = None
    address: str = ""
    pay_password: str = ""
    memo: str = ""
    currency_protocol_id: int | None = Field(default=None, ge=1, le=INT_MAX)


async def _protocol(currency: Currency, protocol_id: int | None) -> CurrencyProtocol | None:
    """The chosen chain of the currency; may be omitted when the currency has only one."""
    protocols = await CurrencyProtocol.filter(currency_id=currency.id).order_by("sort", "id")
    if protocol_id is None:
        if len(protocols) > 1:
            raise DomainError(ErrorCode.PROTOCOL_NOT_FOUND)
        return protocols[0] if protocols else None
    for p in protocols:
        if p.id == protocol_id:
            return p
    raise DomainError(ErrorCode.PROTOCOL_NOT_FOUND)


@router.post("/account/draw")
@idempotent(retry=True, single_flight=True)
async def draw(body: DrawIn, user: CurrentUser, svc: Svc, engine: EngineDep, request: Request, lang: Lang) -> Any:
    """Request a withdrawal from the change account: the amount is locked until an operator decides."""
    ref = movement_ref(request, "d")  # a keyed request's every run locks under its key's ref: once
    if await journaled_before(request, f"{ref}:lock"):
        return await _requested(await Withdrawal.get(ref=ref), lang)
    if user.withdraw_frozen:  # before any field: nothing the user types can help
        raise DomainError(ErrorCode.WITHDRAWALS_FROZEN)
    address, memo = body.address.strip(), body.memo.strip()
    if not address:  # spec §5 order: address, amount, trade password
        raise DomainError(ErrorCode.ADDRESS_REQUIRED)
    if body.number is None or str(body.number).strip() == "":
        raise DomainError(ErrorCode.DRAW_AMOUNT_REQUIRED)
    if not body.pay_password:
        raise DomainError(ErrorCode.PAY_PASSWORD_REQUIRED)
    currency = await Currency.get_or_none(id=body.currency_id)
    if currency is None:
        raise DomainError(ErrorCode.CURRENCY_NOT_FOUND)
    if not currency.open_draw:
        raise DomainError(ErrorCode.DRAW_CLOSED)
    amount = parse_amount(
        body.number, missing=ErrorCode.DRAW_AMOUNT_REQUIRED, places=currency.decimals, maximum=currency.max_amount
    )
    if amount < currency.draw_min:
        raise DomainError(ErrorCode.DRAW_BELOW_MIN, min=money(currency.draw_min))
    if currency.draw_max > 0 and amount > currency.draw_max:
        raise DomainError(ErrorCode.DRAW_ABOVE_MAX, max=money(currency.draw_max))
    protocol = await _protocol(currency, body.currency_protocol_id)
    if protocol is None:  # a currency on no chain (a house token) has nowhere to be sent
        raise DomainError(ErrorCode.DRAW_CLOSED)
    if protocol.uses_memo and not memo:  # what is missing first, then what is wrong
        raise DomainError(ErrorCode.MEMO_REQUIRED)
    if family_of(protocol.chain_protocol) is None:  # no adapter can send on this chain (opened by mistake)
        raise DomainError(ErrorCode.DRAW_CLOSED)
    if protocol.chain_protocol not in withdraw_chains(svc.settings):  # no Signer would ever send it
        raise DomainError(ErrorCode.WITHDRAWALS_SUSPENDED, chain=protocol.chain_protocol)
    if not address_ok(svc.settings, protocol.chain_protocol, address):
        raise DomainError(ErrorCode.ADDRESS_INVALID)
    if memo and not MEMO_RE.match(memo):
        raise DomainError(ErrorCode.ADDRESS_INVALID)
    await check_pay_password(svc, request, user, body.pay_password)
    check_withdrawals_open(user, svc.settings.security_cooldown_hours)
    fee = (amount * currency.draw_rate).quantize(Decimal(1).scaleb(-currency.decimals), rounding=ROUND_UP)
    fields = {"currency_id": currency.id, "protocol_id": protocol.id, "address": address,
              "memo": memo, "amount": amount, "fee": fee, "ref": ref}  # fmt: skip
    withdrawal_id = await call_wallet(engine, user.id, "draw", user.id, fields)
    # Small enough (the user's 24 h under auto_approve_usd): approved now, and the Signer sends it. The
    # request is recorded and locked already: if the rule cannot be read, it waits for an operator.
    try:
        await approvals.auto_approve(withdrawal_id, settings=svc.settings, book=await svc.prices.book())
    except Exception:
        log.exception("withdrawal %s: auto-approval failed; it waits for an operator", withdrawal_id)
    return await _requested(await Withdrawal.get(id=withdrawal_id), lang)


async def _requested(row: Withdrawal, lang: str) -> Any:
    await row.fetch_related("currency", "currency_protocol", "send")
    return envelope(withdrawal_public(row, lang), translate(REQUESTED, lang))


def withdrawal_public(w: Withdrawal, lang: str) -> dict[str, Any]:
    return {
        "id": w.id,
        "currency_id": w.currency_id,
        "currency": {"code": w.currency.code},
        "chain_protocol": {"code": w.currency_protocol.chain_protocol if w.currency_protocol else ""},
        "address": w.address,
        "memo": w.memo,
        "number": money(w.amount),
        "fee": money(w.fee),
        "real_number": money(w.amount - w.fee),
        "status": int(w.status),
        "status_name": translate(STATUS_NAMES[WithdrawalStatus(w.status)], lang),
        "txid": w.send.txid if w.send is not None else "",  # once the Signer stored its transaction
        "confirmations": w.send.confirmations if w.send is not None else 0,
        "created_at": w.created_at.isoformat(),
        "updated_at": w.updated_at.isoformat(),
    }


@router.get("/account/withdrawals")
async def withdrawals(
    uid: CurrentUid,
    lang: Lang,
    currency_id: Annotated[int | None, Query(ge=1, le=INT_MAX)] = None,
    page: Annotated[int, Query(ge=1, le=INT_MAX)] = 1,
) -> Any:
    """The user's withdrawal requests and their state, newest first (15 a page)."""
    query = Withdrawal.filter(user_id=uid)
    if currency_id is not None:
        query = query.filter(currency_id=currency_id)
    query = query.order_by("-id").prefetch_related("currency", "currency_protocol", "send")
    return envelope(await paginate(query, page, 15, lambda w: withdrawal_public(w, lang)))


class AddrIn(BaseModel):
    """``type`` is the currency id; ``vtype`` the chain of USDT (0 TRC20, 1 ERC20), 0 for other currencies."""

    model_config = ConfigDict(extra="ignore")
    type: int = Field(ge=1, le=INT_MAX)
    addr: str = ""
    vtype: int = Field(default=0, ge=0, le=1)


def addr_public(a: WithdrawAddress) -> dict[str, Any]:
    return {
        "id": a.id,
        "currency_id": a.currency_id,
        "currency": {"code": a.currency.code},
        "currency_protocol_id": a.currency_protocol_id,
        "chain_protocol": {"code": a.currency_protocol.chain_protocol},
        "address": a.address,
        "created_at": a.created_at.isoformat(),
    }


@router.post("/user/addr", dependencies=[SingleFlight])
async def bind_addr(body: AddrIn, uid: CurrentUid, svc: Svc, lang: Lang) -> Any:
    """Bind a withdrawal address for a currency and chain (binding the same one again is a no-op)."""
    address = body.addr.strip()
    if not address:
        raise DomainError(ErrorCode.ADDRESS_REQUIRED_BIND)
    currency = await Currency.get_or_none(id=body.type)
    if currency is None:
        raise DomainError(ErrorCode.CURRENCY_NOT_FOUND)
    protocols = await CurrencyProtocol.filter(currency_id=currency.id).order_by("sort", "id")
    by_chain = {p.chain_protocol: p for p in protocols}
    if currency.code == "USDT":
        protocol = by_chain.get("TRC20" if body.vtype == 0 else "ERC20")
    else:
        protocol = protocols[0] if body.vtype == 0 and protocols else None
    if protocol is None:
        raise DomainError(ErrorCode.PROTOCOL_NOT_FOUND)
    if not address_ok(svc.settings, protocol.chain_protocol, address):
        raise DomainError(ErrorCode.ADDRESS_INVALID)
    row, _ = await WithdrawAddress.get_or_create(user_id=uid, currency_id=currency.id,
                                                 currency_protocol_id=protocol.id, address=address)  # fmt: skip
    await row.fetch_related("currency", "currency_protocol")
    return envelope(addr_public(row), translate(ADDRESS_BOUND, lang))


@router.get("/user/addr")
async def addr_list(uid: CurrentUid, currency_id: Annotated[int | None, Query(ge=1, le=INT_MAX)] = None) -> Any:
    """The user's bound withdrawal addresses (optionally of one currency)."""
    query = WithdrawAddress.filter(user_id=uid)
    if currency_id is not None:
        query = query.filter(currency_id=currency_id)
    rows = await query.order_by("-id").prefetch_related("currency", "currency_protocol")
    return envelope([addr_public(a) for a in rows])
