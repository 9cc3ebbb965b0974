"""walletMiddle: the separate service of spec §7 that reads and binds withdrawal addresses, deployed as
its own Serve application under ``/walletMiddle/``.

- ``GetDrawAddress`` (user_id, coin_name, contract_address): the user's bound addresses of that coin;
- ``SendVerificationcode`` (user_id): a code (type 7) to the user's own e-mail, else phone;
- ``BindDrawAddress``: form fields ``data`` (JSON: user_id, address, coin_name, contract_address,
  verificationcode, t) and ``sign`` = MD5(data + salt). A wrong sign or a timestamp further than
  ``wallet_middle_max_skew_seconds`` from now is refused (403); the code is burnt on use, so a
  replayed request fails too.
Every call also needs the session token, and ``user_id`` must be the session's user.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from tortoise.exceptions import IntegrityError

from config.settings import Settings
from serve.api.deps import CurrentUser, Lang, Svc, client_ip
from serve.api.forms import read_fields
from serve.api.routes.draw import ADDRESS_BOUND, addr_public, address_ok
from serve.app import include_flat, lifespan_for
from serve.errors import envelope, install_error_handlers
from serve.i18n import N_, translate
from store.errors import DomainError, ErrorCode
from store.models import Currency, CurrencyProtocol, User, WithdrawAddress
from store.sms.phones import parse_phone

ROUTE_PREFIX = "/walletMiddle"
DRAW_ADDRESS_CODE = 7  # code type: binding a withdrawal address through walletMiddle
CODE_SENT = N_("The verification code has been sent")

router = APIRouter(tags=["walletMiddle"])


def sign_of(data: str, salt: str) -> str:
    """The signature the client sends: MD5 hex digest of ``data`` followed by the salt."""
    return hashlib.md5((data + salt).encode()).hexdigest()  # noqa: S324 - the spec's scheme, not a password


def check_signed(data: str, sign: str, settings: Settings, now: float | None = None) -> dict[str, Any]:
    """The decoded ``data`` of a correctly signed, fresh request; raises SIGN_INVALID or REQUEST_EXPIRED."""
    expected = sign_of(data, settings.wallet_middle_salt)
    if not sign or not hmac.compare_digest(expected.encode(), sign.strip().lower().encode(errors="replace")):
        raise DomainError(ErrorCode.SIGN_INVALID)
    try:
        payload = json.loads(data)
    except ValueError as exc:
        raise DomainError(ErrorCode.SIGN_INVALID) from exc
    if not isinstance(payload, dict):
        raise DomainError(ErrorCode.SIGN_INVALID)
    stamp = str(payload.get("t", "")).strip()
    if not stamp.isdigit() or len(stamp) > 16:
        raise DomainError(ErrorCode.REQUEST_EXPIRED)
    seconds = int(stamp) / 1000 if len(stamp) >= 13 else int(stamp)  # spec: under 13 digits is seconds
    if abs((now if now is not None else time.time()) - seconds) > settings.wallet_middle_max_skew_seconds:
        raise DomainError(ErrorCode.REQUEST_EXPIRED)
    return payload


def _own(user: User, user_id: object) -> None:
    if str(user_id).strip() != str(user.id):
        raise DomainError(ErrorCode.NOT_YOUR_ACCOUNT)


async def _protocol(coin_name: str, contract_address: str) -> CurrencyProtocol:
    currency = await Currency.get_or_none(code=coin_name.strip().upper()[:16])
    if currency is None:
        raise DomainError(ErrorCode.CURRENCY_NOT_FOUND)
    protocols = await CurrencyProtocol.filter(currency_id=currency.id).order_by("sort", "id")
    contract = contract_address.strip().lower()
    chosen = [p for p in protocols if p.token_address.lower() == contract] if contract else protocols[:1]
    if not chosen:
        raise DomainError(ErrorCode.PROTOCOL_NOT_FOUND)
    return chosen[0]


@router.api_route("/GetDrawAddress", methods=["GET", "POST"])
async def get_draw_address(request: Request, user: CurrentUser) -> Any:
    """The user's bound withdrawal addresses of a coin (and contract, when given); newest first."""
    fields = await read_fields(request)
    _own(user, fields.get("user_id", ""))
    protocol = await _protocol(fields.get("coin_name", ""), fields.get("contract_address", ""))
    query = WithdrawAddress.filter(user_id=user.id, currency_protocol_id=protocol.id)
    rows = await query.order_by("-id").prefetch_related("currency", "currency_protocol")
    listed = [addr_public(r) for r in rows]
    return envelope({"address": listed[0]["address"] if listed else "", "addresses": listed})


@router.post("/SendVerificationcode")
async def send_verification_code(request: Request, user: CurrentUser, svc: Svc, lang: Lang) -> Any:
    """Send a code (type 7) to the user's own e-mail, or phone when no e-mail is bound."""
    fields = await read_fields(request)
    _own(user, fields.get("user_id", ""))
    target, channel = (user.email, "email") if user.email else (user.mobile, "mobile")
    if not target:
        raise DomainError(ErrorCode.PAY_PASSWORD_TARGET_MISSING)
    phone = parse_phone(target, user.country_code or "") if channel == "mobile" else None
    await svc.codes.reserve_send(target)
    code = await svc.codes.create(DRAW_ADDRESS_CODE, target)
    try:
        await svc.outbox.send_code(to=target, channel=channel, purpose=DRAW_ADDRESS_CODE, code=code, lang=lang,
                                   phone=phone)  # fmt: skip
    except DomainError:  # the country's ceiling: nothing was sent
        await svc.codes.release_send(target)
        raise
    return envelope(None, translate(CODE_SENT, lang))


@router.post("/BindDrawAddress")
async def bind_draw_address(request: Request, user: CurrentUser, svc: Svc, lang: Lang) -> Any:
    """Bind a withdrawal address from a signed form (``data`` + ``sign``) with a type-7 code."""
    fields = await read_fields(request)
    payload = check_signed(fields.get("data", ""), fields.get("sign", ""), svc.settings)
    _own(user, payload.get("user_id", ""))
    address = str(payload.get("address", "")).strip()
    if not address:
        raise DomainError(ErrorCode.ADDRESS_REQUIRED_BIND)
    protocol = await _protocol(str(payload.get("coin_name", "")), str(payload.get("contract_address", "")))
    if not address_ok(svc.settings, protocol.chain_protocol, address):
        raise DomainError(ErrorCode.ADDRESS_INVALID)
    code = str(payload.get("verificationcode", "")).strip()
    target = user.email or user.mobile or ""
    if not code or len(code) > 16 or not target:
        raise DomainError(ErrorCode.CODE_INVALID)
    await svc.codes.consume(DRAW_ADDRESS_CODE, target, code, ip=client_ip(request))
    try:
        row, _ = await WithdrawAddress.get_or_create(user_id=user.id, currency_id=protocol.currency_id,
                                                     currency_protocol_id=protocol.id, address=address)  # fmt: skip
    except IntegrityError:  # the same address bound concurrently
        row = await WithdrawAddress.get(user_id=user.id, currency_protocol_id=protocol.id, address=address)
    await row.fetch_related("currency", "currency_protocol")
    return envelope(addr_public(row), translate(ADDRESS_BOUND, lang))


def create_wallet_middle_app(settings: Settings) -> FastAPI:
    app = FastAPI(title="walletMiddle", version="0.1.0", openapi_url="/openapi.json", docs_url=None,
                  redoc_url=None, lifespan=lifespan_for(settings))  # fmt: skip
    install_error_handlers(app)
    include_flat(app, router, "")
    return app
