"""The back office: operator accounts (separate from users) and the append-only audit trail of what
operators did (docs/decisions.md "Operator back office")."""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class Operator(Model):
    """An operator: e-mail, password, TOTP secret and roles (support, finance, risk, content, markets,
    products, admin). A new operator's password is a one-time password until they set their own."""

    id = fields.IntField(primary_key=True)
    email = fields.CharField(max_length=128, unique=True)
    password_hash = fields.CharField(max_length=255)
    totp_secret = fields.CharField(max_length=64)
    roles: fields.JSONField[list[str]] = fields.JSONField(default=list)
    active = fields.BooleanField(default=True)
    password_is_temporary = fields.BooleanField(default=True)
    created_ms = fields.BigIntField()
    last_login_ms = fields.BigIntField(null=True)

    class Meta:
        table = "operators"


class AuditLog(Model):
    """One operator action: who (and the role it needed), what, on what, the values before and after,
    the reason, from where and when. Rows are only ever added."""

    id = fields.BigIntField(primary_key=True)
    operator = fields.CharField(max_length=128)  # the operator's e-mail, or the machine user of a CLI call
    operator_id = fields.IntField(null=True)
    role = fields.CharField(max_length=16, default="")
    action = fields.CharField(max_length=64)
    target = fields.CharField(max_length=128, default="")
    before: fields.JSONField[Any] = fields.JSONField(null=True)
    after: fields.JSONField[Any] = fields.JSONField(null=True)
    reason = fields.CharField(max_length=500, default="")
    address = fields.CharField(max_length=128, default="")
    at_ms = fields.BigIntField()

    class Meta:
        table = "audit_log"
        indexes = (("action", "at_ms"), ("operator", "at_ms"), ("target", "at_ms"))
