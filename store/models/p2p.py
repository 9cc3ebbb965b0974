"""The peer-to-peer fiat market: merchants, their ads, escrow orders and each order's journal of
transitions (docs/decisions.md "Peer-to-peer market")."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from tortoise import fields
from tortoise.models import Model

from store.models.base import MoneyField
from store.models.market import Currency
from store.models.users import User


class MerchantStatus(IntEnum):
    PENDING = 0
    APPROVED = 1
    REJECTED = 2


class Merchant(Model):
    """A user's application to be a merchant, approved by an operator (which sets ``is_seller``)."""

    id = fields.IntField(primary_key=True)
    user: fields.OneToOneRelation[User] = fields.OneToOneField("models.User", related_name="merchant")
    user_id: int
    nickname = fields.CharField(max_length=32, unique=True)
    status = fields.IntField(default=MerchantStatus.PENDING)
    reject_reason = fields.CharField(max_length=255, default="")
    applied_ms = fields.BigIntField()
    decided_ms = fields.BigIntField(null=True)
    decided_by = fields.CharField(max_length=64, default="")

    class Meta:
        table = "p2p_merchants"


class AdSide(IntEnum):
    """What the merchant does: sells coins (the taker buys) or buys them (the taker sells)."""

    SELL = 1
    BUY = 2


class AdStatus(IntEnum):
    ONLINE = 1
    PAUSED = 2
    CLOSED = 3


class P2PAd(Model):
    """A merchant's ad. ``stock`` is what no order holds yet. On a sell ad it is locked in the merchant's
    legal account (with the escrow of the ad's open orders), and ``version`` names each change of
    that lock in the journal (``ad<id>:v<version>``)."""

    id = fields.IntField(primary_key=True)
    merchant: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="p2p_ads")
    merchant_id: int
    side = fields.IntField()
    currency: fields.ForeignKeyRelation[Currency] = fields.ForeignKeyField("models.Currency", related_name="p2p_ads")
    currency_id: int
    fiat = fields.CharField(max_length=8)
    price = MoneyField()
    min_fiat = MoneyField()
    max_fiat = MoneyField()
    total = MoneyField()
    stock = MoneyField()
    # collection method codes: alipay, wxpay, bank
    methods: fields.JSONField[list[str]] = fields.JSONField(default=list)
    window_min = fields.IntField()
    remarks = fields.CharField(max_length=500, default="")
    status = fields.IntField(default=AdStatus.ONLINE)
    listed = fields.BooleanField(default=False)  # online and its stock worth at least one order's minimum
    version = fields.IntField(default=0)
    created_ms = fields.BigIntField()
    updated_ms = fields.BigIntField()

    class Meta:
        table = "p2p_ads"
        indexes = (("listed", "side", "currency_id", "fiat"), ("merchant_id", "status"))


class P2PState(IntEnum):
    UNPAID = 1
    PAID = 2
    COMPLETED = 3
    CANCELLED = 4
    APPEAL = 5


OPEN_STATES = (P2PState.UNPAID, P2PState.PAID, P2PState.APPEAL)  # the escrow is held


class P2POrder(Model):
    """An order on an ad: ``amount`` of the coin held in escrow from the seller's legal account from its
    opening until it completes (to the buyer) or is cancelled (back to the seller or the ad)."""

    id = fields.BigIntField(primary_key=True)
    ad: fields.ForeignKeyRelation[P2PAd] = fields.ForeignKeyField("models.P2PAd", related_name="orders")
    ad_id: int
    merchant_id = fields.IntField()  # the ad's owner
    buyer_id = fields.IntField()
    seller_id = fields.IntField()
    side = fields.IntField()  # the ad's side
    currency_id = fields.IntField()
    fiat = fields.CharField(max_length=8)
    price = MoneyField()
    amount = MoneyField()  # coins
    total = MoneyField()  # fiat the buyer pays
    pay_method = fields.CharField(max_length=16)
    # the seller's collection details, as at the opening
    pay_details: fields.JSONField[dict[str, Any]] = fields.JSONField(default=dict)
    state = fields.IntField(default=P2PState.UNPAID)
    created_ms = fields.BigIntField()
    deadline_ms = fields.BigIntField()  # the payment window's end
    paid_ms = fields.BigIntField(null=True)
    ended_ms = fields.BigIntField(null=True)
    cancel_kind = fields.CharField(max_length=8, default="")  # buyer, timeout or appeal
    proof = fields.CharField(max_length=255, default="")
    appeal_by = fields.IntField(null=True)
    appeal_reason = fields.CharField(max_length=500, default="")
    appeal_images: fields.JSONField[list[str]] = fields.JSONField(default=list)
    # The other side's answer to the appeal (its statement and images), given once while in appeal.
    reply_reason = fields.CharField(max_length=500, default="", db_default="")
    # null on orders from before the column
    reply_images: fields.JSONField[list[str] | None] = fields.JSONField(default=list, null=True)
    reply_ms = fields.BigIntField(null=True)
    resolved_to = fields.CharField(max_length=8, default="")  # buyer or seller
    resolved_by = fields.CharField(max_length=64, default="")

    class Meta:
        table = "p2p_orders"
        indexes = (("state", "deadline_ms"), ("buyer_id", "state"), ("seller_id", "state"), ("ad_id", "buyer_id"))


class P2PEvent(Model):
    """One transition of an order, written in its transaction: the order's journal."""

    id = fields.BigIntField(primary_key=True)
    order: fields.ForeignKeyRelation[P2POrder] = fields.ForeignKeyField("models.P2POrder", related_name="events")
    order_id: int
    seq = fields.IntField()
    from_state = fields.IntField()
    to_state = fields.IntField()
    by = fields.CharField(max_length=8)  # buyer, seller, system or operator
    actor = fields.CharField(max_length=64, default="")  # the user id or the operator's name
    note = fields.CharField(max_length=500, default="")
    at_ms = fields.BigIntField()

    class Meta:
        table = "p2p_order_events"
        unique_together = (("order_id", "seq"),)
