"""Account access: register, login, logout, the user's info, passwords and bindings."""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Request
from tortoise.exceptions import IntegrityError

from serve.api.deps import CurrentUser, Lang, SingleFlight, Svc, Token, check_password, client_ip
from serve.api.routes.notify import BIND, FORGOT, LOGIN, PAY_PASSWORD, REGISTER
from serve.api.schemas import (
    AmendPasswordIn,
    AmendPayPasswordIn,
    BindAccountIn,
    ForgetPasswordIn,
    LoginIn,
    RegisterIn,
    fail,
)
from serve.errors import envelope
from serve.i18n import N_, translate
from serve.security import code_target, hash_password, verify_password
from store import users
from store.errors import DomainError, ErrorCode
from store.models import SiteSetting, User

router = APIRouter(prefix="/user", tags=["user"])

REGISTERED = N_("Registered successfully")
LOGGED_IN = N_("Logged in successfully")
LOGGED_OUT = N_("Logged out")
PASSWORD_CHANGED = N_("Password changed, please log in again")
PASSWORD_RESET = N_("Password reset, please log in")
PAY_PASSWORD_SET = N_("Deal password set")
BOUND = N_("Bound successfully")
INVITE_RE = re.compile(r"^[A-Z0-9]{1,16}$")  # users.invite_code: at most 16, upper-cased by the form


def user_public(user: User, switches: dict[str, int]) -> dict[str, Any]:
    """The profile of spec §3; ``switches`` are show_code and show_auth (store.users.profile_switches)."""
    return {
        "id": user.id,
        "email": user.email or "",
        "mobile": user.mobile or "",
        "country_code": user.country_code or "",
        "area_id": user.area_id,
        "is_seller": int(user.is_seller),
        "is_set": int(user.pay_password_hash is not None),
        "invite_code": user.invite_code,
        **switches,
        "security_level": users.security_level(user),
        "created_at": user.created_at.isoformat(),
    }


@router.post("/register")
async def register(body: RegisterIn, request: Request, svc: Svc, lang: Lang) -> Any:
    """Create an account from an e-mail or phone number and a type-1 code."""
    area = await users.area(body.area_id)
    if body.area_id is not None and area is None or body.type == "mobile" and area is None:
        raise DomainError(ErrorCode.AREA_INVALID)
    if await users.find_by_account(body.type, body.account, area.global_code if area else ""):
        raise DomainError(ErrorCode.ACCOUNT_EXISTS)
    parent = None
    if body.invite_code:
        # Checked for shape first: a lookup with a value longer than the column is an ORM error (a 500).
        parent = await User.get_or_none(invite_code=body.invite_code) if INVITE_RE.match(body.invite_code) else None
        if parent is None:
            raise DomainError(ErrorCode.INVITE_CODE_INVALID)
    elif svc.settings.invite_code_required:
        raise DomainError(ErrorCode.INVITE_CODE_REQUIRED)
    target = code_target(body.type, body.account, area.global_code if area else "")
    await svc.codes.consume(REGISTER, target, body.sms_code, ip=client_ip(request))
    user = await users.create_user(
        kind=body.type,
        account=body.account,
        password_hash=await hash_password(body.password),
        area=area,
        parent=parent,
    )
    return envelope({"id": user.id}, translate(REGISTERED, lang))


def login_throttle_key(kind: str, account: str, user: User | None) -> str:
    """Failures count per account: per user once the account is known, so varying the country code
    (ignored for e-mail, optional for a unique phone) does not start a fresh count."""
    return f"user:{user.id}" if user is not None else f"{kind}:{account}"


async def _sms_login_on() -> bool:
    row = await SiteSetting.get_or_none(key="login_use_sms")
    return bool(row and row.value.strip() in ("1", "true", "on"))


@router.post("/login")
async def login(body: LoginIn, request: Request, svc: Svc, lang: Lang) -> Any:
    """Exchange an account and password (and a type-5 code when login_use_sms is on) for a token."""
    assert body.login_type is not None  # set by the model's rules
    needs_code = await _sms_login_on()
    if needs_code and not body.sms_code:
        raise fail(N_("Please enter the verification code"))
    ip = client_ip(request)
    user = await users.find_by_account(body.login_type, body.account, body.country_code)
    throttle_key = login_throttle_key(body.login_type, body.account, user)
    await svc.throttle.reserve(throttle_key, ip)  # before the slow check: a wrong password keeps it
    if not await verify_password(user.password_hash if user else None, body.password) or user is None:
        raise DomainError(ErrorCode.BAD_CREDENTIALS)
    if needs_code:  # a wrong code keeps the attempt too
        await svc.codes.consume(
            LOGIN, code_target(body.login_type, body.account, user.country_code), body.sms_code, ip=ip
        )
    await svc.throttle.succeeded(throttle_key, ip)
    if user.login_frozen:  # told only with the right password: the refusal reveals nothing to a guesser
        raise DomainError(ErrorCode.ACCOUNT_FROZEN)
    token = await svc.sessions.issue(user.id)
    data = {"token": token, "uid": user.id, "account": user.email or user.mobile, "is_seller": int(user.is_seller)}
    return envelope(data, translate(LOGGED_IN, lang))


@router.get("/info")
async def info(user: CurrentUser) -> Any:
    """The logged-in user's profile."""
    return envelope(user_public(user, await users.profile_switches()))


@router.post("/logout")
async def logout(user: CurrentUser, token: Token, svc: Svc, lang: Lang) -> Any:
    """End this session; the token stops working at once."""
    await svc.sessions.revoke(token, user.id)
    return envelope(None, translate(LOGGED_OUT, lang))


@router.post("/forget_password")
async def forget_password(body: ForgetPasswordIn, request: Request, svc: Svc, lang: Lang) -> Any:
    """Reset the login password with a type-2 code; every session of the account ends. Failed resets
    (unknown account, wrong code) are limited per account and per client address (429)."""
    ip = client_ip(request)
    user = await users.find_by_account(body.type, body.account, body.country_code)
    throttle_key = login_throttle_key(body.type, body.account, user)
    await svc.reset_throttle.reserve(throttle_key, ip)  # a failure below keeps the attempt
    if user is None:
        raise DomainError(ErrorCode.ACCOUNT_NOT_FOUND)
    await svc.codes.consume(FORGOT, code_target(body.type, body.account, user.country_code), body.auth_code, ip=ip)
    await svc.reset_throttle.succeeded(throttle_key, ip)
    user.password_hash = await hash_password(body.new_password)
    await user.save(update_fields=["password_hash", "updated_at", *users.security_changed(user)])
    await svc.sessions.revoke_all(user.id)
    await svc.throttle.reset(throttle_key)
    return envelope(None, translate(PASSWORD_RESET, lang))


@router.post("/amend_password", dependencies=[SingleFlight])
async def amend_password(
    body: AmendPasswordIn, user: CurrentUser, token: Token, request: Request, svc: Svc, lang: Lang
) -> Any:
    """Change the login password; other sessions end, this one stays. Wrong old passwords count as
    failed logins of the account (the same lock, 429)."""
    key = login_throttle_key("", "", user)
    await check_password(svc, request, key, user.password_hash, body.old_password, ErrorCode.OLD_PASSWORD_WRONG)
    if body.new_password == body.old_password:
        raise DomainError(ErrorCode.PASSWORD_UNCHANGED)
    user.password_hash = await hash_password(body.new_password)
    await user.save(update_fields=["password_hash", "updated_at", *users.security_changed(user)])
    await svc.sessions.revoke_all(user.id, keep=token)
    return envelope(None, translate(PASSWORD_CHANGED, lang))


async def _confirm_login_password(svc: Svc, request: Request, user: User, password: str) -> None:
    """The login password confirms a security change. Wrong ones count as failed logins of the
    account (the same lock, 429), so a stolen session cannot guess it here either."""
    key = login_throttle_key("", "", user)
    await check_password(svc, request, key, user.password_hash, password, ErrorCode.LOGIN_PASSWORD_WRONG)


@router.post("/amend_pay_password", dependencies=[SingleFlight])
async def amend_pay_password(
    body: AmendPayPasswordIn, user: CurrentUser, request: Request, svc: Svc, lang: Lang
) -> Any:
    """Set or change the deal password with the login password and a type-3 code sent to the user's
    own e-mail or phone. Withdrawals then wait ``security_cooldown_hours``."""
    vtype = body.vtype or ("email" if user.email else "mobile")
    account = user.email if vtype == "email" else user.mobile
    if not account:
        raise DomainError(ErrorCode.PAY_PASSWORD_TARGET_MISSING)
    await _confirm_login_password(svc, request, user, body.login_password)
    target = code_target(vtype, account, user.country_code)
    await svc.codes.consume(PAY_PASSWORD, target, body.auth_code, ip=client_ip(request))
    user.pay_password_hash = await hash_password(body.password)
    await user.save(update_fields=["pay_password_hash", "updated_at", *users.security_changed(user)])
    return envelope(None, translate(PAY_PASSWORD_SET, lang))


@router.post("/bind_account", dependencies=[SingleFlight])
async def bind_account(body: BindAccountIn, user: CurrentUser, request: Request, svc: Svc, lang: Lang) -> Any:
    """Bind a phone (type 1) or e-mail (type 2) to an account that has none, with the login password
    and a type-6 code. Withdrawals then wait ``security_cooldown_hours``."""
    if (user.mobile if body.kind == "mobile" else user.email) is not None:
        raise DomainError(ErrorCode.ALREADY_BOUND)
    area = await users.area(body.area_id)
    if body.kind == "mobile" and area is None:
        raise DomainError(ErrorCode.AREA_INVALID)
    country_code = area.global_code if area else ""
    if await users.find_by_account(body.kind, body.account, country_code):
        raise DomainError(ErrorCode.ALREADY_BOUND)
    await _confirm_login_password(svc, request, user, body.login_password)
    target = code_target(body.kind, body.account, country_code)
    await svc.codes.consume(BIND, target, body.sms_code, ip=client_ip(request))
    if body.kind == "email":
        user.email = body.account
    else:
        user.mobile, user.area_id, user.country_code = body.account, area.id, area.global_code  # type: ignore[union-attr]
    try:
        fields = ["email", "mobile", "area_id", "country_code", "updated_at", *users.security_changed(user)]
        await user.save(update_fields=fields)
    except IntegrityError as exc:  # a concurrent bind of the same target won the unique index
        raise DomainError(ErrorCode.ALREADY_BOUND) from exc
    return envelope(user_public(user, await users.profile_switches()), translate(BOUND, lang))


@router.get("/authorization_code")
async def authorization_code(user: CurrentUser) -> Any:
    """The user's authorization code (made on first request, then stable), shown for copying."""
    if not user.authorization_code:
        user.authorization_code = users.new_invite_code() + users.new_invite_code()
        await user.save(update_fields=["authorization_code", "updated_at"])
    return envelope({"code": user.authorization_code})
