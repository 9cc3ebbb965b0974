"""Development helpers. This router is only mounted when EXCHANGE_ENV is not production."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from serve.api.deps import CurrentUid, Svc
from serve.errors import envelope
from store.errors import DomainError, ErrorCode
from store.models import Currency
from store.money import money

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
async def credit(body: CreditIn, uid: CurrentUid, request: Request) -> Any:
    """Credit the caller's change account through their wallet shard, as a confirmed deposit does.

    For load tests and demos: users a scenario creates can fund themselves. Development only.
    """
    coin = await Currency.get_or_none(code=body.currency.strip().upper())
    if coin is None:
        raise DomainError(ErrorCode.CURRENCY_NOT_FOUND)
    if body.amount > coin.max_amount:
        raise DomainError(ErrorCode.AMOUNT_ABOVE_MAX, max=money(coin.max_amount))
    ref = f"dev:{uuid.uuid4()}"
    await request.app.state.engine.wallet(uid).credit.remote(uid, coin.id, body.amount, ref, "deposit", "dev credit")
    return envelope({"currency": coin.code, "amount": money(body.amount), "ref": ref})
