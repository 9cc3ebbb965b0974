"""Users and what they own outside the wallets: contact areas, site settings, news, uploads, collection
methods, real-name reviews and feedback."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from tortoise import fields
from tortoise.models import Model


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
    parent: fields.ForeignKeyNullableRelation[User] = fields.ForeignKeyField(
        "models.User", related_name="invitees", null=True
    )
    parent_id: int | None
    is_seller = fields.BooleanField(default=False)
    is_bot = fields.BooleanField(default=False)
    # Set by a risk operator: no login (and every session ended), or no withdrawals.
    login_frozen = fields.BooleanField(default=False, db_default=False)
    withdraw_frozen = fields.BooleanField(default=False, db_default=False)
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
    category_id: int
    title = fields.CharField(max_length=200)
    content = fields.TextField()
    banner = fields.CharField(max_length=255, default="")
    sort = fields.IntField(default=0)
    created_at = fields.DatetimeField()

    class Meta:
        table = "news"
        ordering = ["-sort", "-created_at", "-id"]


class Upload(Model):
    """An image a user uploaded (stored under the data directory), only its owner may attach it."""

    id = fields.IntField(primary_key=True)
    user: fields.ForeignKeyRelation[User] = fields.ForeignKeyField("models.User", related_name="uploads")
    user_id: int
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
    user_id: int
    type = fields.CharField(max_length=16)
    raw_data: fields.JSONField[dict[str, Any]] = fields.JSONField()
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
    user_id: int
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
    user_id: int
    content = fields.TextField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "feedback"
