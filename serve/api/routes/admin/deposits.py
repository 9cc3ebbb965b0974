"""The console's deposits (issue 16, the finance role): chain transfers to users' addresses with their
state, and manual credits (a credit no chain deposit made: a transfer to a wrong memo, a bank
wire) under the operator's reference, with a reason. One worth more than ``credit_second_approval_usd``
waits for a second finance operator (docs/decisions.md "Operator controls over money");
``store.admin.credits`` does the rest, for `exchange deposit` too."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict, Field

from serve.api.amounts import AmountText, parse_amount
from serve.api.deps import Svc
from serve.api.paging import paginate
from serve.api.routes.admin.auth import NO_NUL, Console, role
from serve.errors import envelope
from store import users
from store.admin import approvals, credits
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, AccountType, ChainDeposit, Currency, DepositStatus, ManualCreditStatus
from store.money import money

router = APIRouter(tags=["back office"])
Finance = Annotated[Console, Depends(role("finance"))]
STATES = {DepositStatus.CONFIRMING: "confirming", DepositStatus.CREDITED: "credited",
          DepositStatus.BELOW_MINIMUM: "below minimum", DepositStatus.DROPPED: "dropped",
          DepositStatus.ABOVE_MAXIMUM: "above maximum"}  # fmt: skip


class ManualDepositIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    account: str = Field(min_length=3, max_length=128, pattern=r"^[^\x00]*$", description="the user's e-mail or phone")
    currency: str = Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9]+$", description="e.g. USDT")
    amount: AmountText = Field(description="to the user's change account, at most the currency's max_amount")
    reason: str = Field(min_length=3, max_length=500, pattern=NO_NUL, description="why: required")
    ref: str = Field(min_length=3, max_length=128, pattern=r"^[\x21-\x7e]+$",
                     description="the operator's reference (the wire's or transaction's id): the same again is the "
                                 "same credit")  # fmt: skip


class CreditDecision(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: int = Field(ge=1, le=INT_MAX)
    approve: bool
    reason: str = Field(default="", max_length=500, pattern=NO_NUL)


def _deposit(d: ChainDeposit) -> dict[str, Any]:
    user = d.user
    return {"id": d.id, "user_id": user.id, "account": user.email or user.mobile, "currency": d.currency.code,
            "protocol": d.currency_protocol.chain_protocol, "tx_hash": d.tx_hash, "address": d.address,
            "memo": d.memo, "amount": money(d.amount), "confirmations": d.confirmations, "status": int(d.status),
            "chain": d.chain, "output_index": d.output_index, "block_height": d.block_height, "owed": money(d.owed),
            "status_name": STATES[DepositStatus(d.status)], "created_at": d.created_at.isoformat()}  # fmt: skip


@router.get("/deposits")
async def deposits(
    console: Finance,
    status: Annotated[
        int | None,
        Query(ge=0, le=4, description="0 confirming, 1 credited, 2 below minimum, 3 dropped, 4 above maximum"),
    ] = None,
    user_id: Annotated[int | None, Query(ge=1, le=INT_MAX)] = None,
    page: Annotated[int, Query(ge=1, le=INT_MAX)] = 1,
) -> Any:
    """Chain deposits, newest first (20 a page), by state and user."""
    query = ChainDeposit.all()
    if status is not None:
        query = query.filter(status=status)
    if user_id is not None:
        query = query.filter(user_id=user_id)
    query = query.order_by("-id").prefetch_related("user", "currency", "currency_protocol")
    return envelope(await paginate(query, page, 20, _deposit))


@router.post("/deposits/credit")
async def credit(body: ManualDepositIn, console: Finance, svc: Svc) -> Any:
    """Credit ``amount`` to the user's change account, at once or (worth more than the threshold) once a
    second finance operator approves; the same ``ref`` again answers the first credit."""
    user = await users.find_by_contact(body.account.strip())
    coin = await Currency.get_or_none(code=body.currency.upper())
    if user is None or coin is None:
        raise DomainError(ErrorCode.NOT_FOUND)
    amount = parse_amount(body.amount, missing=ErrorCode.DEPOSIT_AMOUNT_REQUIRED, places=coin.decimals,
                          maximum=coin.max_amount)  # fmt: skip
    ask = credits.CreditAsk(user, coin, AccountType.CHANGE, amount, body.ref, body.reason)
    price = (await svc.prices.book()).usd_price(coin.code)
    limit = await approvals.threshold(svc.settings, approvals.CREDIT_KEY)
    done = await credits.request(ask, actor=console.actor("finance"), usd_price=price, limit=limit)
    return envelope(_answer(await credits.fetched(done.credit)))


def _answer(row: Any) -> dict[str, Any]:
    return {**credits.view(row), "waiting_for_second_approval": row.status == ManualCreditStatus.PENDING}


@router.get("/deposits/credits")
async def credit_list(
    console: Finance,
    svc: Svc,
    status: Annotated[int, Query(ge=1, le=3, description="1 pending (oldest first), 2 credited, 3 rejected")] = 1,
    user_id: Annotated[int | None, Query(ge=1, le=INT_MAX)] = None,
    page: Annotated[int, Query(ge=1, le=INT_MAX)] = 1,
) -> Any:
    """Manual credits by state and user, 20 a page, with the threshold above which one needs a second
    operator."""
    found = await credits.listed(status=status, user_id=user_id, page=page)
    limit = await approvals.threshold(svc.settings, approvals.CREDIT_KEY)
    return envelope({**found, approvals.CREDIT_KEY: money(limit)})


@router.post("/deposits/credits/decide")
async def credit_decide(body: CreditDecision, console: Finance) -> Any:
    """Approve (credited now, once) or reject a pending credit another operator asked for."""
    row = await credits.decide(body.id, approve=body.approve, actor=console.actor("finance"), reason=body.reason)
    return envelope(_answer(await credits.fetched(row)))
