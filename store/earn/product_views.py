"""The console's view of the earn products (``admin/products``): each product's fields as the texts
its edit form sends back (``store.earn.products`` parses them again), where it stands and whether it
can be opened or closed (as ``products.set_open`` decides), and what it has taken."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from tortoise.functions import Count
from tortoise.models import Model

from store.earn.products import AMOUNT, BOOL, CURRENCY, TIME, kind_of
from store.models import Currency
from store.money import money


def state(kind_name: str, row: Model, now: int) -> dict[str, Any]:
    """Where a product stands (``open``, ``closed``, ``upcoming``, ``ended``, ``allocated``) and
    whether ``set_open`` would open or close it."""
    if kind_name == "lock":
        return {"state": "open" if row.open else "closed", "can_open": not row.open,  # type: ignore[attr-defined]
                "can_close": row.open}  # type: ignore[attr-defined]  # fmt: skip
    if kind_name == "mining":
        status = row.status  # type: ignore[attr-defined]
        return {"state": ("upcoming", "open", "ended")[status] if status in (0, 1, 2) else "ended",
                "can_open": status != 1, "can_close": status != 2}  # fmt: skip
    btime, etime = row.btime, row.etime  # type: ignore[attr-defined]
    allocated = getattr(row, "allocated_at", None) is not None
    running = not allocated and now < etime
    found = "allocated" if allocated else "upcoming" if now < btime else "open" if running else "ended"
    return {"state": found, "can_open": running and now < btime, "can_close": running}


def time_text(ms: int) -> str:
    """A time field's value as ``parse_time`` takes it back exactly: ``2026-12-01T08:00`` (UTC)."""
    moment = datetime.fromtimestamp(ms / 1000, UTC).replace(tzinfo=None)
    return moment.isoformat(timespec="minutes" if ms % 60_000 == 0 else "milliseconds")


async def views(kind_name: str, rows: list[Model], now: int) -> list[dict[str, Any]]:
    """Products as the console lists and edits them: their fields as texts the edit form sends back,
    where each stands, and what it has taken (its orders; a sale's and a listing's amounts)."""
    kind = kind_of(kind_name)
    coins = {c.id: c.code for c in await Currency.all()}
    of_rows = kind.orders.filter(**{f"{kind.order_key}__in": [r.pk for r in rows]})
    counted = await of_rows.annotate(n=Count("id")).group_by(kind.order_key).values_list(kind.order_key, "n")
    taken = dict(counted) if rows else {}
    found = []
    for row in rows:
        texts = {}
        for field in kind.fields:
            value = getattr(row, f"{field.name}_id" if field.kind == CURRENCY else field.name)
            texts[field.name] = (coins[value] if field.kind == CURRENCY else time_text(value) if field.kind == TIME
                                 else str(value).lower() if field.kind == BOOL
                                 else money(value) if field.kind == AMOUNT else str(value))  # fmt: skip
        facts: dict[str, Any] = {"orders": taken.get(row.pk, 0)}
        if kind.name == "sale":
            facts.update(subscribed=money(row.subscribed), cishu=row.cishu)  # type: ignore[attr-defined]
        elif kind.name == "listing":
            facts.update(applied=money(row.applied))  # type: ignore[attr-defined]
        found.append({"kind": kind.name, "id": row.pk, "values": texts, **state(kind.name, row, now), **facts})
    return found
