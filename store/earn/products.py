"""The operator's side of the four earn products (``exchange products``): their fields, creating and
editing them from ``key=value`` texts, opening and closing them, and listing their orders.

Orders copy a product's terms when they are made, so an edit changes later orders only. A sale's or
a listing's price and supply are what its subscriptions and applications are allocated against:
they are fixed once someone has subscribed or applied, and nothing but the texts changes once it
is allocated. Every refusal is a ValueError (or LookupError) whose text the command shows.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from tortoise.models import Model

from store.models import (
    AccountType,
    Currency,
    ListingApplication,
    ListingProject,
    LockOrder,
    LockProduct,
    MiningOrder,
    MiningProduct,
    SaleSubscription,
    TokenSale,
)

TEXT, INT, AMOUNT, CURRENCY, TIME, BOOL = "text", "int", "amount", "currency", "time", "bool"
RELATIVE = re.compile(r"^([+-])(\d{1,6})([dhm])$")
UNIT_MS = {"d": 86_400_000, "h": 3_600_000, "m": 60_000}
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


@dataclass(frozen=True)
class Field:
    name: str
    kind: str
    required: bool = False
    fixed: bool = False  # a sale's or listing's term, fixed once someone subscribed or applied


@dataclass(frozen=True)
class Kind:
    name: str
    model: type[Model]
    fields: tuple[Field, ...]
    orders: type[Model]
    order_key: str  # the orders' foreign key to the product
    defaults: dict[str, Any]

    def field(self, name: str) -> Field:
        for found in self.fields:
            if found.name == name:
                return found
        raise ValueError(f"{self.name} products have no field {name!r}: {', '.join(f.name for f in self.fields)}")


KINDS = {
    "lock": Kind("lock", LockProduct, (
        Field("name", TEXT, True), Field("currency", CURRENCY, True), Field("limit_days", INT, True),
        Field("display_rate", AMOUNT, True), Field("limit_number", AMOUNT, True), Field("quota_lots", INT),
        Field("open", BOOL), Field("sort", INT)), LockOrder, "product_id", {}),
    "mining": Kind("mining", MiningProduct, (
        Field("title", TEXT, True), Field("logo", TEXT), Field("rate_min", AMOUNT, True),
        Field("rate_max", AMOUNT, True), Field("zhouqi", INT, True), Field("mins", AMOUNT, True),
        Field("maxs", AMOUNT, True), Field("penalty_rate", AMOUNT), Field("status", INT), Field("sort", INT)),
        MiningOrder, "product_id", {}),
    "sale": Kind("sale", TokenSale, (
        Field("title", TEXT, True), Field("logo", TEXT), Field("desc", TEXT),
        Field("huodong", CURRENCY, True, True), Field("jieshou", CURRENCY, False, True),
        Field("rengou", AMOUNT, True, True), Field("total", AMOUNT, True, True), Field("per_user_max", AMOUNT),
        Field("btime", TIME, True), Field("etime", TIME, True), Field("sort", INT)),
        SaleSubscription, "sale_id", {"jieshou": "USDT"}),
    "listing": Kind("listing", ListingProject, (
        Field("title", TEXT, True), Field("desc", TEXT), Field("bizhong", CURRENCY, True, True),
        Field("price", AMOUNT, True, True), Field("total", AMOUNT, True, True), Field("shengyu", AMOUNT, False, True),
        Field("btime", TIME, True), Field("etime", TIME, True), Field("online", TIME, True),
        Field("lock_days", INT), Field("sort", INT)), ListingApplication, "project_id", {}),
}  # fmt: skip
TEXTS = ("title", "name", "logo", "desc", "sort")  # what may change after a sale or listing is allocated


def kind_of(name: str) -> Kind:
    if name not in KINDS:
        raise ValueError(f"unknown product kind {name!r}: {', '.join(KINDS)}")
    return KINDS[name]


def now_ms() -> int:
    return int(time.time() * 1000)


def parse_time(text: str, now: int) -> int:
    """``now``, ``+3d`` / ``-2h`` / ``+30m`` from now, a UTC date or time (``2026-12-01``,
    ``2026-12-01T08:00``) or ms since the epoch."""
    text = text.strip()
    if text == "now":
        return now
    if found := RELATIVE.match(text):
        sign, count, unit = found.groups()
        return now + (-1 if sign == "-" else 1) * int(count) * UNIT_MS[unit]
    if text.isdigit():
        return int(text)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as exc:
        raise ValueError(f"{text!r} is not a time: give now, +3d, -2h, 2026-12-01, 2026-12-01T08:00 (UTC)") from exc
    return int((moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp() * 1000)


async def parse_value(field: Field, text: str, now: int) -> Any:
    """One ``key=value``'s value as the column wants it; ValueError saying what it takes."""
    if field.kind == TEXT:
        return text
    if field.kind == TIME:
        return parse_time(text, now)
    if field.kind == BOOL:
        if text.strip().lower() not in TRUE + FALSE:
            raise ValueError(f"{field.name} takes true or false, not {text!r}")
        return text.strip().lower() in TRUE
    if field.kind == INT:
        if not text.strip().isdigit():
            raise ValueError(f"{field.name} takes a whole number >= 0, not {text!r}")
        return int(text)
    if field.kind == CURRENCY:
        coin = await Currency.get_or_none(code=text.strip().upper())
        if coin is None:
            raise LookupError(f"unknown currency {text!r}")
        if str(int(AccountType.FINANCIAL)) not in coin.account_types.split(","):
            raise ValueError(f"{coin.code} cannot be held in the financial account")
        return coin
    try:
        value = Decimal(text.strip())
    except InvalidOperation as exc:
        raise ValueError(f"{field.name} takes a number, not {text!r}") from exc
    if not value.is_finite() or value < 0:
        raise ValueError(f"{field.name} takes a number >= 0, not {text!r}")
    return value


async def parse_values(kind: Kind, pairs: list[str], now: int) -> dict[str, Any]:
    """``["rengou=0.05", "etime=+7d"]`` -> the values by field name."""
    found: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep:
            raise ValueError(f"{pair!r} is not key=value")
        found[key.strip()] = await parse_value(kind.field(key.strip()), text, now)
    return found


def _positive(values: dict[str, Any], *names: str) -> None:
    for name in names:
        if values[name] <= 0:
            raise ValueError(f"{name} must be above 0")


def _check_lock(v: dict[str, Any]) -> None:
    _positive(v, "limit_days", "limit_number")


def _check_mining(v: dict[str, Any]) -> None:
    _positive(v, "zhouqi", "mins")
    if v["rate_min"] > v["rate_max"] or v["mins"] > v["maxs"]:
        raise ValueError("rate_min must be at most rate_max, and mins at most maxs")
    if v["status"] not in (0, 1, 2):
        raise ValueError("status is 0 (not started), 1 (in progress) or 2 (ended)")


def _check_sale(v: dict[str, Any]) -> None:
    _positive(v, "rengou", "total")
    if v["btime"] >= v["etime"]:
        raise ValueError("btime must be before etime")
    if v["huodong"].id == v["jieshou"].id:
        raise ValueError("the token sold (huodong) and the accepted asset (jieshou) must differ")


def _check_listing(v: dict[str, Any]) -> None:
    _positive(v, "price", "shengyu", "lock_days")
    if v["shengyu"] > v["total"]:
        raise ValueError("shengyu (tokens for applicants) can be at most total")
    if not v["btime"] < v["etime"] <= v["online"]:
        raise ValueError("btime must be before etime, and online not before etime")


CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "lock": _check_lock, "mining": _check_mining, "sale": _check_sale, "listing": _check_listing}  # fmt: skip


async def _current(kind: Kind, row: Model) -> dict[str, Any]:
    """The row's fields as ``parse_values`` gives them (currencies fetched)."""
    found = {}
    for field in kind.fields:
        found[field.name] = await getattr(row, field.name) if field.kind == CURRENCY else getattr(row, field.name)
    return found


async def create(kind_name: str, pairs: list[str], now: int | None = None) -> Model:
    """A new product of ``kind_name`` from ``key=value`` texts (its required fields all given)."""
    kind = kind_of(kind_name)
    now = now_ms() if now is None else now
    given = await parse_values(kind, [f"{k}={v}" for k, v in kind.defaults.items()] + pairs, now)
    missing = [f.name for f in kind.fields if f.required and f.name not in given]
    if missing:
        raise ValueError(f"a {kind.name} product needs {', '.join(missing)}")
    values = {**_model_defaults(kind), **given}
    if kind.name == "listing":
        values.setdefault("shengyu", values["total"])
        values["status"] = int(values["btime"] <= now)
    CHECKS[kind.name](values)
    return await kind.model.create(**values)


def _model_defaults(kind: Kind) -> dict[str, Any]:
    """The column defaults of the optional fields, so the checks see every field."""
    found = {}
    for field in kind.fields:
        column = kind.model._meta.fields_map.get(field.name)
        default = getattr(column, "default", None)
        if not field.required and default is not None and not callable(default):
            found[field.name] = default
    return found


async def get(kind_name: str, product_id: int) -> Model:
    kind = kind_of(kind_name)
    row = await kind.model.get_or_none(id=product_id)
    if row is None:
        raise LookupError(f"no {kind.name} product {product_id}")
    return row


async def _has_orders(kind: Kind, row: Model) -> bool:
    return await kind.orders.filter(**{kind.order_key: row.pk}).exists()


async def edit(kind_name: str, product_id: int, pairs: list[str], now: int | None = None) -> Model:
    """Change a product's fields. Lock and mining terms reach only orders made after (each order has
    its own copy). A sale's or listing's token, price and supply are fixed once it has orders, and only
    its texts change once it is allocated."""
    kind, row = kind_of(kind_name), await get(kind_name, product_id)
    changes = await parse_values(kind, pairs, now_ms() if now is None else now)
    if kind.name in ("sale", "listing"):
        if getattr(row, "allocated_at", None) is not None and set(changes) - set(TEXTS):
            raise ValueError(f"{kind.name} {product_id} is allocated: only {', '.join(TEXTS)} can change")
        fixed = [k for k in changes if kind.field(k).fixed]
        if fixed and await _has_orders(kind, row):
            raise ValueError(f"{kind.name} {product_id} has orders: {', '.join(fixed)} can no longer change")
    values = {**await _current(kind, row), **changes}
    CHECKS[kind.name](values)
    if changes:
        await kind.model.filter(id=product_id).update(**changes)
    return await get(kind_name, product_id)


async def set_open(kind_name: str, product_id: int, opened: bool, now: int | None = None) -> str:
    """Open or close a product; what was done. Lock: its ``open`` flag; mining: status 1 or 2 (orders
    run on to their end either way); a sale or listing: its start (open) or end (close) moved to now
    (the Scheduler's sweep then allocates a closed one)."""
    kind, row = kind_of(kind_name), await get(kind_name, product_id)
    now = now_ms() if now is None else now
    if kind.name == "lock":
        await LockProduct.filter(id=product_id).update(open=opened)
        return "open for new locks" if opened else "closed to new locks"
    if kind.name == "mining":
        await MiningProduct.filter(id=product_id).update(status=1 if opened else 2)
        return "in progress (status 1)" if opened else "ended (status 2): active orders run to their end"
    btime, etime = row.btime, row.etime  # type: ignore[attr-defined]
    if getattr(row, "allocated_at", None) is not None or etime <= now:
        raise ValueError(f"{kind.name} {product_id} has ended")
    if opened:
        if btime <= now:
            return "already open"
        await kind.model.filter(id=product_id).update(btime=now)
        return "open from now"
    await kind.model.filter(id=product_id).update(etime=now)
    return "ended now: the Scheduler allocates it within a pass"


async def listed(kind_name: str) -> list[Model]:
    kind = kind_of(kind_name)
    return await kind.model.all().order_by("id")


async def orders(kind_name: str, product_id: int, limit: int) -> list[Model]:
    """The product's orders (lock and mining orders, subscriptions, applications), newest first, with
    their user fetched."""
    kind = kind_of(kind_name)
    await get(kind_name, product_id)
    query = kind.orders.filter(**{kind.order_key: product_id})
    return await query.order_by("-id").limit(limit).prefetch_related("user")
