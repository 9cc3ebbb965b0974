"""The two-operator rules (docs/decisions.md "Operator controls over money"), one implementation for
the console and the command line:

- a user's withdrawals worth at least ``second_approval_usd`` in the 24 h up to a request (that one
  included, rejected ones not) settle only when a second operator approves;
- a manual credit worth more than ``credit_second_approval_usd`` waits for a second operator
  (``store.admin.credits``);
- a withdrawal is approved with no operator while the user's withdrawals in the 24 h up to it are
  worth less than ``auto_approve_usd`` (``auto_approve``; 0 turns it off).

Each threshold is the deployment's setting (``EXCHANGE_…``), which an operator may lower with the
site setting of the same name and never raise: the lower of the two applies. The operator who asks is
never the one who completes; the first approval of a withdrawal is an audit row."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from tortoise.backends.base.client import BaseDBAsyncClient

from config.settings import Settings
from store import withdrawals
from store.admin import audit
from store.admin.audit import Actor
from store.errors import DomainError, ErrorCode
from store.models import AuditLog, SiteSetting, Withdrawal, WithdrawalStatus
from store.money import money, plain
from store.prices import PriceBook

WITHDRAWAL_KEY = "second_approval_usd"
CREDIT_KEY = "credit_second_approval_usd"
AUTO_KEY = "auto_approve_usd"
THRESHOLDS = (WITHDRAWAL_KEY, CREDIT_KEY, AUTO_KEY)
AUTO_ACTOR = Actor("auto-approval", role="finance")
PLACES = 2  # dollars and cents
FIRST_APPROVAL = "withdrawal.approve_first"
CENT = Decimal("0.01")


def ceiling(settings: Settings, key: str) -> Decimal:
    """The deployment's threshold ``key`` (its setting of the same name): the most it can be."""
    if key not in THRESHOLDS:
        raise KeyError(key)
    return Decimal(getattr(settings, key))


def effective(stored: str | None, ceiling: Decimal) -> Decimal:
    """The threshold in force: the stored site setting when it is a plain number from 0 to ``ceiling``,
    otherwise (none, empty, unreadable, or above a ceiling lowered since) the ceiling."""
    value = plain(stored or "", low=Decimal(0), high=ceiling, places=PLACES)
    return ceiling if value is None else value


async def threshold(settings: Settings, key: str) -> Decimal:
    """The threshold ``key`` in force now (read on every decision: a change applies to the next one)."""
    row = await SiteSetting.get_or_none(key=key)
    return effective(row.value if row else None, ceiling(settings, key))


def same_operator(actor: Actor, name: str, operator_id: int | None) -> bool:
    """Whether ``actor`` is the operator recorded as ``name`` / ``operator_id`` (by id when both have
    one: an operator's account, in the console or an authenticated command)."""
    if actor.operator_id is not None and operator_id is not None:
        return actor.operator_id == operator_id
    return actor.name == name


@dataclass(frozen=True)
class WithdrawalRule:
    """Why a withdrawal needs one operator or two: its USD value, the user's 24 h total up to it and
    the threshold in force."""

    usd: Decimal
    usd_24h: Decimal
    threshold: Decimal

    @property
    def needs_two(self) -> bool:
        return self.usd_24h >= self.threshold

    def view(self) -> dict[str, object]:
        return {"usd": money(self.usd), "usd_24h": money(self.usd_24h), "second_approval_usd": money(self.threshold),
                "needs_two": self.needs_two}  # fmt: skip


async def withdrawal_rule(row: Withdrawal, book: PriceBook, limit: Decimal) -> WithdrawalRule:
    """``row`` (its currency fetched) against the threshold ``limit``, valued at ``book``'s USD prices."""
    amounts = await withdrawals.day_amounts(row)
    total = sum((amount * book.usd_price(code) for code, amount in amounts.items()), Decimal(0))
    usd = row.amount * book.usd_price(row.currency.code)
    return WithdrawalRule(usd.quantize(CENT), total.quantize(CENT), limit)


async def first_approval(withdrawal_id: int) -> AuditLog | None:
    return await AuditLog.filter(action=FIRST_APPROVAL, target=f"withdrawal:{withdrawal_id}").order_by("id").first()


@dataclass(frozen=True)
class WithdrawalDecision:
    row: Withdrawal
    waiting_for_second: bool  # approved once; a different operator must approve it too


async def decide_withdrawal(withdrawal_id: int, *, approve: bool, actor: Actor, reason: str, book: PriceBook,
                            limit: Decimal) -> WithdrawalDecision:  # fmt: skip
    """Reject (the lock returns), or approve: settled at once when the user's 24 h total is under
    ``limit``, otherwise on the approval of a second operator (the first is an audit row; the same
    operator again counts once). The decision and its audit row are one transaction.

    Raises NOT_FOUND, WITHDRAWAL_NOT_PENDING, and WITHDRAWAL_USER_FROZEN for an approval (a first one
    too) while the user's withdrawals are frozen: the request stays pending for a rejection or a
    later approval."""
    row = await Withdrawal.get_or_none(id=withdrawal_id).prefetch_related("currency")
    if row is None:
        raise DomainError(ErrorCode.NOT_FOUND)
    if row.status != WithdrawalStatus.PENDING:
        raise DomainError(ErrorCode.WITHDRAWAL_NOT_PENDING)
    target = f"withdrawal:{row.id}"
    if approve:
        if await withdrawals.frozen(row.user_id):
            raise DomainError(ErrorCode.WITHDRAWAL_USER_FROZEN)
        rule = await withdrawal_rule(row, book, limit)
        if rule.needs_two:
            first = await first_approval(row.id)
            if first is None:
                await audit.record(actor, FIRST_APPROVAL, target, after={"amount": money(row.amount), **rule.view()},
                                   reason=reason)  # fmt: skip
                return WithdrawalDecision(row, True)
            if same_operator(actor, first.operator, first.operator_id):
                return WithdrawalDecision(row, True)
    action = f"withdrawal.{'approve' if approve else 'reject'}"
    after = {"status": "approved" if approve else "rejected", "amount": money(row.amount), "fee": money(row.fee)}

    async def write(conn: BaseDBAsyncClient) -> None:
        await audit.record(actor, action, target, before={"status": "pending"}, after=after, reason=reason, conn=conn)

    try:
        decided = await withdrawals.decide(row.id, approve=approve, also=write)
    except LookupError as exc:
        raise DomainError(ErrorCode.NOT_FOUND) from exc
    return WithdrawalDecision(decided, False)


async def auto_approve(withdrawal_id: int, *, settings: Settings, book: PriceBook) -> bool:
    """Approve a new request with no operator when the user's withdrawals in the 24 h up to it (this
    one included) are worth less than ``auto_approve_usd`` and under the two-operator threshold; the
    audit row names the rule. False (it stays pending for an operator) otherwise, or when the user's
    withdrawals are frozen or a price is missing (a currency worth nothing in the book is not small)."""
    limit = min(await threshold(settings, AUTO_KEY), await threshold(settings, WITHDRAWAL_KEY))
    row = await Withdrawal.get_or_none(id=withdrawal_id).prefetch_related("currency")
    if limit <= 0 or row is None or row.status != WithdrawalStatus.PENDING:
        return False
    if book.usd_price(row.currency.code) <= 0:
        return False
    rule = await withdrawal_rule(row, book, limit)
    if rule.usd_24h >= limit:
        return False
    try:
        await decide_withdrawal(row.id, approve=True, actor=AUTO_ACTOR, reason=f"under {money(limit)} USD in 24 h",
                                book=book, limit=limit)  # fmt: skip
    except DomainError:  # frozen meanwhile, or decided by an operator first
        return False
    return True
