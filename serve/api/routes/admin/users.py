"""The console's users (issue 16): search and detail for support and risk (accounts, orders, positions,
records, sessions), and freezing a user's login or withdrawals for risk (a login freeze ends every
session at once). Every freeze is audited in its transaction."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict, Field
from tortoise.expressions import Q

from serve.api.deps import Svc
from serve.api.routes.admin.auth import NO_NUL, Console, role
from serve.errors import envelope
from store.admin import audit
from store.db import transaction
from store.errors import DomainError, ErrorCode
from store.models import (
    INT_MAX,
    Account,
    AccountLog,
    AccountType,
    LeverPosition,
    LeverStatus,
    Order,
    RealName,
    User,
)
from store.money import money
from store.sessions import PREFIX

router = APIRouter(tags=["back office"])
Reader = Annotated[Console, Depends(role("support", "risk"))]
Risk = Annotated[Console, Depends(role("risk"))]


class FreezeIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    user_id: int = Field(ge=1, le=INT_MAX)
    login: bool | None = Field(default=None, description="freeze (true) or unfreeze (false) the login")
    withdrawals: bool | None = Field(default=None, description="freeze or unfreeze withdrawals")
    reason: str = Field(default="", max_length=500)


def _user(u: User) -> dict[str, Any]:
    return {"id": u.id, "email": u.email, "mobile": u.mobile, "is_seller": u.is_seller, "is_bot": u.is_bot,
            "login_frozen": u.login_frozen, "withdraw_frozen": u.withdraw_frozen,
            "created_at": u.created_at.isoformat()}  # fmt: skip


@router.get("/users")
async def search(
    console: Reader,
    q: Annotated[str, Query(max_length=64, pattern=NO_NUL)] = "",
    page: Annotated[int, Query(ge=1, le=INT_MAX)] = 1,
) -> Any:
    """Users whose e-mail or phone contains ``q`` (or whose id is ``q``), newest first."""
    query = User.all()
    text = q.strip()
    if text:
        match = Q(email__icontains=text) | Q(mobile__icontains=text)
        query = query.filter(match | Q(id=int(text)) if text.isdigit() and len(text) < 10 else match)
    total = await query.count()
    rows = await query.order_by("-id").offset((page - 1) * 20).limit(20)
    return envelope({"list": [_user(u) for u in rows], "page": page, "total": total, "limit": 20})


@router.get("/users/detail")
async def detail(console: Reader, svc: Svc, id: Annotated[int, Query(ge=1, le=INT_MAX)]) -> Any:
    """One user: accounts, the last orders, open positions, the last records, sessions, real name."""
    user = await User.get_or_none(id=id)
    if user is None:
        raise DomainError(ErrorCode.NOT_FOUND)
    accounts = await Account.filter(user_id=id).prefetch_related("currency").order_by("account_type", "currency_id")
    orders = (
        await Order.filter(user_id=id)
        .order_by("-id")
        .limit(20)
        .prefetch_related("currency_match__base_currency", "currency_match__quote_currency")
    )
    positions = await LeverPosition.filter(user_id=id, status=LeverStatus.OPEN).count()
    logs = await AccountLog.filter(user_id=id).order_by("-id").limit(20).prefetch_related("currency")
    real = await RealName.get_or_none(user_id=id)
    sessions = await svc.redis.scard(f"{PREFIX}user_sessions:{id}")
    return envelope({
        **_user(user),
        "accounts": [{"type": AccountType(a.account_type).code, "currency": a.currency.code,
                      "balance": money(a.balance), "lock_balance": money(a.lock_balance)} for a in accounts],
        "orders": [{"id": o.id, "pair_id": o.currency_match_id, "way": o.way, "price": money(o.price),
                    "pair": f"{o.currency_match.base_currency.code}/{o.currency_match.quote_currency.code}",
                    "number": money(o.number), "status": int(o.status)} for o in orders],
        "open_positions": positions,
        "records": [{"id": r.id, "type": r.log_type, "currency_id": r.currency_id, "amount": money(r.amount),
                     "currency": r.currency.code, "account_type": AccountType(r.account_type).code,
                     "lock": money(r.lock_amount), "memo": r.memo, "at": r.created_at.isoformat()} for r in logs],
        "sessions": int(sessions),
        "real_name": {"name": real.name, "review_status": real.review_status} if real else None,
    })  # fmt: skip


@router.post("/users/freeze")
async def freeze(body: FreezeIn, console: Risk, svc: Svc) -> Any:
    """Freeze or unfreeze a user's login (ending every session) and/or withdrawals."""
    changes = {k: v for k, v in (("login_frozen", body.login), ("withdraw_frozen", body.withdrawals)) if v is not None}
    if not changes:
        raise DomainError(ErrorCode.BAD_REQUEST)
    async with transaction() as conn:
        user = await User.filter(id=body.user_id).select_for_update().using_db(conn).first()
        if user is None:
            raise DomainError(ErrorCode.NOT_FOUND)
        before = {k: getattr(user, k) for k in changes}
        await User.filter(id=user.id).using_db(conn).update(**changes)
        await audit.record(console.actor("risk"), "user.freeze", f"user:{user.id}", before=before, after=changes,
                           reason=body.reason, conn=conn)  # fmt: skip
    if changes.get("login_frozen"):
        await svc.sessions.revoke_all(body.user_id)
    return envelope(_user(await User.get(id=body.user_id)))
