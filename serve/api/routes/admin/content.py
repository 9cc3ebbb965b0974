"""The console's content (issue 16, the content role): notices and news (their HTML sanitised on save
through nh3's allow-list, so a notice can never carry a script to users' browsers) and the site
settings the shell reads. Every change writes its audit row in the change's transaction."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any
from urllib.parse import urlsplit

import nh3
from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict, Field

from config.settings import Settings
from serve.api.deps import Svc
from serve.api.routes.admin import fields
from serve.api.routes.admin.auth import Console, role
from serve.api.routes.news import news_public
from serve.emails import normal_email
from serve.errors import envelope
from store import users
from store.admin import approvals, audit
from store.db import transaction
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, News, NewsCategory, SiteSetting
from store.money import money
from store.p2p import rules
from store.prices import CNY_RATE_KEY, CNY_RATE_MAX, CNY_RATE_MIN, CNY_RATE_PLACES

router = APIRouter(tags=["back office"])
Content = Annotated[Console, Depends(role("content"))]
# The settings the console edits, each with what a valid value is.
SETTINGS = {
    "kefu": "a support link (https://…) or empty",
    "tips": "a line of text",
    "login_use_sms": "0 or 1",
    "contact_mobile": "a phone number",
    "contact_email": "an e-mail address",
    "usd_cny_rate": f"a number from {money(CNY_RATE_MIN)} to {money(CNY_RATE_MAX)}",
    "micro_open": "0 or 1",
    "show_code": "0 or 1: the account page shows the invite code (1 when not set)",
    "show_auth": "0 or 1: the account page shows the authorization code (1 when not set)",
    "app_download_ios": "the App Store link of the app (https://…) or empty: the home page hides it when empty",
    "app_download_android": "the Google Play link of the app (https://…) or empty: the home page hides it when empty",
    # The two-operator rules' thresholds (store.admin.approvals): lowered here, never above the deployment's.
    approvals.WITHDRAWAL_KEY: "USD: a user's withdrawals in 24 h from this much need two operators; at most {ceiling}",
    approvals.CREDIT_KEY: "USD: a manual credit above this much needs two operators; at most {ceiling}",
    approvals.AUTO_KEY: "USD: a user's withdrawals in 24 h under this much are approved with no operator (0: never); "
    "at most {ceiling}",
    rules.UNPAID_SETTING: f"a whole number from 1 to {rules.UNPAID_MAX_TOP}: the P2P orders a taker may have "
    f"waiting for payment at once ({rules.UNPAID_MAX} when not set)",
}
SWITCHES = ("login_use_sms", "micro_open", *users.PROFILE_SWITCHES)
LINKS = ("kefu", "app_download_ios", "app_download_android")  # shown to users as links: https or nothing
LINK_REL = "noopener noreferrer"
CONTACT_EMAIL_MAX = 254  # the longest address a mail server takes (RFC 5321 path limit less its brackets)


def clean_html(html: str) -> str:
    """The notice's HTML with only nh3's safe tags and attributes (no scripts, handlers or javascript:)."""
    return nh3.clean(html, link_rel=LINK_REL)


class NewsIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: int | None = Field(default=None, ge=1, le=INT_MAX, description="the notice to edit; none adds one")
    category_id: int = Field(ge=1, le=INT_MAX)
    title: str = Field(min_length=1, max_length=200)
    content: str = Field(default="", max_length=100_000, description="HTML, sanitised on save")
    banner: str = Field(default="", max_length=255)
    sort: int = Field(default=0, ge=-1000, le=1000)


class NewsDeleteIn(BaseModel):
    id: int = Field(ge=1, le=INT_MAX)


class SettingIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    key: str = Field(max_length=64)
    value: str = Field(default="", max_length=2000)


def _https_link(value: str) -> bool:
    """An absolute https URL with a host and no spaces: what the shell may put in a link's href."""
    try:
        parts = urlsplit(value)
        port_ok = parts.port != 0  # reading the port raises on one out of range
        return parts.scheme == "https" and bool(parts.hostname) and port_ok and not any(c.isspace() for c in value)
    except ValueError:  # a malformed host (an unclosed IPv6 bracket, a bad port)
        return False


def _valid(key: str, value: str, settings: Settings) -> str:
    """The value as stored, or BAD_REQUEST when it does not fit the setting (naming the setting: a
    number out of its range ADMIN_NUMBER_RANGE or ADMIN_NUMBER_PLACES, a switch not 0 or 1
    SETTING_SWITCH, a link not https SETTING_LINK)."""
    value = value.strip()
    if key not in SETTINGS:
        raise DomainError(ErrorCode.SETTING_UNKNOWN)
    ok = True
    if key in SWITCHES:
        if value not in ("0", "1"):
            raise DomainError(ErrorCode.SETTING_SWITCH, field=key)
    elif key == CNY_RATE_KEY:
        return money(fields.number(key, value, low=CNY_RATE_MIN, high=CNY_RATE_MAX, places=CNY_RATE_PLACES))
    elif key in approvals.THRESHOLDS:  # empty: the deployment's own
        high = approvals.ceiling(settings, key)
        return money(fields.number(key, value, high=high, places=approvals.PLACES)) if value else ""
    elif key in LINKS:
        if value and not _https_link(value):
            raise DomainError(ErrorCode.SETTING_LINK, field=key)
    elif key == "contact_email":
        ok = normal_email(value, max_length=CONTACT_EMAIL_MAX) is not None
    elif key == rules.UNPAID_SETTING:
        ok = rules.unpaid_max(value) is not None
    if not ok:
        raise DomainError(ErrorCode.BAD_REQUEST)
    return value


@router.get("/news")
async def news_list(console: Content, category_id: Annotated[int, Query(ge=0, le=INT_MAX)] = 0) -> Any:
    """Every notice (of one category, or all), newest first, with its content."""
    query = News.filter(category_id=category_id) if category_id else News.all()
    rows = await query.order_by("-created_at", "-id").limit(500)
    return envelope([{**news_public(r, with_content=True), "sort": r.sort} for r in rows])


@router.post("/news/save")
async def news_save(body: NewsIn, console: Content) -> Any:
    """Add a notice or edit one; its HTML is sanitised before it is stored."""
    if not await NewsCategory.exists(id=body.category_id):
        raise DomainError(ErrorCode.NOT_FOUND)
    fields = {"category_id": body.category_id, "title": body.title.strip(), "content": clean_html(body.content),
              "banner": body.banner.strip(), "sort": body.sort}  # fmt: skip
    async with transaction() as conn:
        if body.id is None:
            row = await News.create(**fields, created_at=datetime.now(UTC), using_db=conn)
            before = None
        else:
            found = await News.filter(id=body.id).select_for_update().using_db(conn).first()
            if found is None:
                raise DomainError(ErrorCode.NOT_FOUND)
            row = found
            before = {k: getattr(row, k) for k in ("title", "content", "banner", "sort")}
            await row.update_from_dict(fields).save(using_db=conn)
        after = {k: fields[k] for k in ("title", "content", "banner", "sort")}
        await audit.record(console.actor("content"), "news.add" if body.id is None else "news.edit", f"news:{row.id}",
                           before=before, after=after, conn=conn)  # fmt: skip
    return envelope({**news_public(row, with_content=True), "sort": row.sort})


@router.post("/news/delete")
async def news_delete(body: NewsDeleteIn, console: Content) -> Any:
    async with transaction() as conn:
        row = await News.filter(id=body.id).using_db(conn).first()
        if row is None:
            raise DomainError(ErrorCode.NOT_FOUND)
        before = {"title": row.title, "category_id": row.category_id}
        await row.delete(using_db=conn)
        await audit.record(console.actor("content"), "news.delete", f"news:{body.id}", before=before, conn=conn)
    return envelope({"id": body.id})


@router.get("/settings")
async def settings_list(console: Content, svc: Svc) -> Any:
    """The site settings the console edits, with what each takes (a threshold: the one in force)."""
    stored = dict(await SiteSetting.filter(key__in=list(SETTINGS)).values_list("key", "value"))
    rows = []
    for key, takes in SETTINGS.items():
        value = stored.get(key, "")
        if key in approvals.THRESHOLDS:
            high = approvals.ceiling(svc.settings, key)
            value, takes = money(approvals.effective(value, high)), takes.format(ceiling=money(high))
        rows.append({"key": key, "value": value, "takes": takes})
    return envelope(rows)


@router.post("/settings/save")
async def settings_save(body: SettingIn, console: Content, svc: Svc) -> Any:
    """Change one setting (the shell and the API read it at once)."""
    value = _valid(body.key, body.value, svc.settings)
    async with transaction() as conn:
        row = await SiteSetting.filter(key=body.key).using_db(conn).first()
        before = row.value if row else None
        await SiteSetting.update_or_create(key=body.key, defaults={"value": value}, using_db=conn)
        await audit.record(console.actor("content"), "setting.edit", f"setting:{body.key}", before={"value": before},
                           after={"value": value}, conn=conn)  # fmt: skip
    return envelope({"key": body.key, "value": value})
