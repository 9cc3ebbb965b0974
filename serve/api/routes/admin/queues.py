"""The console's queues (issue 16): real-name reviews (support), withdrawals (finance; a user's
withdrawals worth at least ``second_approval_usd`` within 24 h need two different operators:
``store.admin.approvals``) and P2P appeals (risk). Every decision writes its audit row; the ones that
move money write it in the decision's own transaction."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict, Field

from serve.api.deps import Svc
from serve.api.routes.admin.auth import Console, role
from serve.errors import envelope
from store.admin import approvals, audit, conservation
from store.db import transaction
from store.earn import clock
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, P2PEvent, P2POrder, P2PState, RealName, ReviewStatus, Withdrawal
from store.money import money
from store.p2p import orders, push, views
from store.users import review_real_name

router = APIRouter(tags=["back office"])
Support = Annotated[Console, Depends(role("support"))]
Finance = Annotated[Console, Depends(role("finance"))]
Risk = Annotated[Console, Depends(role("risk"))]
PageNo = Annotated[int, Query(ge=1, le=INT_MAX)]


class Decision(BaseModel):
    model_config = ConfigDict(extra="ignore")
    approve: bool
    reason: str = Field(default="", max_length=500)


class ReviewIn(Decision):
    user_id: int = Field(ge=1, le=INT_MAX)


class WithdrawalIn(Decision):
    id: int = Field(ge=1, le=INT_MAX)


class ResolveIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: int = Field(ge=1, le=2**63 - 1)
    to: str = Field(pattern="^(buyer|seller)$")
    note: str = Field(default="", max_length=500)


# --- real-name reviews ------------------------------------------------------------------------------


@router.get("/real_names")
async def real_names(console: Support, status: Annotated[int, Query(ge=0, le=2)] = 1, page: PageNo = 1) -> Any:
    """Submissions (1 under review by default, oldest first) with the three images side by side."""
    query = RealName.filter(review_status=status).prefetch_related("user")
    total = await query.count()
    rows = await query.order_by("id").offset((page - 1) * 20).limit(20)
    items = [{"user_id": r.user_id, "account": r.user.email or r.user.mobile, "name": r.name, "card_id": r.card_id,
              "images": [r.front_pic, r.reverse_pic, r.hand_pic], "review_status": r.review_status,
              "reject_reason": r.reject_reason} for r in rows]  # fmt: skip
    return envelope({"list": items, "page": page, "total": total, "limit": 20})


@router.post("/real_names/decide")
async def decide_real_name(body: ReviewIn, console: Support) -> Any:
    """Approve, or reject with a reason (the user may submit again)."""
    async with transaction() as conn:
        if not await review_real_name(body.user_id, body.approve, body.reason, conn):
            raise DomainError(ErrorCode.NOT_FOUND)
        after = {"review_status": int(ReviewStatus.APPROVED if body.approve else ReviewStatus.NOT_SUBMITTED)}
        await audit.record(console.actor("support"), f"real_name.{'approve' if body.approve else 'reject'}",
                           f"user:{body.user_id}", before={"review_status": 1}, after=after, reason=body.reason,
                           conn=conn)  # fmt: skip
    return envelope({"user_id": body.user_id, **after})


# --- withdrawals ------------------------------------------------------------------------------------


@router.get("/withdrawals")
async def withdrawal_queue(
    console: Finance,
    svc: Svc,
    status: Annotated[int, Query(ge=1, le=5)] = 1,
    user_id: Annotated[int | None, Query(ge=1, le=INT_MAX)] = None,
    page: PageNo = 1,
) -> Any:
    """Requests (1 pending by default, 4 approved and being sent, 2 completed on the chain, 3 rejected,
    5 failed on the chain; oldest first; of one user) with the
    two-operator rule's figures: the USD value, the user's total in the 24 h up to the request, the
    threshold, whether a second operator must approve, the first approval, and a withdrawal freeze."""
    query = Withdrawal.filter(status=status)
    if user_id is not None:
        query = query.filter(user_id=user_id)
    query = query.prefetch_related("user", "currency", "send")
    total = await query.count()
    rows = await query.order_by("id").offset((page - 1) * 20).limit(20)
    book = await svc.prices.book()
    limit = await approvals.threshold(svc.settings, approvals.WITHDRAWAL_KEY)
    items = []
    for w in rows:
        rule = await approvals.withdrawal_rule(w, book, limit)
        first = await approvals.first_approval(w.id)
        items.append({"id": w.id, "account": w.user.email or w.user.mobile, "user_id": w.user_id,
                      "currency": w.currency.code, "amount": money(w.amount), "fee": money(w.fee),
                      "address": w.address, "memo": w.memo, **rule.view(),
                      "first_approval": first.operator if first else None, "withdraw_frozen": w.user.withdraw_frozen,
                      "status": int(w.status), "txid": w.send.txid if w.send else "",
                      "send_error": (w.send.error or w.send.reason) if w.send else "",
                      "created_at": w.created_at.isoformat()})  # fmt: skip
    return envelope({"list": items, "page": page, "total": total, "limit": 20})


@router.post("/withdrawals/decide")
async def decide_withdrawal(body: WithdrawalIn, console: Finance, svc: Svc) -> Any:
    """Reject (the lock returns), or approve: settled at once while the user's withdrawals in the 24 h up
    to this one are worth less than ``second_approval_usd``, otherwise on the approval of a second
    operator (the first is recorded in the trail). Refused while the user's withdrawals are frozen."""
    limit, book = await approvals.threshold(svc.settings, approvals.WITHDRAWAL_KEY), await svc.prices.book()
    decided = await approvals.decide_withdrawal(body.id, approve=body.approve, actor=console.actor("finance"),
                                                reason=body.reason, book=book, limit=limit)  # fmt: skip
    return envelope({"id": decided.row.id, "status": int(decided.row.status),
                     "waiting_for_second_approval": decided.waiting_for_second})  # fmt: skip


# --- P2P appeals ------------------------------------------------------------------------------------


@router.get("/p2p/appeals")
async def appeals(console: Risk, page: PageNo = 1) -> Any:
    """Orders in appeal, oldest first, with both sides' evidence (reason, images, payment proof) and the
    order's journal."""
    query = P2POrder.filter(state=P2PState.APPEAL)
    total = await query.count()
    rows = await query.order_by("id").offset((page - 1) * 20).limit(20)
    codes = await views.codes({r.currency_id for r in rows})
    items = []
    for r in rows:
        events = await P2PEvent.filter(order_id=r.id).order_by("seq")
        items.append({**views.summary(r, codes.get(r.currency_id, "")), "proof": r.proof,
                      "appeal": {"by": "buyer" if r.appeal_by == r.buyer_id else "seller", "reason": r.appeal_reason,
                                 "images": list(r.appeal_images), **views.reply_of(r)},
                      "events": [{"seq": e.seq, "to_state": e.to_state, "by": e.by, "at_ms": e.at_ms, "note": e.note}
                                 for e in events]})  # fmt: skip
    return envelope({"list": items, "page": page, "total": total, "limit": 20})


@router.post("/p2p/resolve")
async def resolve(body: ResolveIn, console: Risk, svc: Svc) -> Any:
    """Release the escrow to the buyer, or return it to the seller; both sides are told."""
    now = await clock.scheduler_now_ms(svc.redis)
    order = await orders.resolve(body.id, body.to, console.operator.email, now, body.note)
    await audit.record(console.actor("risk"), "p2p.resolve", f"p2p_order:{order.id}", before={"state": "appeal"},
                       after={"state": int(order.state), "resolved_to": body.to}, reason=body.note)  # fmt: skip
    await push.notify(svc.redis, [order])
    return envelope({"id": order.id, "state": int(order.state), "resolved_to": order.resolved_to})


# --- the conservation audit -------------------------------------------------------------------------


@router.get("/conservation")
async def conservation_audit(console: Finance) -> Any:
    """Per currency: every account kind, fees and the house's side against deposits, withdrawals and
    conversions; ``ok`` and ``difference`` say whether anything was created or lost."""
    return envelope(await conservation.audit())
