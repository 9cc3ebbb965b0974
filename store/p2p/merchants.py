"""Merchants: applying, the operator's decision (which sets ``is_seller``), what a merchant may offer
and the figures the market shows of them."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tortoise.exceptions import IntegrityError

from store.db import retry_busy, transaction
from store.errors import DomainError, ErrorCode
from store.models import Merchant, MerchantStatus, P2POrder, P2PState, PayMethod, RealName, ReviewStatus, User
from store.p2p import rules

MONTH_MS = 30 * 86_400_000


async def real_names(uids: list[int]) -> dict[int, str]:
    """The approved real names of these users (those without one are left out)."""
    rows = await RealName.filter(user_id__in=uids, review_status=ReviewStatus.APPROVED).values_list("user_id", "name")
    return {int(uid): str(name) for uid, name in rows}


async def require_real_name(uid: int) -> str:
    name = (await real_names([uid])).get(uid)
    if not name:
        raise DomainError(ErrorCode.P2P_REAL_NAME_REQUIRED)
    return name


async def offerable(uid: int) -> dict[str, dict[str, str]]:
    """The user's collection methods in their own approved real name, by code: what they may be paid by."""
    name = (await real_names([uid])).get(uid)
    if not name:
        return {}
    rows = await PayMethod.filter(user_id=uid, type__in=rules.METHODS)
    return {row.type: dict(row.raw_data) for row in rows if str(row.raw_data.get("real_name", "")).strip() == name}


@retry_busy
async def apply(uid: int, nickname: str, now_ms: int) -> Merchant:
    """Apply (again after a rejection) with a nickname; needs an approved real name."""
    nickname = nickname.strip()
    if not rules.NICKNAME_RE.match(nickname):
        raise DomainError(ErrorCode.MERCHANT_NICKNAME_INVALID)
    await require_real_name(uid)
    async with transaction() as conn:
        row = await Merchant.filter(user_id=uid).select_for_update().using_db(conn).first()
        if row is not None and row.status == MerchantStatus.APPROVED:
            raise DomainError(ErrorCode.MERCHANT_ALREADY)
        if row is not None and row.status == MerchantStatus.PENDING:
            raise DomainError(ErrorCode.MERCHANT_APPLIED)
        if await Merchant.filter(nickname=nickname).exclude(user_id=uid).using_db(conn).exists():
            raise DomainError(ErrorCode.MERCHANT_NICKNAME_TAKEN)
        fields = {"nickname": nickname, "status": MerchantStatus.PENDING, "reject_reason": "", "applied_ms": now_ms,
                  "decided_ms": None, "decided_by": ""}  # fmt: skip
        try:
            if row is None:
                row = await Merchant.create(user_id=uid, using_db=conn, **fields)
            else:
                await Merchant.filter(id=row.id).using_db(conn).update(**fields)
        except IntegrityError as exc:  # the same nickname taken meanwhile
            raise DomainError(ErrorCode.MERCHANT_NICKNAME_TAKEN) from exc
    return await Merchant.get(user_id=uid)


@retry_busy
async def decide(uid: int, approve: bool, operator: str, now_ms: int, reason: str = "") -> Merchant:
    """The operator approves (``is_seller`` set) or rejects a pending application."""
    async with transaction() as conn:
        row = await Merchant.filter(user_id=uid).select_for_update().using_db(conn).first()
        if row is None or row.status != MerchantStatus.PENDING:
            raise DomainError(ErrorCode.MERCHANT_NOT_PENDING)
        status = MerchantStatus.APPROVED if approve else MerchantStatus.REJECTED
        await (
            Merchant.filter(id=row.id)
            .using_db(conn)
            .update(status=status, decided_ms=now_ms, decided_by=operator, reject_reason="" if approve else reason)
        )
        await User.filter(id=uid).using_db(conn).update(is_seller=approve)
    return await Merchant.get(user_id=uid)


async def is_merchant(uid: int) -> bool:
    return await Merchant.filter(user_id=uid, status=MerchantStatus.APPROVED).exists()


async def figures(uids: list[int], now_ms: int) -> dict[int, dict[str, Any]]:
    """Per merchant, over the orders on their ads that ended in the last 30 days: ``orders_30d`` (the
    completed ones) and ``completion_rate``, the share of the orders the merchant answered for that
    ended well. A taker who cancels or lets the window lapse does not count against the merchant (a
    rival could otherwise ruin a rate with orders it never meant to pay); the merchant's own
    cancellations and lapses as buyer, and appeals they lost, do."""
    rows = await P2POrder.filter(
        merchant_id__in=uids, ended_ms__gte=now_ms - MONTH_MS, state__in=(P2PState.COMPLETED, P2PState.CANCELLED)
    ).values_list("merchant_id", "state", "buyer_id", "seller_id", "resolved_to")
    completed, counted, good = Counter[int](), Counter[int](), Counter[int]()
    for merchant, state, buyer, seller, resolved_to in rows:
        uid = int(merchant)
        lost = resolved_to == (rules.BUYER if seller == uid else rules.SELLER) if resolved_to else False
        if state == P2PState.COMPLETED:
            completed[uid] += 1
            counted[uid] += 1
            good[uid] += not lost
        elif buyer == uid:  # the merchant bought and cancelled, let the window lapse or lost the appeal
            counted[uid] += 1
    return {uid: {"orders_30d": completed[uid], "completion_rate": rules.completion_rate(good[uid], counted[uid])}
            for uid in uids}  # fmt: skip


async def nicknames(uids: list[int]) -> dict[int, str]:
    rows = await Merchant.filter(user_id__in=uids).values_list("user_id", "nickname")
    return {int(uid): str(nick) for uid, nick in rows}


async def info(uid: int, now_ms: int) -> dict[str, Any]:
    """The user's merchant state, verification levels, figures and the methods they may offer."""
    user = await User.get(id=uid)
    row = await Merchant.get_or_none(user_id=uid)
    name = (await real_names([uid])).get(uid)
    advanced = row is not None and row.status == MerchantStatus.APPROVED
    return {
        "status": -1 if row is None else int(row.status),
        "nickname": row.nickname if row else "",
        "reject_reason": row.reject_reason if row else "",
        "is_seller": bool(user.is_seller),
        "levels": {"mobile": bool(user.mobile), "real_name": bool(name), "advanced": advanced},
        **(await figures([uid], now_ms))[uid],
        "methods": sorted(await offerable(uid), key=rules.METHODS.index),
    }


async def pending() -> list[dict[str, Any]]:
    """Applications and merchants for the operator's list, newest first."""
    rows = await Merchant.all().order_by("-applied_ms").prefetch_related("user")
    return [{"uid": r.user_id, "account": r.user.email or r.user.mobile or "", "nickname": r.nickname,
             "status": MerchantStatus(r.status).name.lower(), "applied_ms": r.applied_ms, "decided_by": r.decided_by,
             "reject_reason": r.reject_reason} for r in rows]  # fmt: skip
