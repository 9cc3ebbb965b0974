"""What crosses the chain edge: users' HD deposit addresses and the family counters that hand them out,
the transfers the chain watchers saw (``ChainDeposit``) and the blocks they processed, and the one
signed transaction of each approved withdrawal (``ChainSend``)."""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

from tortoise import fields
from tortoise.models import Model

from store.models.base import MoneyField

if TYPE_CHECKING:
    from store.models.market import Currency
    from store.models.users import User
    from store.models.wallet import CurrencyProtocol, Withdrawal


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
