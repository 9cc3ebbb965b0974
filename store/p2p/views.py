"""How orders read to their two sides and to the push channel."""

from __future__ import annotations

from typing import Any

from tortoise.expressions import Q

from store.models import Currency, P2PEvent, P2POrder, P2PState
from store.money import money
from store.p2p import merchants, rules
from store.p2p.rules import BUYER, SELLER


def role_of(order: P2POrder, uid: int) -> str:
    return BUYER if uid == order.buyer_id else SELLER


def summary(order: P2POrder, currency: str) -> dict[str, Any]:
    """What a list and the push show of an order (no names: the detail has them)."""
    return {
        "id": order.id, "ad_id": order.ad_id, "state": order.state, "side": order.side,
        "currency_id": order.currency_id, "currency": currency, "fiat": order.fiat, "price": money(order.price),
        "amount": money(order.amount),
        "total": money(order.total), "pay_method": order.pay_method, "buyer_id": order.buyer_id,
        "seller_id": order.seller_id, "merchant_id": order.merchant_id, "created_ms": order.created_ms,
        "deadline_ms": order.deadline_ms, "ended_ms": order.ended_ms, "cancel_kind": order.cancel_kind,
    }  # fmt: skip


async def codes(currency_ids: set[int]) -> dict[int, str]:
    return dict(await Currency.filter(id__in=currency_ids).values_list("id", "code"))


async def page(uid: int, as_merchant: bool, state: int, number: int, limit: int, now_ms: int) -> dict[str, Any]:
    """The user's orders as a taker (``as_merchant`` False) or on their own ads, newest first."""
    mine = Q(buyer_id=uid) | Q(seller_id=uid)
    query = P2POrder.filter(merchant_id=uid) if as_merchant else P2POrder.filter(mine, merchant_id__not=uid)
    if state:
        query = query.filter(state=state)
    total = await query.count()
    rows = await query.order_by("-id").offset((number - 1) * limit).limit(limit)
    names = await codes({r.currency_id for r in rows})
    items = []
    for r in rows:
        items.append({**summary(r, names.get(r.currency_id, "")), "role": role_of(r, uid),
                      "remain_ms": max(r.deadline_ms - now_ms, 0) if r.state == P2PState.UNPAID else 0})  # fmt: skip
    return {"list": items, "page": number, "total": total, "limit": limit}


def reply_of(order: P2POrder) -> dict[str, Any]:
    """The other side's answer to the appeal (``reply``: None until it answers)."""
    if order.reply_ms is None:
        return {"reply": None}
    return {"reply": {"reason": order.reply_reason, "images": list(order.reply_images or []), "at_ms": order.reply_ms}}


async def detail(order: P2POrder, uid: int, now_ms: int) -> dict[str, Any]:
    """The order page of one side: the counterparty's masked real name, the seller's collection
    details, the window and the actions the state allows this side."""
    role = role_of(order, uid)
    other = order.seller_id if role == BUYER else order.buyer_id
    real = await merchants.real_names([other])
    nick = (await merchants.nicknames([order.merchant_id])).get(order.merchant_id, "")
    events = await P2PEvent.filter(order_id=order.id).order_by("seq")
    code = (await codes({order.currency_id})).get(order.currency_id, "")
    appeal = None
    if order.appeal_by is not None:
        by = BUYER if order.appeal_by == order.buyer_id else SELLER
        appeal = {"by": by, "reason": order.appeal_reason, "images": list(order.appeal_images), **reply_of(order)}
    return {
        **summary(order, code), "role": role, "is_merchant": uid == order.merchant_id,
        "pay_details": dict(order.pay_details),
        "counterparty": {"name": rules.mask_name(real.get(other, "")),
                         "nickname": nick if other == order.merchant_id else ""},
        "remain_ms": max(order.deadline_ms - now_ms, 0) if order.state == P2PState.UNPAID else 0,
        "paid_ms": order.paid_ms, "proof": order.proof, "appeal": appeal, "resolved_to": order.resolved_to,
        "actions": rules.actions(order.state, role, now_ms, order.deadline_ms,
                                 can_reply=order.appeal_by not in (None, uid) and order.reply_ms is None),
        "events": [{"seq": e.seq, "from_state": e.from_state, "to_state": e.to_state, "by": e.by, "at_ms": e.at_ms,
                    "note": e.note} for e in events],
    }  # fmt: skip
