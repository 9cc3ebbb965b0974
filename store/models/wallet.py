"""Wallet accounts and their journal, deposit addresses and withdrawals, id blocks and the rows that
record pending work (holds, settlements, releases). What the chain watchers and the Signer keep is in
store/models/chain.py."""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any

from tortoise import fields
from tortoise.models import Model

from store.models.base import MoneyField
from store.models.market import Currency
from store.models.users import User

if TYPE_CHECKING:
    from store.models.chain import ChainSend


class AccountType(IntEnum):
    """Wallet account kinds, numbered as the spec's account_type_id (change = 1)."""

    CHANGE = 1
    LEGAL = 2
    LEVER = 3
    MICRO = 4
    FINANCIAL = 5

    @property
    def code(self) -> str:
        return f"{self.name.lower()}_account"


class Account(Model):
    """One wallet account: a user's balance of one currency in one account type."""

    id = fields.IntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="accounts")
    user_id: int
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField("models.Currency", related_name="accounts")
    currency_id: int
    account_type = fields.IntEnumField(AccountType)
    balance = MoneyField(default=0)
    lock_balance = MoneyField(default=0)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "accounts"
        unique_together = (("user", "currency", "account_type"),)


class AccountLog(Model):
    """The journal: one row per balance change, written in the same transaction as the change.

    ``ref`` is unique, so replaying the same change (a deposit's transaction hash, a trade's settle
    key) is refused by the database and the change is applied at most once.
    """

    id = fields.BigIntField(primary_key=True)
    # No foreign-key constraints (``db_constraint=False``): a journal row is written only by the ledger,
    # in the transaction that locks the account of the same (user, currency, type), and the account has
    # them. Checked on every row, they cost two thirds of a 490-row insert and took a share lock on
    # the users' and the currency's rows; and a ledger's history must never go with a deleted row.
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField(
        "models.User", related_name="account_logs", db_constraint=False
    )
    user_id: int
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="account_logs", db_constraint=False
    )
    currency_id: int
    account_type = fields.IntEnumField(AccountType)
    amount = MoneyField()
    lock_amount = MoneyField(default=0)
    balance_after = MoneyField()
    log_type = fields.CharField(max_length=32)
    memo = fields.CharField(max_length=255, default="")
    ref = fields.CharField(max_length=128, null=True, unique=True)
    # Facts the records page shows beside the amount: a transfer's from and to account, a conversion's
    # other currency and price, a withdrawal's id.
    extra: fields.JSONField[dict[str, Any] | None] = fields.JSONField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "account_logs"
        indexes = (("user_id", "account_type", "currency_id"),)


class CurrencyProtocol(Model):
    """A chain a currency moves on (USDT on ERC20 and TRC20), ``uses_memo`` chains share one address."""

    id = fields.IntField(primary_key=True)
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField("models.Currency", related_name="protocols")
    currency_id: int
    chain_protocol = fields.CharField(max_length=16)
    token_address = fields.CharField(max_length=128, default="")
    uses_memo = fields.BooleanField(default=False)
    sort = fields.IntField(default=0)

    class Meta:
        table = "currency_protocols"
        unique_together = (("currency", "chain_protocol"),)
        ordering = ["sort", "id"]


class DepositAddress(Model):
    """A user's deposit address on one currency protocol: its family's ``HdAddress`` (so USDT and ETH on
    ERC20 share one), stored on first request, then stable."""

    id = fields.IntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="deposit_addresses")
    user_id: int
    currency_protocol: fields.ForeignKeyRelation[CurrencyProtocol] = fields.ForeignKeyField(
        "models.CurrencyProtocol", related_name="deposit_addresses"
    )
    currency_protocol_id: int
    address = fields.CharField(max_length=128)
    memo = fields.CharField(max_length=64, default="")
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "deposit_addresses"
        unique_together = (("user", "currency_protocol"),)
        indexes = (("address", "memo"),)


class ManualCreditStatus(IntEnum):
    PENDING = 1  # above the threshold: waiting for a second operator
    CREDITED = 2
    REJECTED = 3


class ManualCredit(Model):
    """An operator's manual credit (a bank wire, a transfer to a wrong memo), under the operator's
    reference (the wire or transaction id): unique, so the same reference never credits twice. One
    worth more than the two-operator threshold waits here until a different finance operator
    approves it; the credit's journal row (ref ``mc<id>``) is written in the transaction that marks it
    credited (``store.admin.credits``)."""

    id = fields.IntField(primary_key=True)
    ref = fields.CharField(max_length=128, unique=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="manual_credits")
    user_id: int
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="manual_credits"
    )
    currency_id: int
    account_type = fields.IntEnumField(AccountType, default=AccountType.CHANGE)
    amount = MoneyField()
    usd_value = MoneyField()  # at the mark when it was asked, against the threshold then in force
    status = fields.IntEnumField(ManualCreditStatus, default=ManualCreditStatus.PENDING)
    reason = fields.CharField(max_length=500, default="")
    requested_by = fields.CharField(max_length=128)  # the operator's e-mail (or, in development, a command's name)
    requested_by_id = fields.IntField(null=True)
    decided_by = fields.CharField(max_length=128, default="")
    decided_by_id = fields.IntField(null=True)
    decision_reason = fields.CharField(max_length=500, default="")
    created_ms = fields.BigIntField()
    decided_ms = fields.BigIntField(null=True)

    class Meta:
        table = "manual_credits"
        indexes = (("status", "id"), ("user_id", "id"))


class WithdrawalStatus(IntEnum):
    PENDING = 1  # waiting for an operator (or the auto-approval rule)
    COMPLETED = 2  # its transaction reached the final confirmation count: the lock left
    REJECTED = 3  # an operator refused it: the lock returned
    APPROVED = 4  # approved: the Signer signs, broadcasts and follows it (store/chain/sends.py)
    FAILED = 5  # the chain refused its transaction for good: the lock returned, with the reason


class Withdrawal(Model):
    """A withdrawal request. Its amount is locked in the change account from the moment it exists (the
    row is written in the transaction of the lock); an operator approves it (or the auto-approval rule
    does) or rejects it (the lock returns to the balance). An approved one is sent by the Signer: the
    lock leaves when its transaction is final, or returns if the chain refuses it for good
    (``ChainSend``). ``fee`` stays with the house; the chain sends amount minus fee."""

    id = fields.IntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="withdrawals")
    user_id: int
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="withdrawals"
    )
    currency_id: int
    currency_protocol: fields.ForeignKeyNullableRelation[CurrencyProtocol] = fields.ForeignKeyField(
        "models.CurrencyProtocol", related_name="withdrawals", null=True
    )
    currency_protocol_id: int | None
    address = fields.CharField(max_length=128)
    memo = fields.CharField(max_length=64, default="")
    amount = MoneyField()
    fee = MoneyField()
    status = fields.IntEnumField(WithdrawalStatus, default=WithdrawalStatus.PENDING)
    ref = fields.CharField(max_length=64, unique=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)
    send: ChainSend | None  # ChainSend.withdrawal's related_name, once fetched ("send" in prefetch_related)

    class Meta:
        table = "withdrawals"
        indexes = (("user_id", "status"), ("status", "id"))


class WithdrawAddress(Model):
    """A withdrawal address a user bound for one currency and chain (user/addr)."""

    id = fields.IntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="withdraw_addresses")
    user_id: int
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="withdraw_addresses"
    )
    currency_id: int
    currency_protocol: fields.ForeignKeyRelation[CurrencyProtocol] = fields.ForeignKeyField(
        "models.CurrencyProtocol", related_name="withdraw_addresses"
    )
    currency_protocol_id: int
    address = fields.CharField(max_length=128)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "withdraw_addresses"
        unique_together = (("user", "currency_protocol", "address"),)


class IdBlock(Model):
    """The next free id of a kind of row (``order``), handed out in blocks (``store.ids``): ids are
    unique against the database itself, whatever happens to Redis."""

    name = fields.CharField(max_length=32, primary_key=True)
    next_id = fields.BigIntField()

    class Meta:
        table = "id_blocks"


class OrderHold(Model):
    """Funds frozen for an order whose row has not landed yet: written with the freeze, deleted when
    the pair stores the order or the freeze is released. One still here after the pairs' submit
    deadline belongs to an order that never reached its pair; the wallet shard releases it."""

    order_id = fields.BigIntField(primary_key=True, generated=False)
    user_id = fields.IntField()
    currency_id = fields.IntField()
    amount = MoneyField()
    created_at = fields.DatetimeField(auto_now_add=True, db_index=True)

    class Meta:
        table = "order_holds"


class PendingSettlement(Model):
    """A trade side not yet settled: written with the trade, deleted by its settlement."""

    id = fields.BigIntField(primary_key=True)
    trade_id = fields.BigIntField()
    side = fields.SmallIntField()  # 1 buyer, 2 seller
    currency_match_id = fields.IntField()

    class Meta:
        table = "pending_settlements"
        unique_together = (("trade_id", "side"),)
        indexes = (("currency_match_id", "trade_id"),)


class PendingRelease(Model):
    """A final order whose unused funds are not yet released: written when the pair stores the order as
    final with funds left, deleted by the release."""

    order_id = fields.BigIntField(primary_key=True, generated=False)
    currency_match_id = fields.IntField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "pending_releases"
        indexes = (("currency_match_id", "order_id"),)
