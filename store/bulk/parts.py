"""Several writes in ONE PostgreSQL statement (``write_at_once``): each write a part, a data-modifying
``WITH`` clause over arrays; one of them may be a guarded update that fails the statement when a row
changed since it was read."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError, OperationalError
from tortoise.models import Model

from store.bulk.sql import (
    array_types,
    by_model,
    columns_of,
    converters_for,
    db_values,
    delete_sql,
    field_columns,
    insert_sql,
    model_rows,
    text_positions,
    update_sql,
    upsert_sql,
)

Part = tuple[str, list[Any]]  # one PostgreSQL statement over arrays, its parameters numbered from $1


class Conflict(Exception):
    """``write_at_once`` found a guarded row changed since it was read (or a unique key taken): nothing
    was written, and the caller reads again."""


def insert_part(model: type[Model], names: tuple[str, ...], values: Sequence[Sequence[Any]]) -> Part | None:
    """``insert_values`` as a part of ``write_at_once`` (PostgreSQL); None when there is nothing to insert."""
    if not values:
        return None
    converters = converters_for(model, names)
    rows = [db_values(converters, row, model) for row in values]
    return insert_sql(model, names, True), columns_of(rows, text_positions(model, names))


def insert_rows_parts(rows: Sequence[Model]) -> list[Part]:
    """``insert_rows`` as parts of ``write_at_once`` (PostgreSQL): one per model."""
    parts = []
    for instances in by_model(rows):
        model, names, values = model_rows(instances)  # converted with each row: its stamps are set
        parts.append((insert_sql(model, names, True), columns_of(values, text_positions(model, names))))
    return parts


def upsert_rows_part(rows: Sequence[Model], key: tuple[str, ...]) -> Part | None:
    """``upsert_rows`` as a part of ``write_at_once`` (PostgreSQL); None when there are no rows."""
    if not rows:
        return None
    model, names, values = model_rows(rows)
    return upsert_sql(model, names, key, True), columns_of(values, text_positions(model, names))


def update_part(model: type[Model], names: tuple[str, ...], values: Sequence[Sequence[Any]]) -> Part | None:
    """``update_values`` as a part of ``write_at_once`` (PostgreSQL); None when there is nothing to update."""
    if not values:
        return None
    converters = converters_for(model, names)
    rows = [[*db_values(converters, row[:-1], model), row[-1]] for row in values]
    return update_sql(model, names, True), columns_of(rows, text_positions(model, names))


def delete_part(model: type[Model], key: str | tuple[str, ...], keys: Sequence[Any]) -> Part | None:
    """Delete the rows of ``model`` whose field ``key`` is among ``keys`` (or, for several fields, whose
    fields ``key`` are one of the tuples ``keys``), as a part of ``write_at_once`` (PostgreSQL); None
    when there are no keys."""
    if not keys:
        return None
    names = (key,) if isinstance(key, str) else key
    rows = [[k] for k in keys] if isinstance(key, str) else [list(k) for k in keys]
    return delete_sql(model, names, True), columns_of(rows, ())


def guarded_update_part(rows: Sequence[Model], names: tuple[str, ...], was: Sequence[Sequence[Any]]) -> Part:
    """``update_rows`` of the fields ``names`` as a part of ``write_at_once`` (PostgreSQL), each row only
    if those fields still hold ``was`` (its values when read, in ``names`` order); it returns a row per
    row updated, which ``write_at_once`` counts."""
    model = type(rows[0])
    converters = converters_for(model, names)
    values = [
        [*db_values(converters, [getattr(r, n) for n in names], r), *old, r.pk]
        for r, old in zip(rows, was, strict=True)
    ]
    guards = tuple(name for name in names if name not in _AUTO)
    texts = text_positions(model, names)
    texts = (*texts, *(len(names) + i for i, name in enumerate(guards) if names.index(name) in texts))
    return _guarded_update_sql(model, names, guards), columns_of(values, texts)


_AUTO = frozenset({"updated_at"})  # stamped on every write, never a guard


@cache
def _guarded_update_sql(model: type[Model], names: tuple[str, ...], guards: tuple[str, ...]) -> str:
    meta = model._meta
    _, columns = field_columns(model, names)
    _, guard_columns = field_columns(model, guards)
    table, pk = meta.db_table, meta.db_pk_column
    types = (
        *array_types(model, names),
        *array_types(model, guards),
        f"{meta.pk.get_for_dialect('postgres', 'SQL_TYPE')}[]",
    )
    arrays = ", ".join(f"${i}::{kind}" for i, kind in enumerate(types, 1))
    named = ", ".join(f'"{c}"' for c in (*columns, *(f"_was_{g}" for g in guard_columns), "_pk"))
    sets = ", ".join(f'"{c}" = v."{c}"' for c in columns)
    checks = " AND ".join(f't."{g}" = v."_was_{g}"' for g in guard_columns)
    return (f'UPDATE "{table}" AS t SET {sets} FROM unnest({arrays}) AS v({named}) '
            f'WHERE t."{pk}" = v."_pk" AND {checks} RETURNING 1')  # fmt: skip


def _renumber(sql: str, offset: int) -> str:
    return re.sub(r"\$(\d+)", lambda m: f"${int(m.group(1)) + offset}", sql)


async def write_at_once(
    conn: BaseDBAsyncClient, parts: Sequence[Part], guarded: tuple[Part, int] | None = None
) -> None:
    """Run every part in ONE statement on PostgreSQL (each a data-modifying ``WITH`` clause), atomic on
    its own: outside a transaction it is one round trip, where BEGIN, a statement per part and COMMIT
    were as many. ``guarded``: a ``guarded_update_part`` and how many rows it must update; if it
    updates fewer (a row changed since it was read) or an insert hits a unique key, the statement
    fails as a whole and ``Conflict`` is raised (unguarded, a failure raises as it is). The parts see
    the database as it was before the statement (PostgreSQL's rule for ``WITH``), so no part may
    read what another writes."""
    every = [*parts, *([guarded[0]] if guarded else [])]
    clauses: list[str] = []
    args: list[Any] = []
    for index, (sql, values) in enumerate(every):
        clauses.append(f"w{index} AS ({_renumber(sql, len(args))})")
        args.extend(values)
    if guarded is None:
        final = "SELECT 1"
    else:  # a short count divides by zero: the statement, and every part of it, fails
        args.append(guarded[1])
        final = f"SELECT 1 / ((SELECT count(*) FROM w{len(every) - 1}) = ${len(args)})::int"
    try:
        await conn.execute_query(f"WITH {', '.join(clauses)} {final}", args)
    except (OperationalError, IntegrityError) as exc:
        if guarded is None:
            raise
        if isinstance(exc, IntegrityError) or getattr(exc.__cause__, "sqlstate", None) == DIVISION_BY_ZERO:
            raise Conflict(str(exc)) from exc
        raise


DIVISION_BY_ZERO = "22012"
