"""Writes and reads of many rows of one model on a connection, on either database: one statement over
arrays on PostgreSQL, one prepared statement run for every row on SQLite."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model

from store.bulk.sql import (
    by_model,
    columns_of,
    converters_for,
    db_values,
    delete_sql,
    field_columns,
    insert_sql,
    is_postgres,
    model_rows,
    select_sql,
    text_positions,
    update_sql,
    upsert_sql,
)


async def _run(
    conn: BaseDBAsyncClient, query: str, rows: list[list[Any]], postgres: bool, texts: tuple[int, ...]
) -> None:
    if not postgres:
        await conn.execute_many(query, rows)
        return
    await conn.execute_query(query, columns_of(rows, texts))


async def insert_values(
    conn: BaseDBAsyncClient, model: type[Model], names: tuple[str, ...], values: Sequence[Sequence[Any]]
) -> None:
    """Insert one row per item of ``values`` (Python values of the fields ``names``, in order)."""
    if not values:
        return
    postgres = is_postgres(conn)
    converters = converters_for(model, names)
    rows = [db_values(converters, row, model) for row in values]
    await _run(conn, insert_sql(model, names, postgres), rows, postgres, text_positions(model, names))


async def insert_rows(conn: BaseDBAsyncClient, rows: Sequence[Model]) -> None:
    """Insert model instances (of any models: one statement per model), their generated keys left to
    the database, as ``bulk_create`` does."""
    postgres = is_postgres(conn)
    for instances in by_model(rows):
        model, names, values = model_rows(instances)
        await _run(conn, insert_sql(model, names, postgres), values, postgres, text_positions(model, names))


async def update_rows(conn: BaseDBAsyncClient, rows: Sequence[Model], names: tuple[str, ...]) -> None:
    """Write the fields ``names`` of many rows of one model (by primary key)."""
    if not rows:
        return
    model = type(rows[0])
    postgres = is_postgres(conn)
    converters = converters_for(model, names)
    values = [[*db_values(converters, [getattr(row, n) for n in names], row), row.pk] for row in rows]
    await _run(conn, update_sql(model, names, postgres), values, postgres, text_positions(model, names))


async def update_values(
    conn: BaseDBAsyncClient, model: type[Model], names: tuple[str, ...], values: Sequence[Sequence[Any]]
) -> None:
    """Write the fields ``names`` of many rows of one model: each item of ``values`` is the fields'
    Python values, in order, then the row's primary key."""
    if not values:
        return
    postgres = is_postgres(conn)
    converters = converters_for(model, names)
    rows = [[*db_values(converters, row[:-1], model), row[-1]] for row in values]
    await _run(conn, update_sql(model, names, postgres), rows, postgres, text_positions(model, names))


SQLITE_CHUNK = 500  # keys per SQLite query (its bound variables are limited)


async def select_in(
    conn: BaseDBAsyncClient, model: type[Model], names: tuple[str, ...], key: str, keys: Sequence[Any]
) -> list[tuple[Any, ...]]:
    """The fields ``names`` (Python values, as ``values_list`` answers them) of the rows whose ``key``
    is among ``keys``: one statement over an array on PostgreSQL (tortoise's ``__in`` builds a
    parameter per key, 2 ms of Python for 500 refs where the query takes 0.4), a few on SQLite.

    On PostgreSQL the keys are a semi-join (``key IN (SELECT unnest($1))``), not ``key = ANY($1)``: a
    prepared statement's generic plan, made while the table was small, scans it, and ``= ANY`` of a
    parameter compares every row with every key (10 µs a row for 500 keys: a journal lookup grew by
    11 ms per 1,000 rows until the next ANALYZE); the semi-join hashes the keys at worst."""
    if not keys:
        return []
    found, _ = field_columns(model, names)
    postgres = is_postgres(conn)
    if postgres:
        chunks = [list(keys)]
    else:
        chunks = [list(keys[i : i + SQLITE_CHUNK]) for i in range(0, len(keys), SQLITE_CHUNK)]
    rows: list[tuple[Any, ...]] = []
    for chunk in chunks:
        query = select_sql(model, names, key, postgres, 0 if postgres else len(chunk))
        _, records = await conn.execute_query(query, [chunk] if postgres else chunk)
        rows.extend(tuple(field.to_python_value(record[i]) for i, field in enumerate(found)) for record in records)
    return rows


async def upsert_rows(conn: BaseDBAsyncClient, rows: Sequence[Model], key: tuple[str, ...]) -> None:
    """Insert rows of one model, where a row whose ``key`` (the fields of a unique key) is taken updates
    that row's other fields instead (``INSERT … ON CONFLICT … DO UPDATE``): tortoise's
    ``update_or_create`` is a locking read and a write per row. No two rows may share a key."""
    if not rows:
        return
    model, names, values = model_rows(rows)
    postgres = is_postgres(conn)
    await _run(conn, upsert_sql(model, names, key, postgres), values, postgres, text_positions(model, names))


async def insert_missing(conn: BaseDBAsyncClient, rows: Sequence[Model], key: tuple[str, ...]) -> None:
    """Insert the rows of one model whose ``key`` (the fields of a unique key) is not taken yet; the
    others are left as they are (``INSERT … ON CONFLICT DO NOTHING``)."""
    if not rows:
        return
    model, names, values = model_rows(rows)
    postgres = is_postgres(conn)
    _, key_columns = field_columns(model, key)
    conflict = ", ".join(f'"{c}"' for c in key_columns)
    query = f"{insert_sql(model, names, postgres)} ON CONFLICT ({conflict}) DO NOTHING"
    await _run(conn, query, values, postgres, text_positions(model, names))


async def delete_rows(conn: BaseDBAsyncClient, model: type[Model], key: tuple[str, ...], keys: Sequence[Any]) -> None:
    """``delete_part`` run on its own, on either database (a prepared statement per key on SQLite)."""
    if not keys:
        return
    postgres = is_postgres(conn)
    await _run(conn, delete_sql(model, key, postgres), [list(k) for k in keys], postgres, ())
