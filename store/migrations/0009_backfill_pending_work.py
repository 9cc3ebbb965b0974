"""Fill the pending-work tables of 0008 from what was written before them, so a database that ran an
earlier build loses no pending work on upgrade (recovery now sweeps those tables, not the journal):

- ``order_holds``: order freezes (``o<id>:freeze``) with neither an order row nor a release; their
  orders never reached a pair, and the wallet shards release them;
- ``pending_settlements``: trade sides without a ``fee_ledger`` row (not settled yet);
- ``pending_releases``: final orders still holding funds (frozen minus what fills consumed) with no
  release row.

Plain SQL over the tables (a migration must not depend on today's models), safe to run again: rows
that exist are not inserted twice. The "still holding" test is done in Python: SQLite keeps money as
text, which SQL would compare as text.
"""

from decimal import Decimal

from tortoise import migrations
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.migrations import operations as ops

PAGE = 5000
FILLED, CANCELLED, BUY = 3, 4, 1


def _freeze_refs(dialect: str) -> str:
    """SQL: ``f.ref`` is an order's freeze ref, ``o`` and digits then ``:freeze``."""
    if dialect == "postgres":
        return "f.ref ~ '^o[0-9]+:freeze$'"
    return "f.ref GLOB 'o[0-9]*:freeze' AND NOT substr(f.ref, 2, length(f.ref) - 8) GLOB '*[^0-9]*'"


async def _holds(client: BaseDBAsyncClient) -> None:
    order_id = "CAST(substr(f.ref, 2, length(f.ref) - 8) AS BIGINT)"
    await client.execute_query(
        f"""
        INSERT INTO order_holds (order_id, user_id, currency_id, amount, created_at)
        SELECT {order_id}, f.user_id, f.currency_id, f.lock_amount, f.created_at
        FROM account_logs f
        WHERE f.log_type = 'freeze' AND {_freeze_refs(client.capabilities.dialect)}
          AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = {order_id})
          AND NOT EXISTS (SELECT 1 FROM account_logs r WHERE r.ref = substr(f.ref, 1, length(f.ref) - 7) || ':release')
          AND NOT EXISTS (SELECT 1 FROM order_holds h WHERE h.order_id = {order_id})
        """
    )


async def _settlements(client: BaseDBAsyncClient) -> None:
    await client.execute_query(
        """
        INSERT INTO pending_settlements (trade_id, side, currency_match_id)
        SELECT t.id, s.side, t.currency_match_id
        FROM trades t CROSS JOIN (SELECT 1 AS side UNION ALL SELECT 2 AS side) s
        WHERE NOT EXISTS (SELECT 1 FROM fee_ledger l WHERE l.trade_id = t.id AND l.side = s.side)
          AND NOT EXISTS (SELECT 1 FROM pending_settlements p WHERE p.trade_id = t.id AND p.side = s.side)
        """
    )


async def _releases(client: BaseDBAsyncClient) -> None:
    after = 0
    while True:
        _, rows = await client.execute_query(
            f"""
            SELECT o.id, o.way, o.frozen, o.transacted_volume, o.transacted_amount FROM orders o
            WHERE o.status IN ({FILLED}, {CANCELLED}) AND o.id > {int(after)}
              AND NOT EXISTS (SELECT 1 FROM account_logs r WHERE r.ref = 'o' || o.id || ':release')
              AND NOT EXISTS (SELECT 1 FROM pending_releases p WHERE p.order_id = o.id)
            ORDER BY o.id LIMIT {PAGE}
            """
        )
        if not rows:
            return
        after = rows[-1][0]
        holding = [
            int(order_id)
            for order_id, way, frozen, volume, quantity in rows
            if Decimal(str(frozen)) - Decimal(str(volume if way == BUY else quantity)) > 0
        ]
        if holding:
            await client.execute_query(
                f"""
                INSERT INTO pending_releases (order_id, currency_match_id, created_at)
                SELECT id, currency_match_id, updated_at FROM orders WHERE id IN ({", ".join(map(str, holding))})
                """
            )


async def backfill(apps: object, schema_editor: object) -> None:
    client: BaseDBAsyncClient = schema_editor.client  # type: ignore[attr-defined]
    await _holds(client)
    await _settlements(client)
    await _releases(client)


class Migration(migrations.Migration):
    dependencies = [("models", "0008_live_prices_and_hardening")]

    initial = False

    operations = [ops.RunPython(backfill, ops.RunPython.noop)]
