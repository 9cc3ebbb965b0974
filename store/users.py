"""User look-ups and writes shared by the access routes and the CLI."""

from __future__ import annotations

import math
import secrets
import string
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError

from store.db import column
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, Area, RealName, ReviewStatus, SiteSetting, User

INVITE_ALPHABET = string.ascii_uppercase + string.digits
# Site settings that show parts of the account page (spec: the invite code, the authorization code);
# the console edits them, and only "0" hides.
PROFILE_SWITCHES = ("show_code", "show_auth")


async def find_by_account(kind: Literal["email", "mobile"], account: str, country_code: str = "") -> User | None:
    """The user an e-mail or phone number names. A phone without a country code matches only if unique."""
    if kind == "email":
        return await User.get_or_none(email=account.lower())
    query = User.filter(mobile=account)
    if country_code:
        query = query.filter(country_code=country_code)
    found = await query.limit(2)
    return found[0] if len(found) == 1 else None


async def find_by_contact(account: str) -> User | None:
    """The user an e-mail or bare phone number names (for send-code targets)."""
    return await find_by_account("email" if "@" in account else "mobile", account)


async def area(area_id: int | None) -> Area | None:
    return await Area.get_or_none(id=area_id) if area_id is not None and 0 < area_id <= INT_MAX else None


async def house_ids() -> list[int]:
    """The house's own trading accounts (the market maker's bots, ``is_bot``)."""
    return await column(User.filter(is_bot=True).values_list("id", flat=True))


def new_invite_code() -> str:
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(8))


async def create_user(
    *,
    kind: Literal["email", "mobile"],
    account: str,
    password_hash: str,
    area: Area | None,
    parent: User | None,
) -> User:
    """Insert a user with a fresh invite code. Raises ACCOUNT_EXISTS if the account is taken."""
    fields: dict[str, Any] = {"email": account} if kind == "email" else {"mobile": account}
    if area is not None:
        fields["area_id"] = area.id
        fields["country_code"] = area.global_code
    for _ in range(5):
        try:
            return await User.create(
                password_hash=password_hash, parent=parent, invite_code=new_invite_code(), **fields
            )
        except IntegrityError as exc:
            if await find_by_account(kind, account, str(fields.get("country_code") or "")):
                raise DomainError(ErrorCode.ACCOUNT_EXISTS) from exc
            # Otherwise the random invite code collided: draw again.
    raise DomainError(ErrorCode.INTERNAL)


def security_level(user: User) -> int:
    """25 to start, +25 each for a bound phone, a bound e-mail and a deal password."""
    return 25 + 25 * sum(bool(x) for x in (user.mobile, user.email, user.pay_password_hash))


async def profile_switches() -> dict[str, int]:
    """show_code and show_auth as user/info answers them: 1 unless an operator set the setting to "0"."""
    stored = dict(await SiteSetting.filter(key__in=PROFILE_SWITCHES).values_list("key", "value"))
    return {key: 0 if stored.get(key) == "0" else 1 for key in PROFILE_SWITCHES}


def security_changed(user: User) -> list[str]:
    """Stamp a security change (contact bound, deal or login password set) on ``user``; answers the
    fields to save with the change itself, so both land in one write."""
    user.security_changed_at = datetime.now(UTC)
    return ["security_changed_at"]


def check_withdrawals_open(user: User, cooldown_hours: float) -> None:
    """Refuse withdrawals of a user an operator froze (WITHDRAWALS_FROZEN), or within ``cooldown_hours`` of
    the user's last security change (SECURITY_COOLDOWN, saying when they open): a stolen session that
    rebinds the account cannot empty it at once."""
    if user.withdraw_frozen:
        raise DomainError(ErrorCode.WITHDRAWALS_FROZEN)
    changed = user.security_changed_at
    if changed is None:
        return
    opens = changed + timedelta(hours=cooldown_hours)
    if opens > datetime.now(UTC):
        # Rounded up to the minute shown, so the stated time is never before the real one.
        shown = datetime.fromtimestamp(math.ceil(opens.timestamp() / 60) * 60, UTC)
        hours = f"{cooldown_hours:g}"
        raise DomainError(ErrorCode.SECURITY_COOLDOWN, hours=hours, opens=shown.strftime("%Y-%m-%d %H:%M"))


async def review_real_name(
    user_id: int, approve: bool, reason: str = "", conn: BaseDBAsyncClient | None = None
) -> bool:
    """Decide a real-name submission under review: approved, or back to not submitted (the user may
    submit again) with ``reason``. False when there is none under review."""
    query = RealName.filter(user_id=user_id, review_status=ReviewStatus.UNDER_REVIEW)
    target = ReviewStatus.APPROVED if approve else ReviewStatus.NOT_SUBMITTED
    updated = await (query.using_db(conn) if conn else query).update(
        review_status=target, reject_reason="" if approve else reason[:255]
    )
    return bool(updated)
