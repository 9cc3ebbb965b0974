"""tortoise-orm models. Money is NUMERIC (``MoneyField``), never a float.

The schema is owned by the migrations in ``store/migrations``; after changing a model run
``tortoise makemigrations`` and commit the generated file.
"""

from __future__ import annotations

from decimal import Decimal
from enum import IntEnum

from tortoise import fields
from tortoise.models import Model

# The largest value an IntField (a 32-bit INTEGER column) holds: ids from clients are checked against it
# before a lookup, since PostgreSQL refuses a bigger parameter (and SQLite one beyond 64 bits).
INT_MAX = 2**31 - 1


def MoneyField(**kwargs: object) -> fields.DecimalField:  # noqa: N802 - reads like a field class
    """NUMERIC(36, 18): wide enough for any supply, exact to 18 places (the ERC-20 maximum)."""
    return fields.DecimalField(max_digits=36, decimal_places=18, **kwargs)  # type: ignore[arg-type]


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


class User(Model):
    id = fields.IntField(primary_key=True)
    email = fields.CharField(max_length=50, null=True, unique=True)
    mobile = fields.CharField(max_length=20, null=True)
    country_code = fields.CharField(max_length=8, null=True)
    area_id = fields.IntField(null=True)
    password_hash = fields.CharField(max_length=255)
    pay_password_hash = fields.CharField(max_length=255, null=True)
    invite_code = fields.CharField(max_length=16, unique=True)
    authorization_code = fields.CharField(max_length=32, null=True, unique=True)
    parent = fields.ForeignKeyField("models.User", related_name="invitees", null=True)
    is_seller = fields.BooleanField(default=False)
    is_bot = fields.BooleanField(default=False)
    # When a contact was bound or the deal or login password set: withdrawals wait a cooling-off period
    # after it, so a stolen session cannot rebind the account and empty it at once.
    security_changed_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "users"
        unique_together = (("country_code", "mobile"),)


class Area(Model):
    id = fields.IntField(primary_key=True)
    name = fields.CharField(max_length=64)
    global_code = fields.CharField(max_length=8)
    sort = fields.IntField(default=0)

    class Meta:
        table = "areas"


class SiteSetting(Model):
    key = fields.CharField(max_length=64, primary_key=True)
    value = fields.TextField()

    class Meta:
        table = "site_settings"


class NewsCategory(Model):
    id = fields.IntField(primary_key=True)
    name = fields.CharField(max_length=64)
    sort = fields.IntField(default=0)

    class Meta:
        table = "news_categories"


class News(Model):
    id = fields.IntField(primary_key=True)
    category: fields.ForeignKeyRelation[NewsCategory] = fields.ForeignKeyField(
        "models.NewsCategory", related_name="news"
    )
    title = fields.CharField(max_length=200)
    content = fields.TextField()
    banner = fields.CharField(max_length=255, default="")
    sort = fields.IntField(default=0)
    created_at = fields.DatetimeField()

    class Meta:
        table = "news"
        ordering = ["-sort", "-created_at", "-id"]


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

    class Meta:
        table = "currencies"
        ordering = ["sort", "id"]


class CurrencyMatch(Model):
    """A trading pair. Fees and precision live here so the matching core reads them from one place."""

    id = fields.IntField(primary_key=True)
    base_currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="base_matches"
    )
    quote_currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="quote_matches"
    )
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
    node = fields.CharField(max_length=128)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "pair_pins"


class Quotation(Model):
    """The last 24 h ticker of a pair, kept by its PairActor (seeded until the engine runs)."""

    currency_match: fields.OneToOneRelation[CurrencyMatch] = fields.OneToOneField(
        "models.CurrencyMatch", related_name="quotation", primary_key=True
    )
    close = MoneyField(default=0)
    change = MoneyField(default=0)
    high = MoneyField(default=0)
    low = MoneyField(default=0)
    volume = MoneyField(default=0)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "quotations"


class Account(Model):
    """One wallet account: a user's balance of one currency in one account type."""

    id = fields.IntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="accounts")
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField("models.Currency", related_name="accounts")
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
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="account_logs")
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="account_logs"
    )
    account_type = fields.IntEnumField(AccountType)
    amount = MoneyField()
    lock_amount = MoneyField(default=0)
    balance_after = MoneyField()
    log_type = fields.CharField(max_length=32)
    memo = fields.CharField(max_length=255, default="")
    ref = fields.CharField(max_length=128, null=True, unique=True)
    # Facts the records page shows beside the amount: a transfer's from and to account, a conversion's
    # other currency and price, a withdrawal's id.
    extra = fields.JSONField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "account_logs"
        indexes = (("user_id", "account_type", "currency_id"),)


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
    currency_match: fields.ForeignKeyRelation[CurrencyMatch] = fields.ForeignKeyField(
        "models.CurrencyMatch", related_name="orders"
    )
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
    amount = MoneyField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "fee_ledger"
        unique_together = (("trade_id", "side"),)


class CurrencyProtocol(Model):
    """A chain a currency moves on (USDT on ERC20 and TRC20), ``uses_memo`` chains share one address."""

    id = fields.IntField(primary_key=True)
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField("models.Currency", related_name="protocols")
    chain_protocol = fields.CharField(max_length=16)
    token_address = fields.CharField(max_length=128, default="")
    uses_memo = fields.BooleanField(default=False)
    sort = fields.IntField(default=0)

    class Meta:
        table = "currency_protocols"
        unique_together = (("currency", "chain_protocol"),)
        ordering = ["sort", "id"]


class DepositAddress(Model):
    """A user deposit address on one currency protocol, made once by the chain gateway, then stable."""

    id = fields.IntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="deposit_addresses")
    currency_protocol: fields.ForeignKeyRelation[CurrencyProtocol] = fields.ForeignKeyField(
        "models.CurrencyProtocol", related_name="deposit_addresses"
    )
    address = fields.CharField(max_length=128)
    memo = fields.CharField(max_length=64, default="")
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "deposit_addresses"
        unique_together = (("user", "currency_protocol"), ("address", "memo"))


class DepositStatus(IntEnum):
    CONFIRMING = 0
    CREDITED = 1
    BELOW_MINIMUM = 2


class ChainDeposit(Model):
    """A transfer seen on a chain to a deposit address, credited once, when confirmed (ref is the hash)."""

    id = fields.IntField(primary_key=True)
    tx_hash = fields.CharField(max_length=128, unique=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="chain_deposits")
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="chain_deposits"
    )
    currency_protocol: fields.ForeignKeyRelation[CurrencyProtocol] = fields.ForeignKeyField(
        "models.CurrencyProtocol", related_name="chain_deposits"
    )
    address = fields.CharField(max_length=128)
    memo = fields.CharField(max_length=64, default="")
    amount = MoneyField()
    confirmations = fields.IntField(default=0)
    status = fields.IntEnumField(DepositStatus, default=DepositStatus.CONFIRMING)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "chain_deposits"
        indexes = (("user_id", "currency_id"),)


class WithdrawalStatus(IntEnum):
    PENDING = 1
    COMPLETED = 2
    REJECTED = 3


class Withdrawal(Model):
    """A withdrawal request. Its amount is locked in the change account from the moment it exists (the
    row is written in the transaction of the lock); an operator approves (the lock leaves) or rejects
    (the lock returns to the balance). ``fee`` stays with the house; the chain sends amount minus fee."""

    id = fields.IntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="withdrawals")
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="withdrawals"
    )
    currency_protocol: fields.ForeignKeyNullableRelation[CurrencyProtocol] = fields.ForeignKeyField(
        "models.CurrencyProtocol", related_name="withdrawals", null=True
    )
    address = fields.CharField(max_length=128)
    memo = fields.CharField(max_length=64, default="")
    amount = MoneyField()
    fee = MoneyField()
    status = fields.IntEnumField(WithdrawalStatus, default=WithdrawalStatus.PENDING)
    ref = fields.CharField(max_length=64, unique=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "withdrawals"
        indexes = (("user_id", "status"), ("status", "id"))


class WithdrawAddress(Model):
    """A withdrawal address a user bound for one currency and chain (user/addr)."""

    id = fields.IntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="withdraw_addresses")
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="withdraw_addresses"
    )
    currency_protocol: fields.ForeignKeyRelation[CurrencyProtocol] = fields.ForeignKeyField(
        "models.CurrencyProtocol", related_name="withdraw_addresses"
    )
    address = fields.CharField(max_length=128)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "withdraw_addresses"
        unique_together = (("user", "currency_protocol", "address"),)


class Upload(Model):
    """An image a user uploaded (stored under the data directory), only its owner may attach it."""

    id = fields.IntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="uploads")
    name = fields.CharField(max_length=64, unique=True)
    content_type = fields.CharField(max_length=32)
    size = fields.IntField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "uploads"


class PayMethod(Model):
    """A collection method of a user (alipay, wxpay or bank), ``raw_data`` holds the fields of spec 3."""

    id = fields.IntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="pay_methods")
    type = fields.CharField(max_length=16)
    raw_data = fields.JSONField()
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "pay_methods"
        unique_together = (("user", "type"),)


class ReviewStatus(IntEnum):
    """Real-name review as the spec numbers it; a rejected submission goes back to NOT_SUBMITTED."""

    NOT_SUBMITTED = 0
    UNDER_REVIEW = 1
    APPROVED = 2


class RealName(Model):
    """A real-name (KYC) submission, one per user."""

    id = fields.IntField(primary_key=True)
    user: fields.OneToOneRelation[User] = fields.OneToOneField("models.User", related_name="real_name")
    name = fields.CharField(max_length=64)
    card_id = fields.CharField(max_length=32)
    front_pic = fields.CharField(max_length=255)
    reverse_pic = fields.CharField(max_length=255)
    hand_pic = fields.CharField(max_length=255)
    review_status = fields.IntEnumField(ReviewStatus, default=ReviewStatus.UNDER_REVIEW)
    reject_reason = fields.CharField(max_length=255, default="")
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "real_names"


class Feedback(Model):
    """A message a user sent from the personal centre, operators read it with `exchange feedback`."""

    id = fields.IntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="feedback")
    content = fields.TextField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "feedback"


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

    class Meta:
        table = "mark_ticks"
        unique_together = (("currency_match_id", "seq"),)
        indexes = (("currency_match_id", "time_ms"),)


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
    currency_match: fields.ForeignKeyRelation[CurrencyMatch] = fields.ForeignKeyField(
        "models.CurrencyMatch", related_name="lever_positions"
    )
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
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField("models.Currency", related_name="house")
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
    result = fields.JSONField(null=True)
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
    stake was held). The outcome is ``actors.micro.settle.settle`` of those terms and the pair's tick
    log, recorded with the entry and exit ticks that decided it, so anyone can check it
    (``microtrade/proof``). The stake is held as lock in the owner's micro account while it is open.
    """

    id = fields.BigIntField(primary_key=True, generated=False)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="micro_orders")
    currency_match: fields.ForeignKeyRelation[CurrencyMatch] = fields.ForeignKeyField(
        "models.CurrencyMatch", related_name="micro_orders"
    )
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="micro_orders"
    )
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
    product: fields.ForeignKeyRelation[LockProduct] = fields.ForeignKeyField(
        "models.LockProduct", related_name="orders"
    )
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="lock_orders"
    )
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
    product: fields.ForeignKeyRelation[MiningProduct] = fields.ForeignKeyField(
        "models.MiningProduct", related_name="orders"
    )
    type = fields.SmallIntField()
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="mining_orders"
    )
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
    the accepted asset) between ``btime`` and ``etime`` (ms since the epoch). ``subscribed`` and
    ``cishu`` count what was asked and how many times, ``allocated_at`` when the allocation ran.
    ``status``: 0 in progress or upcoming, 1 completed."""

    id = fields.IntField(primary_key=True)
    title = fields.CharField(max_length=128)
    logo = fields.CharField(max_length=255, default="")
    desc = fields.TextField(default="")
    huodong: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="sales_issued"
    )
    jieshou: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="sales_accepted"
    )
    rengou = MoneyField()  # price: jieshou per token
    total = MoneyField()  # tokens offered
    btime = fields.BigIntField()
    etime = fields.BigIntField()
    per_user_max = MoneyField(default=0)  # tokens, 0: no limit
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
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="sale_subscriptions")
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
    locked for ``lock_days``. ``shengyu``: tokens remaining for applicants, ``applied``: USDT applied.
    ``status``: 0 upcoming, 1 in progress, 2 ended."""

    id = fields.IntField(primary_key=True)
    title = fields.CharField(max_length=128)
    desc = fields.TextField(default="")
    bizhong: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField(
        "models.Currency", related_name="listing_projects"
    )
    price = MoneyField()  # USDT per token
    total = MoneyField()  # tokens issued
    shengyu = MoneyField()  # tokens remaining for applicants
    btime = fields.BigIntField()
    etime = fields.BigIntField()
    online = fields.BigIntField()
    lock_days = fields.IntField(default=7)
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
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="listing_applications")
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
