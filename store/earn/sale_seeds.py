"""The token sales and listing projects of ``config/seed/sales.toml``, created when missing (by id).

Their times are relative to the first seed and computed once, when the row is created: a re-seed
changes nothing, and an operator's edits survive it. A row is created as it would be by an operator
(nothing subscribed, not allocated): the Scheduler's sweeps then close what has ended.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from store.earn.clock import DAY_MS
from store.models import Currency, ListingProject, TokenSale
from store.times import now_ms

SALE_DECIMALS = ("rengou", "total", "per_user_max", "min_amount")
LISTING_DECIMALS = ("price", "total", "shengyu", "min_amount")


def _at(now: int, days: float) -> int:
    return now + int(days * DAY_MS)


def _values(row: dict[str, Any], decimals: tuple[str, ...], skip: tuple[str, ...]) -> dict[str, Any]:
    return {k: Decimal(v) if k in decimals else v for k, v in row.items() if k not in skip}


async def seed(rows: dict[str, Any], by_code: dict[str, Currency], now: int | None = None) -> dict[str, int]:
    """Create the missing sales (``rows["sale"]``) and listing projects (``rows["listing"]``)."""
    now = now_ms() if now is None else now
    relative = ("id", "starts_in_days", "ends_in_days", "online_in_days")
    sales, listings = rows.get("sale", []), rows.get("listing", [])
    for row in sales:
        values = _values(row, SALE_DECIMALS, (*relative, "huodong", "jieshou"))
        values.update(huodong=by_code[row["huodong"]], jieshou=by_code[row["jieshou"]],
                      btime=_at(now, row["starts_in_days"]), etime=_at(now, row["ends_in_days"]))  # fmt: skip
        await TokenSale.get_or_create(id=row["id"], defaults=values)
    for row in listings:
        values = _values(row, LISTING_DECIMALS, (*relative, "bizhong"))
        btime, etime = _at(now, row["starts_in_days"]), _at(now, row["ends_in_days"])
        values.update(bizhong=by_code[row["bizhong"]], btime=btime, etime=etime, status=int(btime <= now),
                      online=_at(now, row["online_in_days"]))  # fmt: skip
        await ListingProject.get_or_create(id=row["id"], defaults=values)
    return {"token_sales": len(sales), "listing_projects": len(listings)}
