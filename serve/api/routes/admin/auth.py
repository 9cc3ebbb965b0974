"""The back office's sign-in and what every console route stands on (issue 16, docs/decisions.md
"Operator back office"): operators log in with e-mail, password and a TOTP code (`admin/login`), hold
short sessions bound to them, and every console route names the role it needs (``role``), checked
here on the server. The audit trail (`admin/audit`, CSV too) is the admin role's.

Operators are not users: their sessions live under other Redis keys, a user's token opens nothing here
and an operator's token nothing in the user API.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from serve.api.deps import Lang, Svc, bearer_token, check_password, client_ip
from serve.errors import envelope
from serve.i18n import N_, translate
from serve.security import hash_password, operator_login, operator_throttle_key
from store.admin import audit, operators
from store.admin.audit import Actor
from store.admin.operators import OperatorSessions
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, Operator
from store.times import now_ms

router = APIRouter(tags=["back office"])

PASSWORD_SET = N_("Password changed")
MIN_PASSWORD = 10
NO_NUL = r"^[^\x00]*$"  # PostgreSQL refuses a NUL in text: a filter carrying one is bad input, not a 500
CSV_MAX_ROWS = 100_000  # an export: every row the filters select, up to this


class LoginIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    email: str = Field(default="", max_length=128)
    password: str = Field(default="", max_length=128)
    otp: str = Field(default="", max_length=16, description="the authenticator app's current 6-digit code")


class PasswordIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    old_password: str = Field(default="", max_length=128)
    new_password: str = Field(default="", max_length=128)


class Console:
    """The operator behind a console request, and where it came from (for the audit trail)."""

    def __init__(self, operator: Operator, token: str, address: str) -> None:
        self.operator, self.token, self.address = operator, token, address

    def actor(self, role: str) -> Actor:
        return Actor(self.operator.email, role, self.address, self.operator.id)


async def _console(request: Request, svc: Svc, authorization: Annotated[str | None, Header()] = None) -> Console:
    token = bearer_token(authorization)
    session = await OperatorSessions(svc.redis).resolve(token)
    operator = await Operator.get_or_none(id=session.operator_id) if session else None
    if operator is None or not operator.active:
        raise DomainError(ErrorCode.LOGIN_REQUIRED)
    return Console(operator, token, client_ip(request))


AnyOperator = Annotated[Console, Depends(_console)]


def role(*names: str) -> Callable[[Console], Coroutine[Any, Any, Console]]:
    """A dependency: the operator holds one of ``names`` and has set their own password."""
    if not names or any(n not in operators.ROLES for n in names):
        raise ValueError(names)

    async def check(console: AnyOperator) -> Console:
        operators.check_access(console.operator, names)
        return console

    return check


AdminOperator = Annotated[Console, Depends(role("admin"))]


def _me(operator: Operator) -> dict[str, Any]:
    return {"id": operator.id, "email": operator.email, "roles": list(operator.roles),
            "must_change_password": operator.password_is_temporary}  # fmt: skip


@router.post("/login")
async def login(body: LoginIn, svc: Svc, request: Request) -> Any:
    """Password and TOTP code; the same refusal whatever was wrong (no hint which), throttled per
    e-mail and per address like users' logins (the attempt is taken before anything is checked). A
    code opens one login: its step, once accepted, is not accepted again (``operator_login``)."""
    ip = client_ip(request)
    operator = await operator_login(svc.throttle, body.email, body.password, body.otp, ip)
    operator.last_login_ms = now_ms()
    await operator.save(update_fields=["last_login_ms"])
    token = await OperatorSessions(svc.redis).issue(operator.id)
    await audit.record(Actor(operator.email, "", ip, operator.id), "operator.login", f"operator:{operator.id}")
    return envelope({"token": token, **_me(operator)})


@router.post("/logout")
async def logout(console: AnyOperator, svc: Svc) -> Any:
    await OperatorSessions(svc.redis).revoke(console.token, console.operator.id)
    return envelope(None)


@router.get("/me")
async def me(console: AnyOperator) -> Any:
    """The operator, their roles and whether they must set their own password first."""
    return envelope(_me(console.operator))


@router.get("/enrolment")
async def enrolment(console: AnyOperator) -> Any:
    """The ``otpauth://`` URI for the authenticator app, shown (as a QR code) only until the operator has
    replaced their one-time password: after that the secret never leaves the server again."""
    op = console.operator
    if not op.password_is_temporary:
        raise DomainError(ErrorCode.ADMIN_ROLE_REQUIRED)
    return envelope({"uri": operators.enrolment_uri(op.email, op.totp_secret)})


@router.post("/password")
async def change_password(body: PasswordIn, console: AnyOperator, svc: Svc, request: Request, lang: Lang) -> Any:
    """Set one's own password (required after the one-time one); other sessions end. Wrong old
    passwords count as failed logins of the operator (the same lock, 429)."""
    op = console.operator
    key = operator_throttle_key(op.email)
    await check_password(svc, request, key, op.password_hash, body.old_password, ErrorCode.ADMIN_BAD_LOGIN)
    if len(body.new_password) < MIN_PASSWORD or body.new_password == body.old_password:
        raise DomainError(ErrorCode.ADMIN_PASSWORD_WEAK)
    op.password_hash, op.password_is_temporary = await hash_password(body.new_password), False
    await op.save(update_fields=["password_hash", "password_is_temporary"])
    sessions = OperatorSessions(svc.redis)
    await sessions.revoke_all(op.id)
    token = await sessions.issue(op.id)
    await audit.record(console.actor(""), "operator.password", f"operator:{op.id}")
    return envelope({"token": token, **_me(op)}, translate(PASSWORD_SET, lang))


CSV_OR_JSON: dict[int | str, dict[str, Any]] = {
    200: {
        "content": {"application/json": {}, "text/csv": {"schema": {"type": "string"}}},
        "description": "the trail (JSON envelope), or with format=csv a CSV file",
    }
}


@router.get("/audit", responses=CSV_OR_JSON)
async def audit_trail(
    console: AdminOperator,
    operator: Annotated[str, Query(max_length=128, pattern=NO_NUL)] = "",
    action: Annotated[str, Query(max_length=64, pattern=NO_NUL, description="a prefix: p2p. is every P2P action")] = "",
    target: Annotated[str, Query(max_length=128, pattern=NO_NUL)] = "",
    since_ms: Annotated[int, Query(ge=0, le=2**53)] = 0,
    until_ms: Annotated[int, Query(ge=0, le=2**53)] = 0,
    page: Annotated[int, Query(ge=1, le=INT_MAX)] = 1,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    format: Annotated[str, Query(pattern="^(json|csv)$")] = "json",
) -> Any:
    """Operators' actions, newest first, filtered, a page at a time; ``format=csv`` exports every row the
    filters select (up to 100,000) for a spreadsheet."""
    if format == "csv":  # the whole selection, not one page
        page, limit = 1, CSV_MAX_ROWS
    found = await audit.search(operator=operator, action=action, target=target, since_ms=since_ms,
                               until_ms=until_ms, page=page, limit=limit)  # fmt: skip
    if format == "csv":
        headers = {"Content-Disposition": 'attachment; filename="audit.csv"'}
        return Response(audit.to_csv(found["list"]), media_type="text/csv", headers=headers)
    return envelope(found)
