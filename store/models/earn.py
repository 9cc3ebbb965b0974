"""Earn products: lock savings, mining, token sales and listing applications."""

from __future__ import annotations

from decimal import Decimal
from enum import IntEnum

from tortoise import fields
from tortoise.models import Model

from store.models.base import MoneyField
from store.models.market import Currency
from store.models.users import User


class EarnStatus(IntEnum):
    """An earn order's life (lock savings and mining), numbered as the API shows it."""

    ACTIVE = 0  # earning: its principal is held as lock in the owner's financial account
    ENDED = 1  # matured: principal and what it earned returned
    CANCELLED = 2  # a mining order ended early by its owner, the penalty kept by the house


class LockProduct(Model):
    """A lock-savings product (/deposit): one lot of ``limit_number`` locked for ``limit_days``.

    ``display_rate`` is the annual rate in percent, accrued daily (amount x rate / 100 / 365 a day).
    ``quota_lots`` caps the lots sold (0: no cap). Its terms are copied onto each order, so editing a
    product changes only later orders.
    """

    id = fields.IntField(primary_key=True)
    name = fields.CharField(max_length=64)
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="lock_products"
    )
    currency_id: int
    limit_days = fields.IntField()
    display_rate = MoneyField()  # annual, percent
    limit_number = MoneyField()  # one lot
    quota_lots = fields.IntField(default=0)  # 0: no cap
    open = fields.BooleanField(default=True)
    sort = fields.IntField(default=0)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "lock_products"
        ordering = ["sort", "id"]


class LockOrder(Model):
    """One lot of a lock-savings product bought by a user, its terms copied from the product.

    Bought on UTC day ``start_day`` (days since 1970-01-01), it earns for days ``start_day + 1`` ..
    ``end_day`` (``end_day = start_day + limit_days``), one ``EarnAccrual`` row per day booked, their
    sum in ``accrued``. Its ``amount`` is held as lock in the owner's financial account until the
    Scheduler's run of ``end_day`` returns it with the interest.
    """

    id = fields.BigIntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="lock_orders")
    user_id: int
    product: fields.ForeignKeyRelation[LockProduct] = fields.ForeignKeyField(
        "models.LockProduct", related_name="orders"
    )
    product_id: int
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="lock_orders"
    )
    currency_id: int
    amount = MoneyField()
    display_rate = MoneyField()  # annual, percent (copied)
    limit_days = fields.IntField()  # copied
    start_day = fields.IntField()  # the day of the buy: it earns from the next day
    end_day = fields.IntField()  # the last day it earns, its maturity: start_day + limit_days
    accrued = MoneyField(default=0)
    days_booked = fields.IntField(default=0)
    status = fields.IntEnumField(EarnStatus, default=EarnStatus.ACTIVE)
    created_at = fields.DatetimeField(auto_now_add=True)
    ended_at = fields.DatetimeField(null=True)

    class Meta:
        table = "lock_orders"
        indexes = (("user_id", "status"), ("status", "end_day"))


class MiningProduct(Model):
    """A mining (locked-yield) product: principal between ``mins`` and ``maxs`` held for ``zhouqi`` days.

    Each day it earns the day's published rate (``MiningRate``, daily percent, within ``rate_min`` ..
    ``rate_max``), paid daily. Ended early, an order pays ``penalty_rate`` percent of its principal
    per remaining day. ``status``: 0 not started, 1 in progress (buyable), 2 ended.
    """

    id = fields.IntField(primary_key=True)
    title = fields.CharField(max_length=64)
    logo = fields.CharField(max_length=255, default="")
    rate_min = MoneyField()  # daily, percent
    rate_max = MoneyField()  # daily, percent
    zhouqi = fields.IntField()  # cycle, days
    mins = MoneyField()
    maxs = MoneyField()
    penalty_rate = MoneyField(default=Decimal("0.4"))  # percent of the principal per remaining day
    status = fields.SmallIntField(default=1)
    sort = fields.IntField(default=0)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "mining_products"
        ordering = ["sort", "id"]


class MiningRate(Model):
    """The daily rate (percent) a mining product pays every holder for one UTC day: stored before
    any yield of that day is booked and never changed after (``store.earn.mining``)."""

    id = fields.IntField(primary_key=True)
    product: fields.ForeignKeyRelation[MiningProduct] = fields.ForeignKeyField(
        "models.MiningProduct", related_name="rates"
    )
    product_id: int
    day = fields.IntField()
    rate = MoneyField()  # daily, percent
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "mining_rates"
        unique_together = (("product", "day"),)


class MiningOrder(Model):
    """Principal put in a mining product, its terms copied from the product.

    Bought on UTC day ``start_day``, it earns for days ``start_day + 1`` .. ``end_day`` (``end_day =
    start_day + zhouqi``), each day's yield paid into the financial account (``EarnAccrual`` rows,
    their sum in ``earned``); ``nums`` is held as lock until the run of ``end_day`` returns it, or a
    cancel returns it less ``penalty``. ``type``: 1 USDT, 2 ACB, 3 MVBT (the currency of ``nums``).
    """

    id = fields.BigIntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="mining_orders")
    user_id: int
    product: fields.ForeignKeyRelation[MiningProduct] = fields.ForeignKeyField(
        "models.MiningProduct", related_name="orders"
    )
    product_id: int
    type = fields.SmallIntField()
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="mining_orders"
    )
    currency_id: int
    nums = MoneyField()  # the principal
    rate_min = MoneyField()  # copied
    rate_max = MoneyField()  # copied
    zhouqi = fields.IntField()  # copied
    penalty_rate = MoneyField()  # copied
    start_day = fields.IntField()  # the day of the buy: it earns from the next day
    end_day = fields.IntField()  # the last day it earns, its maturity: start_day + zhouqi
    earned = MoneyField(default=0)
    days_booked = fields.IntField(default=0)
    penalty = MoneyField(default=0)
    returned = MoneyField(default=0)  # principal given back when it ended (nums less the penalty)
    status = fields.IntEnumField(EarnStatus, default=EarnStatus.ACTIVE)
    created_at = fields.DatetimeField(auto_now_add=True)
    ended_at = fields.DatetimeField(null=True)

    class Meta:
        table = "mining_orders"
        indexes = (("user_id", "status"), ("status", "end_day"), ("product_id", "status"))


class EarnAccrual(Model):
    """One day booked for one earn order (``kind`` "lock" or "mining"): the proof that the day was
    booked once. Written in the transaction of its money, its unique (kind, order_id, day) refuses a
    second booking of that day."""

    id = fields.BigIntField(primary_key=True)
    kind = fields.CharField(max_length=8)
    order_id = fields.BigIntField()
    day = fields.IntField()
    rate = MoneyField()  # lock: annual percent, mining: the day's published daily percent
    amount = MoneyField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "earn_accruals"
        unique_together = (("kind", "order_id", "day"),)
        indexes = (("kind", "day"),)


class TokenSale(Model):
    """A token sale (shoufa): ``total`` tokens of ``huodong`` offered at ``rengou`` (price in ``jieshou``,
    the accepted asset) between ``btime`` and ``etime`` (ms since the epoch), each subscription
    locking at least ``min_amount`` of ``jieshou``. ``subscribed`` and ``cishu`` count what was asked
    and how many times, ``allocated_at`` when the allocation ran. ``status``: 0 in progress or
    upcoming, 1 completed."""

    id = fields.IntField(primary_key=True)
    title = fields.CharField(max_length=128)
    logo = fields.CharField(max_length=255, default="")
    desc = fields.TextField(default="")
    huodong: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="sales_issued"
    )
    huodong_id: int
    jieshou: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="sales_accepted"
    )
    jieshou_id: int
    rengou = MoneyField()  # price: jieshou per token
    total = MoneyField()  # tokens offered
    btime = fields.BigIntField()
    etime = fields.BigIntField()
    per_user_max = MoneyField(default=0)  # tokens, 0: no limit
    min_amount = MoneyField(default=1, db_default=1)  # the least a subscription locks, in jieshou (nums x rengou)
    status = fields.SmallIntField(default=0)
    subscribed = MoneyField(default=0)  # tokens asked
    cishu = fields.IntField(default=0)  # subscriptions
    allocated_at = fields.BigIntField(null=True)
    sort = fields.IntField(default=0)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "token_sales"
        ordering = ["sort", "-id"]


class SaleSubscription(Model):
    """A user's subscription to a token sale: ``nums`` tokens asked at ``price`` (copied), ``locked`` =
    nums x price held in the financial account until the allocation takes ``cost`` for the
    ``allocated`` tokens and refunds the rest (``refunded``). ``status``: 0 pending, 1 allocated."""

    id = fields.BigIntField(primary_key=True)
    sale: fields.ForeignKeyRelation[TokenSale] = fields.ForeignKeyField(
        "models.TokenSale", related_name="subscriptions"
    )
    sale_id: int
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="sale_subscriptions")
    user_id: int
    nums = MoneyField()  # tokens asked
    price = MoneyField()  # copied
    locked = MoneyField()  # nums x price, in jieshou
    allocated = MoneyField(default=0)  # tokens won
    cost = MoneyField(default=0)
    refunded = MoneyField(default=0)
    status = fields.SmallIntField(default=0)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "sale_subscriptions"
        indexes = (("sale_id", "status"), ("user_id", "sale_id"))


class ListingProject(Model):
    """A listing project: ``total`` tokens of ``bizhong`` at ``price`` USDT, applications between
    ``btime`` and ``etime``, won tokens credited on ``online`` (ms since the epoch); applied USDT is
    locked for ``lock_days``, at least ``min_amount`` an application. ``shengyu``: tokens remaining
    for applicants, ``applied``: USDT applied. ``status``: 0 upcoming, 1 in progress, 2 ended."""

    id = fields.IntField(primary_key=True)
    title = fields.CharField(max_length=128)
    desc = fields.TextField(default="")
    bizhong: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="listing_projects"
    )
    bizhong_id: int
    price = MoneyField()  # USDT per token
    total = MoneyField()  # tokens issued
    shengyu = MoneyField()  # tokens remaining for applicants
    btime = fields.BigIntField()
    etime = fields.BigIntField()
    online = fields.BigIntField()
    lock_days = fields.IntField(default=7)
    min_amount = MoneyField(default=1, db_default=1)  # the least an application locks, USDT
    status = fields.SmallIntField(default=0)
    applied = MoneyField(default=0)  # USDT
    allocated_at = fields.BigIntField(null=True)
    sort = fields.IntField(default=0)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "listing_projects"
        ordering = ["sort", "-id"]


class ListingApplication(Model):
    """A user's application to a listing project: ``nums`` USDT applied at ``price`` (copied), locked
    until ``release_ms``; the allocation sets ``won_usdt`` and ``won_tokens``, ``released`` and
    ``credited`` mark the lock's return and the tokens' credit. ``status``: 0 under review, 1 won,
    2 not won."""

    id = fields.BigIntField(primary_key=True)
    project: fields.ForeignKeyRelation[ListingProject] = fields.ForeignKeyField(
        "models.ListingProject", related_name="applications"
    )
    project_id: int
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="listing_applications")
    user_id: int
    nums = MoneyField()  # USDT applied
    price = MoneyField()  # copied
    won_usdt = MoneyField(default=0)
    won_tokens = MoneyField(default=0)
    status = fields.SmallIntField(default=0)
    release_ms = fields.BigIntField()
    released = fields.BooleanField(default=False)
    credited = fields.BooleanField(default=False)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "listing_applications"
        indexes = (("project_id", "status"), ("user_id", "id"))
