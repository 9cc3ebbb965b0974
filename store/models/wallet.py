"""Wallet accounts and their journal, chain deposits and withdrawals, id blocks and the rows that record
pending work (holds, settlements, releases)."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from tortoise import fields
from tortoise.models import Model

from store.models.base import MoneyField
from store.models.market import Currency
from store.models.users import User


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


class HdAddress(Model):
    """A user's deposit address in one chain family (store/chain/keys.py): the receive child ``index``
    of the family's account xpub, ``key_id`` naming that xpub. One per (user, family), one per index."""

    id = fields.IntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="hd_addresses")
    user_id: int
    family = fields.CharField(max_length=8)
    index = fields.IntField()
    address = fields.CharField(max_length=128, db_index=True)
    key_id = fields.CharField(max_length=16)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "hd_addresses"
        unique_together = (("user", "family"), ("family", "index"))


class HdCounter(Model):
    """The next unused address index of a chain family, raised in the transaction that stores the
    address it gives, so an index is never handed out twice, also after a restart."""

    family = fields.CharField(max_length=8, primary_key=True)
    next_index = fields.IntField(default=0)

    class Meta:
        table = "hd_counters"


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


class DepositStatus(IntEnum):
    CONFIRMING = 0
    CREDITED = 1
    BELOW_MINIMUM = 2
    DROPPED = 3  # its block left the chain and it was not mined again (a credit was clawed back)
    ABOVE_MAXIMUM = 4  # more than the currency's max_amount: held for an operator, not credited


class ChainDeposit(Model):
    """A transfer seen on a chain to a deposit address, credited once, at the currency's first
    confirmation count. One row per (chain, tx_hash, output_index): a UTXO output's ``n``, an ERC20
    transfer's log index, -1 for an EVM transaction's own (native) value. ``block_hash``/``block_height``
    say where it was mined (NULL while a reorg took its block and it was not seen again); ``reversals``
    counts the credits clawed back after a reorg (each credit and clawback has its own journal ref),
    ``owed`` what a clawback could not take because the user had spent it (docs/decisions.md "Never twice")."""

    id = fields.IntField(primary_key=True)
    chain = fields.CharField(max_length=16, default="", db_default="")
    tx_hash = fields.CharField(max_length=128, db_index=True)
    output_index = fields.IntField(default=0, db_default=0)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="chain_deposits")
    user_id: int
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="chain_deposits"
    )
    currency_id: int
    currency_protocol: fields.ForeignKeyRelation[CurrencyProtocol] = fields.ForeignKeyField(
        "models.CurrencyProtocol", related_name="chain_deposits"
    )
    currency_protocol_id: int
    address = fields.CharField(max_length=128)
    memo = fields.CharField(max_length=64, default="")
    amount = MoneyField()
    confirmations = fields.IntField(default=0)
    status = fields.IntEnumField(DepositStatus, default=DepositStatus.CONFIRMING)
    block_hash = fields.CharField(max_length=128, null=True)
    block_height = fields.IntField(null=True)
    reversals = fields.SmallIntField(default=0, db_default=0)
    owed = MoneyField(default=0, db_default=0)
    swept_at = fields.DatetimeField(null=True)  # its address swept to the hot wallet since (store/chain/sweeps.py)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "chain_deposits"
        unique_together = (("chain", "tx_hash", "output_index"),)
        indexes = (("user_id", "currency_id"), ("chain", "status"))


class ChainBlock(Model):
    """A block a chain watcher processed (store/chain/watch.py): its cursor is the highest one, and the
    recent ones let it see a reorg (a stored hash the node no longer has at that height)."""

    id = fields.IntField(primary_key=True)
    chain = fields.CharField(max_length=16)
    height = fields.IntField()
    hash = fields.CharField(max_length=128)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "chain_blocks"
        unique_together = (("chain", "height"),)


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


class SendState(IntEnum):
    SIGNED = 1  # signed and stored; no node has said it holds it yet
    SENT = 2  # a node took it (in its mempool or already mined): followed until final
    CONFIRMED = 3  # mined with the final confirmation count: the withdrawal is completed
    FAILED = 4  # refused for good (reverted, or its nonce or inputs spent by another): refunded


class ChainSend(Model):
    """The one transaction of an approved withdrawal (``withdrawal`` is unique: never two). Its signed
    bytes and id are stored before any broadcast, so after a crash the same bytes go out again and never
    a new transaction (docs/decisions.md "Sending withdrawals"). ``nonce`` is the EVM hot wallet's
    (the nonce manager's memory across restarts); ``attempts`` counts broadcasts, ``error`` keeps the
    node's last refusal, and ``reason`` why it failed for good."""

    id = fields.IntField(primary_key=True)
    withdrawal: fields.OneToOneRelation[Withdrawal] = fields.OneToOneField("models.Withdrawal", related_name="send")
    withdrawal_id: int
    chain = fields.CharField(max_length=16)
    sender = fields.CharField(max_length=128)
    nonce = fields.BigIntField(null=True)
    txid = fields.CharField(max_length=128, unique=True)
    raw_tx = fields.TextField()  # hex of the signed bytes
    state = fields.IntEnumField(SendState, default=SendState.SIGNED)
    attempts = fields.IntField(default=0)
    error = fields.CharField(max_length=255, default="")
    reason = fields.CharField(max_length=255, default="")
    block_height = fields.IntField(null=True)
    confirmations = fields.IntField(default=0)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "chain_sends"
        indexes = (("chain", "state"), ("chain", "sender", "nonce"))


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
