"""Currencies, pairs and what trading writes: spot orders, trades, candles, fees and the mark-price tick log."""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

from tortoise import fields
from tortoise.models import Model

from store.models.base import MoneyField
from store.models.users import User

if TYPE_CHECKING:  # the reverse side of a relation declared in a module that imports this one
    from store.models.wallet import CurrencyProtocol


class Currency(Model):
    id = fields.IntField(primary_key=True)
    code = fields.CharField(max_length=16, unique=True)
    name = fields.CharField(max_length=64)
    logo = fields.CharField(max_length=255, default="")
    decimals = fields.SmallIntField(default=8)
    is_quote = fields.BooleanField(default=False)
    sort = fields.IntField(default=0)
    usd_price = MoneyField(default=0)
    open_recharge = fields.BooleanField(default=True)
    open_draw = fields.BooleanField(default=True)
    draw_rate = MoneyField(default=0)
    draw_min = MoneyField(default=0)
    draw_max = MoneyField(default=0)
    recharge_min = MoneyField(default=0)
    # The most one transfer, conversion, withdrawal or deposit may move: bounds every amount at the edge.
    max_amount = MoneyField(default=1_000_000_000, db_default=1_000_000_000)
    confirmations = fields.SmallIntField(default=1)
    account_types = fields.CharField(max_length=64, default="1,2,3,4,5")
    # Second contracts: the preset stakes ("" = not a stake currency), the bounds of one stake and the
    # most one user may have staked in open contracts at once.
    micro_numbers = fields.CharField(max_length=128, default="", db_default="")
    micro_min = MoneyField(default=1, db_default=1)
    micro_max = MoneyField(default=10_000, db_default=10_000)
    micro_max_open = MoneyField(default=50_000, db_default=50_000)
    protocols: fields.ReverseRelation[CurrencyProtocol]  # CurrencyProtocol.currency's related_name

    class Meta:
        table = "currencies"
        ordering = ["sort", "id"]


class CurrencyMatch(Model):
    """A trading pair. Fees and precision live here so the matching core reads them from one place."""

    id = fields.IntField(primary_key=True)
    base_currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="base_matches"
    )
    base_currency_id: int
    quote_currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="quote_matches"
    )
    quote_currency_id: int
    open_change = fields.BooleanField(default=True)
    open_lever = fields.BooleanField(default=False)
    open_microtrade = fields.BooleanField(default=False)
    sell_disabled = fields.BooleanField(default=False)
    added = fields.BooleanField(default=False)
    price_decimals = fields.SmallIntField(default=4)
    qty_decimals = fields.SmallIntField(default=6)
    maker_fee = MoneyField(default=0)
    taker_fee = MoneyField(default=0)
    lever_point_rate = MoneyField(default=0)
    lever_share_num = MoneyField(default=1)
    lever_fee_rate = MoneyField(default=0)
    # Order bounds, checked at the edge and again by the pair (docs/decisions.md "Bounds"): a limit
    # price at most ``max_price``, a quantity at most ``max_quantity``, a value (price x quantity, in
    # the quote currency) at least ``min_notional``, a limit price within ``price_band`` times the mark
    # price either way, and at most ``max_open_orders`` resting orders per user.
    max_price = MoneyField(default=10_000_000, db_default=10_000_000)
    max_quantity = MoneyField(default=1_000_000_000, db_default=1_000_000_000)
    min_notional = MoneyField(default=1, db_default=1)
    price_band = MoneyField(default=5, db_default=5)
    max_open_orders = fields.IntField(default=200, db_default=200)
    # The mark price's impact notional (docs/decisions.md "A mark no single order can move"): the impact
    # bid and ask are the average prices to fill this much (quote currency) on each side of the book,
    # and the last price averages the latest trades worth this much.
    impact_notional = MoneyField(default=1000, db_default=1000)
    # Leveraged contracts (docs/decisions.md "Leveraged contracts"): the multiples and hand presets the
    # screen offers (comma-separated), the daily overnight rate (a fraction of the position's value),
    # the most hands one position may have, and the most net exposure (quote currency, at the mark)
    # the house takes on the pair: an open that would take it further is refused.
    lever_multiples = fields.CharField(max_length=64, default="5,10,20,50,100,200", db_default="5,10,20,50,100,200")
    lever_shares = fields.CharField(max_length=64, default="1,2,5,10,20,50", db_default="1,2,5,10,20,50")
    lever_overnight_rate = MoneyField(default=0, db_default=0)
    lever_max_hands = fields.IntField(default=100, db_default=100)
    lever_max_exposure = MoneyField(default=10_000_000, db_default=10_000_000)
    # Second contracts: the durations offered with their profit ratio ("seconds:percent,..."), the fee
    # (percent of a win's profit) and the most the house may lose on one (pair, duration, currency).
    micro_seconds = fields.CharField(max_length=128, default="30:80,60:85,120:90,300:90",
                                     db_default="30:80,60:85,120:90,300:90")  # fmt: skip
    micro_fee_rate = MoneyField(default=0, db_default=0)
    micro_max_exposure = MoneyField(default=100_000, db_default=100_000)
    sort = fields.IntField(default=0)

    class Meta:
        table = "currency_matches"
        unique_together = (("base_currency", "quote_currency"),)
        ordering = ["sort", "id"]


class PairPin(Model):
    """The node a pair's actor was moved to with `exchange pairs move`, kept across restarts.

    A pin here wins over EXCHANGE_PAIR_NODES. ``node`` is the node's name as Ray knows it (its
    ``--node-name``, the IP by default), stable across node restarts where a node id is not.
    """

    currency_match: fields.OneToOneRelation[CurrencyMatch] = fields.OneToOneField(
        "models.CurrencyMatch", related_name="pin", primary_key=True
    )
    currency_match_id: int
    node = fields.CharField(max_length=128)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "pair_pins"


class Quotation(Model):
    """The last 24 h ticker of a pair, kept by its PairActor (seeded until the engine runs)."""

    currency_match: fields.OneToOneRelation[CurrencyMatch] = fields.OneToOneField(
        "models.CurrencyMatch", related_name="quotation", primary_key=True
    )
    currency_match_id: int
    close = MoneyField(default=0)
    change = MoneyField(default=0)
    high = MoneyField(default=0)
    low = MoneyField(default=0)
    volume = MoneyField(default=0)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "quotations"


class OrderStatus(IntEnum):
    """Lifecycle of a spot order. OPEN and PARTIAL rest on the book; the others are final."""

    OPEN = 1
    PARTIAL = 2
    FILLED = 3
    CANCELLED = 4


class Order(Model):
    """A spot order. Ids come from the API (before funds are frozen), so the row may appear only when
    the pair accepts it; a freeze with no order row behind it is released by the reconciler."""

    id = fields.BigIntField(primary_key=True, generated=False)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="orders")
    user_id: int
    currency_match: fields.ForeignKeyRelation[CurrencyMatch] = fields.ForeignKeyField(
        "models.CurrencyMatch", related_name="orders"
    )
    currency_match_id: int
    way = fields.SmallIntField()  # 1 buy, 2 sell
    kind = fields.SmallIntField(default=1)  # 1 limit, 2 market
    price = MoneyField()  # limit price; 0 for a market order
    number = MoneyField()  # quantity ordered (base)
    budget = MoneyField(default=0)  # quote frozen by a market buy
    frozen = MoneyField()  # funds held for this order (quote for a buy, base for a sell)
    transacted_amount = MoneyField(default=0)  # filled quantity (base)
    transacted_volume = MoneyField(default=0)  # filled value (quote)
    status = fields.IntEnumField(OrderStatus, default=OrderStatus.OPEN)
    seq = fields.BigIntField(default=0)  # the book's arrival sequence (time priority on restore)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "orders"
        indexes = (("currency_match_id", "status"), ("user_id", "status"))


class Trade(Model):
    """A fill between a maker and a taker. A side is settled once its FeeLedger row exists."""

    id = fields.BigIntField(primary_key=True, generated=False)
    currency_match: fields.ForeignKeyRelation[CurrencyMatch] = fields.ForeignKeyField(
        "models.CurrencyMatch", related_name="trades"
    )
    currency_match_id: int
    buy_order_id = fields.BigIntField()
    sell_order_id = fields.BigIntField()
    buyer_id = fields.IntField()
    seller_id = fields.IntField()
    taker_way = fields.SmallIntField()
    price = MoneyField()
    number = MoneyField()
    volume = MoneyField()
    buyer_fee = MoneyField(default=0)  # in base
    seller_fee = MoneyField(default=0)  # in quote
    created_at = fields.DatetimeField()

    class Meta:
        table = "trades"
        indexes = (("currency_match_id", "created_at"),)


class Kline(Model):
    """One candle of one pair and period, upserted by the PairActor of the pair as trades arrive."""

    id = fields.BigIntField(primary_key=True)
    currency_match_id = fields.IntField()
    period = fields.CharField(max_length=8)
    start = fields.BigIntField()  # bucket start, ms since the epoch (UTC)
    open = MoneyField()
    high = MoneyField()
    low = MoneyField()
    close = MoneyField()
    volume = MoneyField()
    amount = MoneyField(default=0)

    class Meta:
        table = "klines"
        unique_together = (("currency_match_id", "period", "start"),)


class FeeLedger(Model):
    """Fees collected, one append-only row per trade side (no hot house-account row to contend on).

    Written in the same transaction as the settlement of that side, so its unique (trade, side) key is also
    what makes settlement idempotent: a second settle of the same side finds the row and does nothing.
    """

    id = fields.BigIntField(primary_key=True)
    trade_id = fields.BigIntField()
    side = fields.SmallIntField()  # 1 buyer, 2 seller
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField("models.Currency", related_name="fees")
    currency_id: int
    amount = MoneyField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "fee_ledger"
        unique_together = (("trade_id", "side"),)


class MarkTick(Model):
    """One mark-price tick of a pair: its durable, ordered, hash-chained price log.

    ``id`` is ``pair_id << 40 | seq`` (unique without coordination, like trade ids); ``seq`` counts the
    pair's ticks from 1 with no gap. ``hash`` is the SHA-256 of the previous tick's hash and this
    tick's facts (``actors.pair.marks.tick_hash``), so rewriting any tick breaks every later one.
    """

    id = fields.BigIntField(primary_key=True, generated=False)
    currency_match_id = fields.IntField()
    seq = fields.BigIntField()
    time_ms = fields.BigIntField()
    price = MoneyField()
    prev_hash = fields.CharField(max_length=64)
    hash = fields.CharField(max_length=64)
    # Which rule produced the tick (``actors.pair.mark_rule``: impact, mid, last; touch for the ticks
    # written before issue 27) and which hash version covers it (1 does not cover the rule).
    rule = fields.CharField(max_length=8, default="touch", db_default="touch")
    version = fields.SmallIntField(default=1, db_default=1)

    class Meta:
        table = "mark_ticks"
        unique_together = (("currency_match_id", "seq"),)
        indexes = (("currency_match_id", "time_ms"),)
