"""Text messages on their way to phones (docs/decisions.md "Codes that reach phones"): the durable queue
the SMS sender (``actors/sms/``) drains, and what operators read of each message's fate."""

from __future__ import annotations

from enum import StrEnum

from tortoise import fields
from tortoise.models import Model


class SmsState(StrEnum):
    QUEUED = "queued"  # waiting for its turn (new, or for its next round after a failed one)
    SENDING = "sending"  # claimed by the sender; a claim older than its lease is taken again
    SENT = "sent"  # a provider accepted it; waiting for its delivery receipt
    DELIVERED = "delivered"  # the receipt says it reached the handset
    FAILED = "failed"  # given up (every round failed, it expired) or the receipt says undelivered


class SmsMessage(Model):
    """One text to one phone. ``body`` holds the text only while it may still be sent: once the message
    is final it is replaced by ``redacted`` (the text with its code masked), the only form operators see."""

    id = fields.BigIntField(primary_key=True)
    to = fields.CharField(max_length=20)  # E.164, +8613800138000
    region = fields.CharField(max_length=2)  # ISO 3166 country of the number (CN), for the ceiling and reports
    purpose = fields.SmallIntField()  # the code's send type (notify: 1 register, 2 forgot, ...)
    body = fields.TextField()
    redacted = fields.TextField()
    state = fields.CharEnumField(SmsState, max_length=12, default=SmsState.QUEUED)
    rounds = fields.SmallIntField(default=0)  # full passes over the providers that failed
    provider = fields.CharField(max_length=16, default="")  # the one that accepted it
    provider_ref = fields.CharField(max_length=80, null=True)  # its id there (the first part's, for SMPP)
    parts = fields.SmallIntField(default=0)  # segments the provider sent (what it costs)
    error = fields.TextField(default="")  # the last failure, per provider
    next_at = fields.DatetimeField()  # due (queued) or the claim's lease end (sending)
    expires_at = fields.DatetimeField()  # the code's end: not sent after it
    created_at = fields.DatetimeField(auto_now_add=True)
    sent_at = fields.DatetimeField(null=True)
    done_at = fields.DatetimeField(null=True)

    class Meta:
        table = "sms_messages"
        indexes = (("state", "next_at"), ("provider", "provider_ref"), ("to", "created_at"))
