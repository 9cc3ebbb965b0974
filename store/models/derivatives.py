"""Leveraged positions, second contracts, the house ledger and the Scheduler's runs."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from tortoise import fields
from tortoise.models import Model

from store.models.base import MoneyField
from store.models.market import Currency, CurrencyMatch
from store.models.users import User


class LeverStatus(IntEnum):
    """A leveraged position's life, numbered as the spec's lever states."""

    ENTRUSTED = 0  # a fixed-price entrustment waiting for the mark (margin and fee frozen)
    OPEN = 1
    CLOSING = 2
    CLOSED = 3
    CANCELLED = 4  # an entrustment cancelled (by its owner, or by a liquidation of the account)


class LeverPosition(Model):
    """A leveraged contract against the house: an entrustment, then an open position, then closed.

    Its terms (hand size, spread, fee and overnight rates, multiple) are copied from the pair when it is
    made: changing a pair never changes a position. ``caution_money`` is the margin it holds (as lock
    in the owner's lever account); ``frozen`` what an entrustment holds until it opens. ``armed_seq``
    and ``stop_seq`` are the pair's tick seq when the entrustment, and the take-profit/stop-loss, were
    set: only later ticks can trigger them (a restarted lever shard replays ticks). The id of the tick
    that opened and that closed it is kept, so every decision can be checked against the tick log.
    """

    id = fields.BigIntField(primary_key=True, generated=False)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="lever_positions")
    user_id: int
    currency_match: fields.ForeignKeyRelation[CurrencyMatch] = fields.ForeignKeyField(
        "models.CurrencyMatch", related_name="lever_positions"
    )
    currency_match_id: int
    type = fields.SmallIntField()  # 1 long, 2 short
    status = fields.IntEnumField(LeverStatus)
    share = fields.IntField()  # hands
    multiple = fields.IntField()
    share_num = MoneyField()  # base units per hand
    point_rate = MoneyField(default=0)  # the spread, percent
    fee_rate = MoneyField(default=0)
    overnight_rate = MoneyField(default=0)
    target_price = MoneyField(default=0)  # an entrustment's price; 0 for a market open
    origin_price = MoneyField(default=0)  # the mark when it was submitted
    price = MoneyField(default=0)  # the open price
    caution_money = MoneyField(default=0)  # margin held now
    origin_caution_money = MoneyField(default=0)  # margin when it opened
    frozen = MoneyField(default=0)  # an entrustment's frozen margin and fee
    trade_fee = MoneyField(default=0)
    overnight_money = MoneyField(default=0)
    target_profit_price = MoneyField(default=0)  # 0: none
    stop_loss_price = MoneyField(default=0)  # 0: none
    close_price = MoneyField(default=0)
    profits = MoneyField(default=0)  # realised when closed
    close_reason = fields.CharField(max_length=16, default="")
    armed_seq = fields.BigIntField(default=0)
    stop_seq = fields.BigIntField(default=0)
    open_tick_id = fields.BigIntField(default=0)
    close_tick_id = fields.BigIntField(default=0)
    overnight_day = fields.IntField(default=0)  # the last UTC day (days since 1970-01-01) charged
    created_at = fields.DatetimeField(auto_now_add=True)
    opened_at = fields.DatetimeField(null=True)
    closed_at = fields.DatetimeField(null=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "lever_positions"
        indexes = (("user_id", "status"), ("currency_match_id", "status"))


class HouseLedger(Model):
    """The house's side of leveraged contracts, append-only (no hot house row to contend on): fees
    (``lever_fee``), overnight fees (``overnight``), the P&L of positions closed against the house
    (``lever_pnl``: + when a trader lost) and the insurance fund (``insurance``: + from liquidation
    remainders, - for the gaps it covers). Written in the transaction of the user's side; ``ref``
    makes each entry happen once. Conservation counts it with the accounts and the fee ledger."""

    id = fields.BigIntField(primary_key=True)
    kind = fields.CharField(max_length=16)
    # No foreign-key constraint, as the journal's (``AccountLog``): append-only history, written with the
    # user's side whose account or order names the currency.
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="house", db_constraint=False
    )
    currency_id: int
    amount = MoneyField()
    ref = fields.CharField(max_length=128, unique=True)
    user_id = fields.IntField(null=True)
    position_id = fields.BigIntField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "house_ledger"
        indexes = (("kind", "currency_id"),)


class LeverCursor(Model):
    """How far a lever shard has processed each pair's mark ticks: on a restart it replays the ticks
    after ``seq`` from the tick log (a trigger already carried out is durable and does not fire again)."""

    id = fields.IntField(primary_key=True)
    shard = fields.IntField()
    currency_match_id = fields.IntField()
    seq = fields.BigIntField(default=0)

    class Meta:
        table = "lever_cursors"
        unique_together = (("shard", "currency_match_id"),)


class SchedulerRun(Model):
    """One run of a Scheduler job for one UTC day (actors/scheduler): written before the job runs and
    marked done after it, so a done (job, day) never runs again and a run cut short runs again (every
    job is idempotent by its own key). ``day`` is days since 1970-01-01."""

    id = fields.IntField(primary_key=True)
    job = fields.CharField(max_length=64)
    day = fields.IntField()
    done = fields.BooleanField(default=False)
    attempts = fields.IntField(default=0)
    result: fields.JSONField[Any] = fields.JSONField(null=True)
    error = fields.TextField(default="")
    started_at = fields.DatetimeField()
    finished_at = fields.DatetimeField(null=True)

    class Meta:
        table = "scheduler_runs"
        unique_together = (("job", "day"),)


class MicroStatus(IntEnum):
    """A second contract's life, numbered as the spec's micro states."""

    OPEN = 1  # staked, counting down (its entry tick may not have come yet)
    CLOSED = 3  # settled: won, lost, tied or void


class MicroOrder(Model):
    """A second contract: up or down on a pair's mark over ``seconds``, against the house.

    Its terms (ratio, fee rate) are frozen at acceptance (``accepted_ms``, the server clock when the
    stake was held). The outcome is ``store.micro.settle.settle`` of those terms and the pair's tick
    log, recorded with the entry and exit ticks that decided it, so anyone can check it
    (``microtrade/proof``). The stake is held as lock in the owner's micro account while it is open.
    """

    id = fields.BigIntField(primary_key=True, generated=False)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="micro_orders")
    user_id: int
    currency_match: fields.ForeignKeyRelation[CurrencyMatch] = fields.ForeignKeyField(
        "models.CurrencyMatch", related_name="micro_orders"
    )
    currency_match_id: int
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="micro_orders"
    )
    currency_id: int
    type = fields.SmallIntField()  # 1 up, 2 down
    seconds = fields.IntField()
    number = MoneyField()  # the stake
    profit_ratio = MoneyField()  # percent
    fee_rate = MoneyField(default=0)  # percent of a win's profit
    status = fields.IntEnumField(MicroStatus)
    accepted_ms = fields.BigIntField()
    outcome = fields.CharField(max_length=8, default="")  # win, loss, tie, void once closed
    entry_tick_id = fields.BigIntField(null=True)
    exit_tick_id = fields.BigIntField(null=True)
    open_price = MoneyField(null=True)
    end_price = MoneyField(null=True)
    end_ms = fields.BigIntField(null=True)  # entry time + seconds
    payout = MoneyField(default=0)
    fact_profits = MoneyField(default=0)
    fee = MoneyField(default=0)
    created_at = fields.DatetimeField(auto_now_add=True)
    settled_at = fields.DatetimeField(null=True)

    class Meta:
        table = "micro_orders"
        indexes = (("user_id", "status"), ("status", "id"), ("currency_match_id", "seconds", "status"))
