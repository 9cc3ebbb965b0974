"""What the ledger applies: a ``Change`` to one account under a unique ``ref``, the ``Op`` of a group
commit, a settlement's ``Fee``, and every kind of journal row (``LOG_KINDS``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model

from store.errors import DomainError
from store.models import AccountType

LOG_DEPOSIT = "deposit"
ZERO = Decimal(0)
# Every kind of journal row (``account_logs.log_type``) any code writes. ``Change`` refuses another,
# so the list is complete: the records page names each kind in every language
# (serve/api/routes/records.py, tests/unit/test_record_names.py). Each product keeps its own
# constants (store.lever.LOG_TYPES, store.earn.LOG_TYPES, store.micro, store.p2p, store.withdrawals …).
LOG_KINDS = frozenset({
    LOG_DEPOSIT, "deposit_reversal", "bot_funding", "demo_funding",
    "freeze", "release", "trade_pay", "trade_get", "transfer", "convert",
    "draw", "draw_done", "draw_back", "draw_failed",
    "lever_open", "lever_entrust", "lever_fill", "lever_close", "lever_cancel", "lever_liquidation", "lever_overnight",
    "micro_stake", "micro_settle",
    "lock_savings", "mining", "shoufa", "listing",
    "p2p_ad", "p2p_escrow", "p2p_release", "p2p_refund",
})  # fmt: skip


Key = tuple[int, int, int]  # an account: (user id, currency id, account type)
Facts = tuple[int, int, int, Decimal, Decimal]  # a journal row's (user, currency, type, amount, lock amount)
FACT_FIELDS = ("ref", "user_id", "currency_id", "account_type", "amount", "lock_amount")  # a ref and its facts


@dataclass(frozen=True)
class Change:
    """One account's change: ``balance`` and ``lock`` deltas (either may be negative)."""

    uid: int
    currency_id: int
    account_type: AccountType
    balance: Decimal
    lock: Decimal
    log_type: str
    ref: str
    memo: str = ""
    extra: dict[str, object] | None = None

    def __post_init__(self) -> None:
        if self.log_type not in LOG_KINDS:  # a new kind joins LOG_KINDS and the records' names first
            raise ValueError(f"unknown journal kind {self.log_type!r}: add it to store.ledger.LOG_KINDS")

    @property
    def key(self) -> Key:
        return (self.uid, self.currency_id, int(self.account_type))


@dataclass(frozen=True)
class Fee:
    """A fee row written with a settlement; its (trade_id, side) key makes the settlement idempotent."""

    trade_id: int
    side: int
    currency_id: int
    amount: Decimal


def account_type_of(code: str) -> AccountType:
    """``change`` or ``change_account`` -> AccountType.CHANGE; raises LookupError for others."""
    name = code.lower().removesuffix("_account").upper()
    try:
        return AccountType[name]
    except KeyError as exc:
        raise LookupError(f"unknown account type {code!r}") from exc


# Rows that must be written in the transaction of a balance change (a withdrawal request with its lock).
Also = Callable[[BaseDBAsyncClient], Awaitable[None]]
# A row an operation ends: its model, the fields that find it, and their values.
Delete = tuple[type[Model], tuple[str, ...], tuple[Any, ...]]


@dataclass(frozen=True)
class Op:
    """One operation of a group commit (``apply_debits``): its changes, and what is written with
    them if it applies: ``rows`` to create (an order freeze's ``OrderHold``, a settlement's fee row,
    created in bulk with the batch's others) and ``also`` to run in the transaction (like ``apply``'s);
    ``deletes``: rows it ends when it applies or was applied before (an order's hold and pending
    release, a trade side's pending settlement), deleted in bulk with the others'; ``opens``: its
    accounts are created when missing (a settlement credits an account the user may not have yet)."""

    changes: list[Change]
    rows: tuple[Model, ...] = ()
    also: Also | None = None
    deletes: tuple[Delete, ...] = ()
    opens: bool = False
    # (limit, refusal): the operation is refused with ``refusal`` if it would leave any account it
    # touches with a lock above ``limit`` (a user's open stakes capped, checked under the row lock).
    lock_cap: tuple[Decimal, DomainError] | None = None
