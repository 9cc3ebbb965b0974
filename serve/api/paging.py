"""The one pagination shape: ``{data, total, per_page, current_page, last_page}``."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

from tortoise.queryset import QuerySet

M = TypeVar("M")


async def paginate(query: QuerySet[Any], page: int, per_page: int, shape: Callable[[Any], Any]) -> dict[str, Any]:
    total = await query.count()
    rows = await query.offset((page - 1) * per_page).limit(per_page)
    return {
        "data": [shape(r) for r in rows],
        "total": total,
        "per_page": per_page,
        "current_page": page,
        "last_page": max(1, math.ceil(total / per_page)),
    }
