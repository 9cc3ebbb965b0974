"""The operator's side of the four earn products (``exchange products`` and the console's products
screen): their fields, creating and editing them from texts, opening and closing them, listing them
and their orders.

Orders copy a product's terms when they are made, so an edit changes later orders only. A sale's or
a listing's price and supply are what its subscriptions and applications are allocated against:
they are fixed once someone has subscribed or applied, and nothing but the texts changes once it
is allocated. Every refusal of a value or a change is a DomainError (PRODUCT_…) whose translated
message both the command and the console show; an unknown kind is a ValueError (the console's
schema names the kinds). Every change writes its audit row (before, after, reason) in its own
transaction, whoever makes it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model

from store.admin import audit
from store.admin.audit import Actor
from store.db import transaction
from store.earn.allocation import EXACT
from store.errors import DomainError, ErrorCode
from store.models import (
    INT_MAX,
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
from store.money import money
from store.times import now_ms

TEXT, INT, AMOUNT, CURRENCY, TIME, BOOL = "text", "int", "amount", "currency", "time", "bool"
RELATIVE = re.compile(r"([+-])(\d{1,6})([dhm])", re.ASCII)
UNIT_MS = {"d": 86_400_000, "h": 3_600_000, "m": 60_000}
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d{1,4})?", re.ASCII)
DIGITS = re.compile(r"\d{1,15}", re.ASCII)
CODE = re.compile(r"[A-Za-z0-9]{1,16}", re.ASCII)
NUMBER_MAX_LENGTH = 64
INTEGER_DIGITS, PLACES = 17, 18  # what NUMERIC(36, 18) holds, as the API's amounts take it
DAYS_MAX = 36_500  # a term of days: a century, so today's day number plus it stays far inside an INTEGER
MS_MAX = 253_402_300_799_999  # 9999-12-31T23:59:59.999Z: later is no date
DESC_MAX = 20_000  # characters of a description (a TEXT column: bounded here)


@dataclass(frozen=True)
class Field:
    name: str
    kind: str
    required: bool = False
    fixed: bool = False  # a sale's or listing's term, fixed once someone subscribed or applied
    maximum: int = INT_MAX  # a whole number's largest value


@dataclass(frozen=True)
class Kind:
    name: str
    model: type[Model]
    fields: tuple[Field, ...]
    orders: type[Model]
    order_key: str  # the orders' foreign key to the product
    defaults: dict[str, str]

    def field(self, name: str) -> Field:
        for found in self.fields:
            if found.name == name:
                return found
        raise DomainError(ErrorCode.PRODUCT_FIELD_UNKNOWN, kind=self.name, field=name[:64],
                          fields=", ".join(f.name for f in self.fields))  # fmt: skip

    def text_max(self, field: Field) -> int:
        """The most characters a text field holds: its column's length (a description: DESC_MAX)."""
        return getattr(self.model._meta.fields_map[field.name], "max_length", None) or DESC_MAX


KINDS = {
    "lock": Kind("lock", LockProduct, (
        Field("name", TEXT, True), Field("currency", CURRENCY, True), Field("limit_days", INT, True, maximum=DAYS_MAX),
        Field("display_rate", AMOUNT, True), Field("limit_number", AMOUNT, True), Field("quota_lots", INT),
        Field("open", BOOL), Field("sort", INT)), LockOrder, "product_id", {}),
    "mining": Kind("mining", MiningProduct, (
        Field("title", TEXT, True), Field("logo", TEXT), Field("rate_min", AMOUNT, True),
        Field("rate_max", AMOUNT, True), Field("zhouqi", INT, True, maximum=DAYS_MAX), Field("mins", AMOUNT, True),
        Field("maxs", AMOUNT, True), Field("penalty_rate", AMOUNT), Field("status", INT), Field("sort", INT)),
        MiningOrder, "product_id", {}),
    "sale": Kind("sale", TokenSale, (
        Field("title", TEXT, True), Field("logo", TEXT), Field("desc", TEXT),
        Field("huodong", CURRENCY, True, True), Field("jieshou", CURRENCY, False, True),
        Field("rengou", AMOUNT, True, True), Field("total", AMOUNT, True, True), Field("per_user_max", AMOUNT),
        Field("min_amount", AMOUNT), Field("btime", TIME, True), Field("etime", TIME, True), Field("sort", INT)),
        SaleSubscription, "sale_id", {"jieshou": "USDT"}),
    "listing": Kind("listing", ListingProject, (
        Field("title", TEXT, True), Field("desc", TEXT), Field("bizhong", CURRENCY, True, True),
        Field("price", AMOUNT, True, True), Field("total", AMOUNT, True, True), Field("shengyu", AMOUNT, False, True),
        Field("btime", TIME, True), Field("etime", TIME, True), Field("online", TIME, True),
        Field("lock_days", INT, maximum=DAYS_MAX), Field("min_amount", AMOUNT), Field("sort", INT)),
        ListingApplication, "project_id", {}),
}  # fmt: skip
TEXTS = ("title", "name", "logo", "desc", "sort")  # what may change after a sale or listing is allocated


def kind_of(name: str) -> Kind:
    if name not in KINDS:
        raise ValueError(f"unknown product kind {name!r}: {', '.join(KINDS)}")
    return KINDS[name]


def target(kind: Kind, product_id: int) -> str:
    """The audit trail's target of a product: ``sale:3``."""
    return f"{kind.name}:{product_id}"


def parse_time(name: str, text: str, now: int) -> int:
    """``now``, ``+3d`` / ``-2h`` / ``+30m`` from now, a UTC date or time (``2026-12-01``,
    ``2026-12-01T08:00``) or ms since the epoch; PRODUCT_TIME_INVALID otherwise."""
    text = text.strip()
    found: int | None = None
    if text == "now":
        found = now
    elif relative := RELATIVE.fullmatch(text):
        sign, count, unit = relative.groups()
        found = now + (-1 if sign == "-" else 1) * int(count) * UNIT_MS[unit]
    elif DIGITS.fullmatch(text):
        found = int(text)
    elif len(text) <= 40:
        try:
            moment = datetime.fromisoformat(text)
            found = int((moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp() * 1000)
        except (ValueError, OverflowError):
            found = None
    if found is None or not 0 <= found <= MS_MAX:
        raise DomainError(ErrorCode.PRODUCT_TIME_INVALID, field=name)
    return found


def _number(field: Field, text: str) -> Decimal:
    """A plain decimal >= 0 that NUMERIC(36, 18) holds exactly; PRODUCT_NUMBER_INVALID otherwise."""
    text = text.strip()
    if len(text) <= NUMBER_MAX_LENGTH and NUMBER.fullmatch(text):
        value = Decimal(text)
        exponent = value.normalize().as_tuple().exponent
        if value == 0:
            return Decimal(0)
        if value > 0 and value.adjusted() < INTEGER_DIGITS and -int(exponent) <= PLACES:
            return value
    raise DomainError(ErrorCode.PRODUCT_NUMBER_INVALID, field=field.name)


async def parse_value(kind: Kind, field: Field, text: str, now: int) -> Any:
    """One field's value, from its text, as the column wants it; a DomainError saying what it takes."""
    if field.kind == TEXT:
        limit, value = kind.text_max(field), text.strip()
        if "\x00" in value or len(value) > limit or (field.required and not value):
            raise DomainError(ErrorCode.PRODUCT_TEXT_INVALID, field=field.name, min=int(field.required), max=limit)
        return value
    if field.kind == TIME:
        return parse_time(field.name, text, now)
    if field.kind == BOOL:
        if text.strip().lower() not in TRUE + FALSE:
            raise DomainError(ErrorCode.PRODUCT_BOOL_INVALID, field=field.name)
        return text.strip().lower() in TRUE
    if field.kind == INT:
        if not DIGITS.fullmatch(text.strip()) or int(text) > field.maximum:
            raise DomainError(ErrorCode.PRODUCT_WHOLE_NUMBER_INVALID, field=field.name, max=field.maximum)
        return int(text)
    if field.kind == CURRENCY:
        code = text.strip().upper()
        coin = await Currency.get_or_none(code=code) if CODE.fullmatch(code) else None
        if coin is None:
            raise DomainError(ErrorCode.PRODUCT_CURRENCY_UNKNOWN, field=field.name, currency=code[:16])
        if str(int(AccountType.FINANCIAL)) not in coin.account_types.split(","):
            raise DomainError(ErrorCode.PRODUCT_CURRENCY_NOT_FINANCIAL, currency=coin.code)
        return coin
    return _number(field, text)


async def parse_values(kind: Kind, texts: Mapping[str, str], now: int) -> dict[str, Any]:
    """``{"rengou": "0.05", "etime": "+7d"}`` -> the values by field name."""
    return {name.strip(): await parse_value(kind, kind.field(name.strip()), text, now) for name, text in texts.items()}


def _positive(values: dict[str, Any], *names: str) -> None:
    for name in names:
        if values[name] <= 0:
            raise DomainError(ErrorCode.PRODUCT_ABOVE_ZERO, field=name)


def _check_lock(v: dict[str, Any]) -> None:
    _positive(v, "limit_days", "limit_number")


def _check_mining(v: dict[str, Any]) -> None:
    _positive(v, "zhouqi", "mins")
    if v["rate_min"] > v["rate_max"] or v["mins"] > v["maxs"]:
        raise DomainError(ErrorCode.PRODUCT_MINING_RANGE)
    if v["status"] not in (0, 1, 2):
        raise DomainError(ErrorCode.PRODUCT_MINING_STATUS)


def _check_sale(v: dict[str, Any]) -> None:
    _positive(v, "rengou", "total", "min_amount")
    if v["btime"] >= v["etime"]:
        raise DomainError(ErrorCode.PRODUCT_SALE_TIMES)
    if v["huodong"].id == v["jieshou"].id:
        raise DomainError(ErrorCode.PRODUCT_SALE_SAME_ASSET)
    most = EXACT.multiply(v["per_user_max"] if v["per_user_max"] > 0 else v["total"], v["rengou"])
    if v["min_amount"] > most:  # no subscription could be taken
        raise DomainError(ErrorCode.PRODUCT_SALE_MIN, most=money(most), currency=v["jieshou"].code)


def _check_listing(v: dict[str, Any]) -> None:
    _positive(v, "price", "shengyu", "lock_days", "min_amount")
    if v["shengyu"] > v["total"]:
        raise DomainError(ErrorCode.PRODUCT_LISTING_SUPPLY)
    if not v["btime"] < v["etime"] <= v["online"]:
        raise DomainError(ErrorCode.PRODUCT_LISTING_TIMES)


CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "lock": _check_lock, "mining": _check_mining, "sale": _check_sale, "listing": _check_listing}  # fmt: skip


def plain(kind: Kind, values: Mapping[str, Any]) -> dict[str, Any]:
    """Fields' values as the audit trail keeps them: a currency by its code, an amount as its decimal
    text (a column default too), the rest as they are."""
    found = {}
    for name, value in values.items():
        field = kind.field(name)
        found[name] = value.code if field.kind == CURRENCY else money(value) if field.kind == AMOUNT else value
    return found


async def _current(kind: Kind, row: Model, conn: BaseDBAsyncClient | None = None) -> dict[str, Any]:
    """The row's fields as ``parse_values`` gives them (currencies fetched)."""
    found = {}
    for field in kind.fields:
        if field.kind == CURRENCY:
            found[field.name] = await Currency.get(id=getattr(row, f"{field.name}_id"), using_db=conn)
        else:
            found[field.name] = getattr(row, field.name)
    return found


def _model_defaults(kind: Kind) -> dict[str, Any]:
    """The column defaults of the optional fields, so the checks see every field."""
    found = {}
    for field in kind.fields:
        column = kind.model._meta.fields_map.get(field.name)
        default = getattr(column, "default", None)
        if not field.required and default is not None and not callable(default):
            found[field.name] = default
    return found


async def create(kind_name: str, texts: Mapping[str, str], *, actor: Actor, reason: str = "",
                 now: int | None = None) -> Model:  # fmt: skip
    """A new product of ``kind_name`` from its fields' texts (its required fields all given), and
    its audit row (``product.create``, every field after) in the same transaction."""
    kind = kind_of(kind_name)
    now = now_ms() if now is None else now
    given = await parse_values(kind, {**kind.defaults, **texts}, now)
    missing = [f.name for f in kind.fields if f.required and f.name not in given]
    if missing:
        raise DomainError(ErrorCode.PRODUCT_FIELDS_MISSING, kind=kind.name, fields=", ".join(missing))
    values = {**_model_defaults(kind), **given}
    if kind.name == "listing":
        values.setdefault("shengyu", values["total"])
    CHECKS[kind.name](values)
    if kind.name == "sale" and values["jieshou"].code != kind.defaults["jieshou"] and "min_amount" not in given:
        # The default minimum is in USDT: a sale taking another asset needs its own.
        raise DomainError(ErrorCode.PRODUCT_FIELDS_MISSING, kind=kind.name, fields="min_amount")
    extra = {"status": int(values["btime"] <= now)} if kind.name == "listing" else {}
    async with transaction() as conn:
        row = await kind.model.create(**values, **extra, using_db=conn)
        after = plain(kind, {f.name: values[f.name] for f in kind.fields if f.name in values})
        await audit.record(actor, "product.create", target(kind, row.pk), after=after, reason=reason, conn=conn)
    return row


async def get(kind_name: str, product_id: int, conn: BaseDBAsyncClient | None = None, *, lock: bool = False) -> Model:
    """The product (locked for the transaction ``conn`` with ``lock``); PRODUCT_NOT_FOUND."""
    kind = kind_of(kind_name)
    query = kind.model.filter(id=product_id)
    in_range = 0 < product_id <= INT_MAX  # beyond it PostgreSQL refuses the parameter
    row = await (query.select_for_update() if lock else query).using_db(conn).first() if in_range else None
    if row is None:
        raise DomainError(ErrorCode.PRODUCT_NOT_FOUND, kind=kind.name, id=product_id)
    return row


async def _has_orders(kind: Kind, row: Model, conn: BaseDBAsyncClient | None = None) -> bool:
    return await kind.orders.filter(**{kind.order_key: row.pk}).using_db(conn).exists()


async def edit(kind_name: str, product_id: int, texts: Mapping[str, str], *, actor: Actor, reason: str = "",
               now: int | None = None) -> Model:  # fmt: skip
    """Change a product's fields, with its audit row (``product.edit``: the changed fields before and
    after) in the same transaction. Lock and mining terms reach only orders made after (each order has
    its own copy). A sale's or listing's token, price and supply are fixed once it has orders
    (subscribing waits for this row's lock), and only its texts change once it is allocated."""
    kind = kind_of(kind_name)
    changes = await parse_values(kind, texts, now_ms() if now is None else now)
    async with transaction() as conn:
        row = await get(kind_name, product_id, conn, lock=True)
        if kind.name in ("sale", "listing"):
            if getattr(row, "allocated_at", None) is not None and set(changes) - set(TEXTS):
                raise DomainError(ErrorCode.PRODUCT_ALLOCATED, kind=kind.name, fields=", ".join(TEXTS))
            fixed = [k for k in changes if kind.field(k).fixed]
            if fixed and await _has_orders(kind, row, conn):
                raise DomainError(ErrorCode.PRODUCT_HAS_ORDERS, kind=kind.name, fields=", ".join(fixed))
        current = await _current(kind, row, conn)
        CHECKS[kind.name]({**current, **changes})
        if changes:
            await kind.model.filter(id=product_id).using_db(conn).update(**changes)
        await audit.record(actor, "product.edit", target(kind, product_id),
                           before=plain(kind, {k: current[k] for k in changes}), after=plain(kind, changes),
                           reason=reason, conn=conn)  # fmt: skip
    return await get(kind_name, product_id)


async def set_open(kind_name: str, product_id: int, opened: bool, *, actor: Actor, reason: str = "",
                   now: int | None = None) -> str:  # fmt: skip
    """Open or close a product; what was done. Lock: its ``open`` flag; mining: status 1 or 2 (orders
    run on to their end either way); a sale or listing: its start (open) or end (close) moved to now
    (the Scheduler's sweep then allocates a closed one); PRODUCT_ENDED when it has ended. A change
    writes its audit row (``product.open`` or ``product.close``) in its transaction; a sale or listing
    already open changes nothing and writes none."""
    kind = kind_of(kind_name)
    now = now_ms() if now is None else now
    async with transaction() as conn:
        row = await get(kind_name, product_id, conn, lock=True)
        value: int  # a flag (a bool is an int), a status or a time in ms
        if kind.name == "lock":
            column, value = "open", opened
            said = "open for new locks" if opened else "closed to new locks"
        elif kind.name == "mining":
            column, value = "status", 1 if opened else 2
            said = "in progress (status 1)" if opened else "ended (status 2): active orders run to their end"
        else:
            if getattr(row, "allocated_at", None) is not None or row.etime <= now:  # type: ignore[attr-defined]
                raise DomainError(ErrorCode.PRODUCT_ENDED, kind=kind.name, id=product_id)
            if opened and row.btime <= now:  # type: ignore[attr-defined]
                return "already open"
            column, value = ("btime", now) if opened else ("etime", now)
            said = "open from now" if opened else "ended now: the Scheduler allocates it within a pass"
        await kind.model.filter(id=product_id).using_db(conn).update(**{column: value})
        await audit.record(actor, f"product.{'open' if opened else 'close'}", target(kind, product_id),
                           before={column: getattr(row, column)}, after={column: value}, reason=reason,
                           conn=conn)  # fmt: skip
    return said


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
