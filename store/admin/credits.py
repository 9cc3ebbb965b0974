"""Manual credits (docs/decisions.md "Operator controls over money"): an operator credits a user what
no chain deposit did (a bank wire, a transfer to a wrong memo), under a reference of their own
(the wire or transaction id), one implementation for the console and `exchange deposit`.

- The reference is unique in the database (``manual_credits.ref``): the same reference again answers
  the first request and moves nothing; with another user, currency, account or amount it is refused
  (MANUAL_CREDIT_REF_USED).
- Worth at most the threshold (``store.admin.approvals``, its USD value at the mark): credited at once.
  Above it: a pending request, credited once, when a different finance operator approves it.
- The row, the ledger batch (journal ref ``mc<id>``, log type ``deposit``: conservation counts it as
  money in) and the audit row are one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_UP, Decimal
from typing import Any

from tortoise.exceptions import IntegrityError

from store import ledger
from store.admin import audit
from store.admin.approvals import same_operator
from store.admin.audit import Actor
from store.db import retry_busy, transaction
from store.errors import DomainError, ErrorCode
from store.models import AccountType, Currency, ManualCredit, ManualCreditStatus, User
from store.money import money
from store.times import now_ms

STATES = {ManualCreditStatus.PENDING: "pending", ManualCreditStatus.CREDITED: "credited",
          ManualCreditStatus.REJECTED: "rejected"}  # fmt: skip
MEMO = "manual deposit"
CENT = Decimal("0.01")  # USD values to the cent, rounded up: a credit a fraction above the threshold is above it


@dataclass(frozen=True)
class CreditAsk:
    """What an operator asks to credit."""

    user: User
    currency: Currency
    account_type: AccountType
    amount: Decimal
    ref: str
    reason: str


@dataclass(frozen=True)
class Outcome:
    credit: ManualCredit
    replayed: bool  # the reference was used before for this very credit: nothing moved now


async def request(ask: CreditAsk, *, actor: Actor, usd_price: Decimal, limit: Decimal | None) -> Outcome:
    """Credit at once, or leave a request for a second operator when it is worth more than ``limit`` at
    ``usd_price`` (a unit's USD price at the mark) or cannot be valued (no price); ``limit`` None credits
    at once whatever the value (development's `exchange deposit`).

    Raises MANUAL_CREDIT_ACCOUNT (the currency cannot be held in that account) and
    MANUAL_CREDIT_REF_USED; idempotent by the reference, also against a concurrent request."""
    if str(int(ask.account_type)) not in ask.currency.account_types.split(","):
        raise DomainError(ErrorCode.MANUAL_CREDIT_ACCOUNT, currency=ask.currency.code, account=ask.account_type.code)
    found = await ManualCredit.get_or_none(ref=ask.ref)
    if found is None:
        usd_value = (ask.amount * usd_price).quantize(CENT, rounding=ROUND_UP)
        pending = limit is not None and (usd_price <= 0 or usd_value > limit)
        try:
            return Outcome(await _book(ask, actor, usd_value, pending), False)
        except IntegrityError:  # the same reference, committed by a concurrent request first
            found = await ManualCredit.get(ref=ask.ref)
    facts = (found.user_id, found.currency_id, int(found.account_type), found.amount)
    if facts != (ask.user.id, ask.currency.id, int(ask.account_type), ask.amount):
        raise DomainError(ErrorCode.MANUAL_CREDIT_REF_USED, ref=ask.ref)
    return Outcome(found, True)


def _change(row: ManualCredit) -> ledger.Change:
    return ledger.Change(row.user_id, row.currency_id, AccountType(row.account_type), row.amount,
                         ledger.ZERO, ledger.LOG_DEPOSIT, f"mc{row.id}", MEMO,
                         {"credit_id": row.id, "ref": row.ref})  # fmt: skip


def _trail(row: ManualCredit, code: str) -> dict[str, Any]:
    return {"credit_id": row.id, "currency": code, "amount": money(row.amount),
            "account": AccountType(row.account_type).code, "ref": row.ref, "usd": money(row.usd_value),
            "status": STATES[ManualCreditStatus(row.status)]}  # fmt: skip


@retry_busy
async def _book(ask: CreditAsk, actor: Actor, usd_value: Decimal, pending: bool) -> ManualCredit:
    now = now_ms()
    decided: dict[str, Any] = {} if pending else {"decided_by": actor.name[:128], "decided_by_id": actor.operator_id,
                                                  "decided_ms": now}  # fmt: skip
    async with transaction() as conn:
        row = await ManualCredit.create(
            ref=ask.ref, user_id=ask.user.id, currency_id=ask.currency.id, account_type=ask.account_type,
            amount=ask.amount, usd_value=usd_value, reason=ask.reason[:500],
            status=ManualCreditStatus.PENDING if pending else ManualCreditStatus.CREDITED,
            requested_by=actor.name[:128], requested_by_id=actor.operator_id, created_ms=now, using_db=conn, **decided,
        )  # fmt: skip
        if not pending:
            await ledger.apply_in(conn, [_change(row)])
        action = "deposit.manual_request" if pending else "deposit.manual"
        await audit.record(actor, action, f"user:{ask.user.id}", after=_trail(row, ask.currency.code),
                           reason=ask.reason, conn=conn)  # fmt: skip
    return row


@retry_busy
async def decide(credit_id: int, *, approve: bool, actor: Actor, reason: str) -> ManualCredit:
    """Approve (credited now, once) or reject a pending request, as an operator other than the one who
    asked. The row is locked first, so of two decisions racing the second finds it decided.

    Raises NOT_FOUND, MANUAL_CREDIT_NOT_PENDING and SECOND_OPERATOR_REQUIRED."""
    async with transaction() as conn:
        row = await ManualCredit.filter(id=credit_id).select_for_update().using_db(conn).first()
        if row is None:
            raise DomainError(ErrorCode.NOT_FOUND)
        if row.status != ManualCreditStatus.PENDING:
            raise DomainError(ErrorCode.MANUAL_CREDIT_NOT_PENDING)
        if same_operator(actor, row.requested_by, row.requested_by_id):
            raise DomainError(ErrorCode.SECOND_OPERATOR_REQUIRED)
        row.status = ManualCreditStatus.CREDITED if approve else ManualCreditStatus.REJECTED
        row.decided_by, row.decided_by_id, row.decided_ms = actor.name[:128], actor.operator_id, now_ms()
        row.decision_reason = reason[:500]
        await row.save(using_db=conn, update_fields=["status", "decided_by", "decided_by_id", "decided_ms",
                                                     "decision_reason"])  # fmt: skip
        if approve:
            await ledger.apply_in(conn, [_change(row)])
        code = await Currency.filter(id=row.currency_id).using_db(conn).values_list("code", flat=True)
        await audit.record(actor, f"deposit.manual_{'approve' if approve else 'reject'}",
                           f"user:{row.user_id}", before={"status": "pending"},
                           after=_trail(row, str(code[0])), reason=reason, conn=conn)  # fmt: skip
    return row


def view(row: ManualCredit) -> dict[str, Any]:
    """A credit as the console and the command show it (``user`` and ``currency`` fetched)."""
    return {"id": row.id, "ref": row.ref, "user_id": row.user.id, "account": row.user.email or row.user.mobile,
            "currency": row.currency.code, "account_type": AccountType(row.account_type).code,
            "amount": money(row.amount), "usd": money(row.usd_value), "status": int(row.status),
            "status_name": STATES[ManualCreditStatus(row.status)], "reason": row.reason,
            "requested_by": row.requested_by, "decided_by": row.decided_by, "decision_reason": row.decision_reason,
            "created_ms": row.created_ms, "decided_ms": row.decided_ms}  # fmt: skip


async def fetched(row: ManualCredit) -> ManualCredit:
    """``row`` with its user and currency, for ``view``."""
    await row.fetch_related("user", "currency")
    return row


async def listed(*, status: int | None, user_id: int | None, page: int, limit: int = 20) -> dict[str, Any]:
    """Credits by state (pending: oldest first, a queue; others newest first) and user, a page."""
    query = ManualCredit.all()
    if status is not None:
        query = query.filter(status=status)
    if user_id is not None:
        query = query.filter(user_id=user_id)
    total = await query.count()
    order = "id" if status == ManualCreditStatus.PENDING else "-id"
    rows = await query.order_by(order).offset((page - 1) * limit).limit(limit).prefetch_related("user", "currency")
    return {"list": [view(r) for r in rows], "page": page, "total": total, "limit": limit}
