"""Sending verification codes by e-mail or SMS.

Types: 1 register (target must be free), 2 forgot password and 5 login (target must be registered),
3 deal password (logged in; own e-mail or phone only), 6 binding (logged in; target must be free).
One send per target per ``code_resend_seconds``. A phone code is bound to its number *and* dialling
code (``area_id``), so it verifies only that phone; the number must be a valid one of that country
(``store/sms/phones.py``, 400 otherwise), and the country's per-minute ceiling must admit it (429).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter

from serve.api.deps import Lang, OptionalUser, Svc
from serve.api.schemas import SendCodeIn, check_account
from serve.errors import envelope
from serve.i18n import N_, translate
from serve.security import code_target
from store import users
from store.errors import DomainError, ErrorCode
from store.models import User
from store.sms.phones import parse_phone

router = APIRouter(prefix="/notify", tags=["notify"])

CODE_SENT = N_("The verification code has been sent")
REGISTER, FORGOT, PAY_PASSWORD, LOGIN, BIND = 1, 2, 3, 5, 6


async def _country_code(kind: Literal["email", "mobile"], body: SendCodeIn, to: str, user: User | None) -> str:
    """The dialling code a phone code is bound to: the chosen area's; without one, that of the
    account the number belongs to (types 2, 3, 5). A free number (types 1, 6) needs an area."""
    if kind == "email":
        return ""
    if body.area_id is not None:
        area = await users.area(body.area_id)
        if area is None:
            raise DomainError(ErrorCode.AREA_INVALID)
        return area.global_code
    if body.type in (REGISTER, BIND):
        raise DomainError(ErrorCode.AREA_INVALID)
    owner = user if body.type == PAY_PASSWORD else await users.find_by_account("mobile", to)
    return (owner.country_code or "") if owner is not None else ""


async def _check_target(
    purpose: int, kind: Literal["email", "mobile"], to: str, country_code: str, user: User | None
) -> None:
    owner = await users.find_by_account(kind, to, country_code)
    if purpose in (REGISTER, BIND):
        if purpose == BIND and user is None:
            raise DomainError(ErrorCode.LOGIN_REQUIRED)
        if owner is not None:
            raise DomainError(ErrorCode.ACCOUNT_EXISTS if purpose == REGISTER else ErrorCode.ALREADY_BOUND)
    elif purpose in (FORGOT, LOGIN):
        if owner is None:
            raise DomainError(ErrorCode.ACCOUNT_NOT_FOUND)
    elif purpose == PAY_PASSWORD:
        if user is None:
            raise DomainError(ErrorCode.LOGIN_REQUIRED)
        if owner is None or owner.id != user.id:
            raise DomainError(ErrorCode.CODE_TARGET_NOT_OWN)


async def _send(kind: Literal["email", "mobile"], body: SendCodeIn, svc: Svc, lang: str, user: User | None) -> Any:
    to = body.to
    if not to and body.type == PAY_PASSWORD and user is not None:
        to = (user.email if kind == "email" else user.mobile) or ""
    to = check_account(kind, to)
    country_code = await _country_code(kind, body, to, user)
    await _check_target(body.type, kind, to, country_code, user)
    phone = parse_phone(to, country_code) if kind == "mobile" else None  # PHONE_INVALID before any window is taken
    target = code_target(kind, to, country_code)
    await svc.codes.reserve_send(target)
    code = await svc.codes.create(body.type, target)
    try:
        await svc.outbox.send_code(to=to, channel=kind, purpose=body.type, code=code, lang=lang, phone=phone)
    except DomainError:  # the country's ceiling: nothing was sent, so the number may ask again
        await svc.codes.release_send(target)
        raise
    return envelope(None, translate(CODE_SENT, lang))


@router.post("/send_email")
async def send_email(body: SendCodeIn, svc: Svc, lang: Lang, user: OptionalUser) -> Any:
    """Send a code to an e-mail address."""
    return await _send("email", body, svc, lang, user)


@router.post("/send_sms")
async def send_sms(body: SendCodeIn, svc: Svc, lang: Lang, user: OptionalUser) -> Any:
    """Send a code to a phone number (``area_id`` picks the country)."""
    return await _send("mobile", body, svc, lang, user)
