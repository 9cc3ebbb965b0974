"""The console's deposits (issue 16, the finance role): chain transfers to users' addresses with their
state, and a manual deposit (a credit the chain gateway did not make: a transfer to a wrong memo, a
bank wire) through the user's wallet shard, the balances' single writer, as `exchange deposit` and a
confirmed chain deposit credit. A manual deposit needs a reason and writes its audit row first."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from serve.api.amounts import AmountText, parse_amount
from serve.api.paging import paginate
from serve.api.routes.admin.auth import Console, role
from serve.errors import envelope
from store import users
from store.admin import audit
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, ChainDeposit, Currency, DepositStatus
from store.money import money

router = APIRouter(tags=["back office"])
Finance = Annotated[Console, Depends(role("finance"))]
STATES = {DepositStatus.CONFIRMING: "confirming", DepositStatus.CREDITED: "credited",
          DepositStatus.BELOW_MINIMUM: "below minimum"}  # fmt: skip


class ManualDepositIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    account: str = Field(min_length=3, max_length=128, pattern=r"^[^\x00]*$", description="the user's e-mail or phone")
    currency: str = Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9]+$", description="e.g. USDT")
    amount: AmountText = Field(description="to the user's change account, at most the currency's max_amount")
    reason: str = Field(min_length=3, max_length=500, pattern=r"^[^\x00]*$", description="why: required")


def _deposit(d: ChainDeposit) -> dict[str, Any]:
    user = d.user
    return {"id": d.id, "user_id": user.id, "account": user.email or user.mobile, "currency": d.currency.code,
            "protocol": d.currency_protocol.chain_protocol, "tx_hash": d.tx_hash, "address": d.address,
            "memo": d.memo, "amount": money(d.amount), "confirmations": d.confirmations, "status": int(d.status),
            "status_name": STATES[DepositStatus(d.status)], "created_at": d.created_at.isoformat()}  # fmt: skip


@router.get("/deposits")
async def deposits(
    console: Finance,
    status: Annotated[int | None, Query(ge=0, le=2, description="0 confirming, 1 credited, 2 below minimum")] = None,
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
async def credit(body: ManualDepositIn, console: Finance, request: Request) -> Any:
    """Credit ``amount`` to the user's change account; answers the user, currency, amount and ref."""
    user = await users.find_by_contact(body.account.strip())
    coin = await Currency.get_or_none(code=body.currency.upper())
    if user is None or coin is None:
        raise DomainError(ErrorCode.NOT_FOUND)
    amount = parse_amount(body.amount, missing=ErrorCode.DEPOSIT_AMOUNT_REQUIRED, places=coin.decimals,
                          maximum=coin.max_amount)  # fmt: skip
    ref = f"manual:{uuid.uuid4()}"
    after = {"currency": coin.code, "amount": money(amount), "account": "change", "ref": ref}
    await audit.record(console.actor("finance"), "deposit.manual", f"user:{user.id}", after=after, reason=body.reason)
    await request.app.state.engine.wallet(user.id).credit.remote(user.id, coin.id, amount, ref, "deposit",
                                                                 "manual deposit")  # fmt: skip
    return envelope({"user_id": user.id, **after})
