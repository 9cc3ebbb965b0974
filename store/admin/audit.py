"""The audit trail: one append-only row per operator action (who, role, what, target, before, after,
reason, address, time). Written by the console's routes and by the operator commands (as the
operator ``--operator`` names, or the machine's user); nothing here updates or deletes a row."""

from __future__ import annotations

import csv
import io
import json
import time
from dataclasses import dataclass
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from store.models import AuditLog
from store.times import now_ms

CSV_FIELDS = ("id", "at", "operator", "role", "action", "target", "before", "after", "reason", "address")


@dataclass(frozen=True)
class Actor:
    """Who acts: an operator of the console (``operator_id``) or a command's caller."""

    name: str
    role: str = ""
    address: str = ""
    operator_id: int | None = None


async def record(actor: Actor, action: str, target: str = "", *, before: Any = None, after: Any = None,
                 reason: str = "", conn: BaseDBAsyncClient | None = None) -> AuditLog:  # fmt: skip
    """Append a row (in ``conn``'s transaction when given, so it commits or rolls back with the action)."""
    row = AuditLog(operator=actor.name[:128], operator_id=actor.operator_id, role=actor.role, action=action,
                   target=target[:128], before=before, after=after, reason=reason[:500],
                   address=actor.address[:128], at_ms=now_ms())  # fmt: skip
    await row.save(using_db=conn)
    return row


def view(row: AuditLog) -> dict[str, Any]:
    return {"id": row.id, "at_ms": row.at_ms, "operator": row.operator, "role": row.role, "action": row.action,
            "target": row.target, "before": row.before, "after": row.after, "reason": row.reason,
            "address": row.address}  # fmt: skip


async def search(*, operator: str = "", action: str = "", target: str = "", since_ms: int = 0, until_ms: int = 0,
                 page: int = 1, limit: int = 50) -> dict[str, Any]:  # fmt: skip
    """Newest first; ``action`` matches a prefix (``p2p.`` is every P2P action)."""
    query = AuditLog.all()
    if operator:
        query = query.filter(operator=operator)
    if action:
        query = query.filter(action__startswith=action)
    if target:
        query = query.filter(target=target)
    if since_ms:
        query = query.filter(at_ms__gte=since_ms)
    if until_ms:
        query = query.filter(at_ms__lt=until_ms)
    total = await query.count()
    rows = await query.order_by("-id").offset((page - 1) * limit).limit(limit)
    return {"list": [view(r) for r in rows], "page": page, "total": total, "limit": limit}


def to_csv(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_FIELDS)
    for r in rows:
        at = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(r["at_ms"] / 1000))
        before, after = ("" if r[k] is None else json.dumps(r[k]) for k in ("before", "after"))
        writer.writerow([r["id"], at, r["operator"], r["role"], r["action"], r["target"], before, after, r["reason"],
                         r["address"]])  # fmt: skip
    return out.getvalue()
