"""Development helpers. This router is only mounted when EXCHANGE_ENV is not production."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from serve.api.deps import CurrentUid, EngineDep, Svc
from serve.errors import envelope
from serve.security import hash_password
from store.earn import clock
from store.errors import DomainError, ErrorCode
from store.models import Currency, RealName, ReviewStatus, User
from store.money import money
from store.p2p import merchants

router = APIRouter(prefix="/dev", tags=["dev"])


@router.get("/outbox")
async def outbox(to: Annotated[str, Query(min_length=1, max_length=64)], svc: Svc) -> Any:
    """Codes sent to an e-mail or phone number, newest first."""
    return envelope(await svc.outbox.read(to.strip().lower()))


@router.post("/noop")
async def noop() -> Any:
    """Does nothing (no database, no Redis): the baseline of bench/serve_bench.py."""
    return envelope({"ok": True})


class CreditIn(BaseModel):
    currency: str = Field(min_length=1, max_length=16, description="currency code, e.g. USDT")
    amount: Decimal = Field(gt=0, le=Decimal(10) ** 12, decimal_places=8)


@router.post("/credit")
async def credit(body: CreditIn, uid: CurrentUid, engine: EngineDep) -> Any:
    """Credit the caller's change account through their wallet shard, as a confirmed deposit does.

    For load tests and demos: users a scenario creates can fund themselves. Development only.
    """
    coin = await Currency.get_or_none(code=body.currency.strip().upper())
    if coin is None:
        raise DomainError(ErrorCode.CURRENCY_NOT_FOUND)
    if body.amount > coin.max_amount:
        raise DomainError(ErrorCode.AMOUNT_ABOVE_MAX, max=money(coin.max_amount))
    ref = f"dev:{uuid.uuid4()}"
    await engine.wallet(uid).credit.remote(uid, coin.id, body.amount, ref, "deposit", "dev credit")
    return envelope({"currency": coin.code, "amount": money(body.amount), "ref": ref})


class VerifyIn(BaseModel):
    name: str = Field(min_length=2, max_length=64, description="the real name to approve")
    pay_password: str = Field(default="", max_length=64, description="a deal password to set as well")


@router.post("/verify")
async def verify(body: VerifyIn, uid: CurrentUid) -> Any:
    """Approve the caller's real name as ``name``, as an operator's review would, and set the deal password
    when one is given (development only: load tests and demos need verified traders for the P2P market,
    without the 60 s between codes to one address)."""
    fields = {"name": body.name, "review_status": ReviewStatus.APPROVED, "reject_reason": ""}
    row, created = await RealName.get_or_create(user_id=uid, defaults={**fields, "card_id": f"DEV{uid:08d}",
                                                "front_pic": "", "reverse_pic": "", "hand_pic": ""})  # fmt: skip
    if not created:
        await RealName.filter(id=row.id).update(**fields)
    if body.pay_password:
        await User.filter(id=uid).update(pay_password_hash=await hash_password(body.pay_password))
    return envelope({"review_status": int(ReviewStatus.APPROVED), "name": body.name})


@router.post("/merchant")
async def approve_merchant(uid: CurrentUid, svc: Svc) -> Any:
    """Approve the caller's pending merchant application, as `exchange merchant approve` does
    (development only)."""
    row = await merchants.decide(uid, True, "dev", await clock.scheduler_now_ms(svc.redis))
    return envelope({"status": int(row.status), "nickname": row.nickname})
