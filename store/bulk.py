"""Writing many rows of one table in one statement: the group commits' inserts and updates.

On PostgreSQL each write is one statement over one array per column (``INSERT … SELECT FROM unnest``,
``UPDATE … FROM unnest``): the server plans and runs it once for all the rows, and the client encodes
one bind message. tortoise's ``bulk_create`` and ``executemany`` run a statement per row (a 250-contract
settlement commit executed ~1,000 of them), and ``bulk_update`` builds one ``CASE`` per field with a
branch per row (quadratic: 0.43 s for 500 settled second contracts). SQLite has no arrays: there it is
one prepared statement run for every row (``executemany``), which costs SQLite little.

Values go through each field's ``to_db_value`` (enums to ints, JSON to text, ``auto_now`` stamps), as
tortoise's own writes do, except where that is only a type check: a field of a plain kind (a number, a
decimal, a foreign key's id) with no validator takes a value of its type as it is. ``Decimal`` stays
``Decimal`` (text on SQLite); on PostgreSQL a DECIMAL column travels as text and the statement casts it
(``$1::text[]::DECIMAL(36,18)[]``): asyncpg's binary encoding of 500 numbers took 0.7 ms, their text
0.26 ms, and a settlement commit sends ten such columns. The cast rounds to the column's scale exactly
as the binary value would be.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from decimal import Decimal
from functools import cache
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError, OperationalError
from tortoise.fields import DecimalField, Field
from tortoise.models import Model

Convert = Callable[[Any, "type[Model] | Model"], Any]


def _postgres(conn: BaseDBAsyncClient) -> bool:
    return bool(conn.capabilities.dialect == "postgres")


@cache
def _fields(model: type[Model], names: tuple[str, ...]) -> tuple[tuple[Field[Any], ...], tuple[str, ...]]:
    """The fields of ``names`` and their columns."""
    meta = model._meta
    found = tuple(meta.fields_map[name] for name in names)
    return found, tuple(field.source_field or name for field, name in zip(found, names, strict=True))


@cache
def _inserted(model: type[Model]) -> tuple[str, ...]:
    """The fields an insert of ``model`` writes: all but a key the database generates."""
    meta = model._meta
    return tuple(name for name in meta.fields_db_projection if not (name == meta.pk_attr and meta.pk.generated))


def _converter(field: Field[Any]) -> Convert:
    """``field.to_db_value``, or the same check done inline where that is all it does (``Field``'s own
    with no validator to run: a value of the field's type as it is, another converted to it)."""
    if type(field).to_db_value is not Field.to_db_value or field.validators:
        return field.to_db_value
    kind = field.field_type

    def plain(value: Any, _instance: type[Model] | Model) -> Any:
        return value if value is None or isinstance(value, kind) else kind(value)

    return plain


@cache
def _converters(model: type[Model], names: tuple[str, ...]) -> tuple[Convert, ...]:
    return tuple(_converter(field) for field in _fields(model, names)[0])


def _db_values(converters: tuple[Convert, ...], values: Sequence[Any], instance: type[Model] | Model) -> list[Any]:
    return [convert(value, instance) for convert, value in zip(converters, values, strict=True)]


@cache
def _texts(model: type[Model], names: tuple[str, ...]) -> tuple[int, ...]:
    """The positions of the fields sent as text on PostgreSQL (decimals)."""
    return tuple(i for i, field in enumerate(_fields(model, names)[0]) if isinstance(field, DecimalField))


@cache
def _array_types(model: type[Model], names: tuple[str, ...]) -> tuple[str, ...]:
    """Each field's PostgreSQL array type (``DECIMAL(36,18)[]``, sent as ``text[]``), the casts ``unnest`` needs."""
    fields, _ = _fields(model, names)
    texts = _texts(model, names)
    return tuple(f"{'text[]::' if i in texts else ''}{field.get_for_dialect('postgres', 'SQL_TYPE')}[]"
                 for i, field in enumerate(fields))  # fmt: skip


@cache
def _insert_sql(model: type[Model], names: tuple[str, ...], postgres: bool) -> str:
    _, columns = _fields(model, names)
    table = model._meta.db_table
    listed = ", ".join(f'"{column}"' for column in columns)
    if postgres:
        arrays = ", ".join(f"${i}::{kind}" for i, kind in enumerate(_array_types(model, names), 1))
        return f'INSERT INTO "{table}" ({listed}) SELECT * FROM unnest({arrays})'
    return f'INSERT INTO "{table}" ({listed}) VALUES ({", ".join("?" * len(columns))})'


@cache
def _update_sql(model: type[Model], names: tuple[str, ...], postgres: bool) -> str:
    meta = model._meta
    _, columns = _fields(model, names)
    table, pk = meta.db_table, meta.db_pk_column
    if postgres:
        pk_type = f"{meta.pk.get_for_dialect('postgres', 'SQL_TYPE')}[]"
        arrays = ", ".join(f"${i}::{kind}" for i, kind in enumerate((*_array_types(model, names), pk_type), 1))
        named = ", ".join(f'"{column}"' for column in (*columns, "_pk"))
        sets = ", ".join(f'"{column}" = v."{column}"' for column in columns)
        return f'UPDATE "{table}" AS t SET {sets} FROM unnest({arrays}) AS v({named}) WHERE t."{pk}" = v."_pk"'
    sets = ", ".join(f'"{column}" = ?' for column in columns)
    return f'UPDATE "{table}" SET {sets} WHERE "{pk}" = ?'


def _text(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


async def _run(
    conn: BaseDBAsyncClient, query: str, rows: list[list[Any]], postgres: bool, texts: tuple[int, ...]
) -> None:
    if not postgres:
        await conn.execute_many(query, rows)
        return
    columns = [list(column) for column in zip(*rows, strict=True)]
    for index in texts:
        columns[index] = [_text(value) for value in columns[index]]
    await conn.execute_query(query, columns)


async def insert_values(
    conn: BaseDBAsyncClient, model: type[Model], names: tuple[str, ...], values: Sequence[Sequence[Any]]
) -> None:
    """Insert one row per item of ``values`` (Python values of the fields ``names``, in order)."""
    if not values:
        return
    postgres = _postgres(conn)
    converters = _converters(model, names)
    rows = [_db_values(converters, row, model) for row in values]
    await _run(conn, _insert_sql(model, names, postgres), rows, postgres, _texts(model, names))


async def insert_rows(conn: BaseDBAsyncClient, rows: Sequence[Model]) -> None:
    """Insert model instances (of any models: one statement per model), their generated keys left to
    the database, as ``bulk_create`` does."""
    by_model: dict[type[Model], list[Model]] = {}
    for row in rows:
        by_model.setdefault(type(row), []).append(row)
    postgres = _postgres(conn)
    for model, instances in by_model.items():
        names = _inserted(model)
        converters = _converters(model, names)
        values = [_db_values(converters, [getattr(row, n) for n in names], row) for row in instances]
        await _run(conn, _insert_sql(model, names, postgres), values, postgres, _texts(model, names))


async def update_rows(conn: BaseDBAsyncClient, rows: Sequence[Model], names: tuple[str, ...]) -> None:
    """Write the fields ``names`` of many rows of one model (by primary key)."""
    if not rows:
        return
    model = type(rows[0])
    postgres = _postgres(conn)
    converters = _converters(model, names)
    values = [[*_db_values(converters, [getattr(row, n) for n in names], row), row.pk] for row in rows]
    await _run(conn, _update_sql(model, names, postgres), values, postgres, _texts(model, names))


async def update_values(
    conn: BaseDBAsyncClient, model: type[Model], names: tuple[str, ...], values: Sequence[Sequence[Any]]
) -> None:
    """Write the fields ``names`` of many rows of one model: each item of ``values`` is the fields'
    Python values, in order, then the row's primary key."""
    if not values:
        return
    postgres = _postgres(conn)
    converters = _converters(model, names)
    rows = [[*_db_values(converters, row[:-1], model), row[-1]] for row in values]
    await _run(conn, _update_sql(model, names, postgres), rows, postgres, _texts(model, names))


SQLITE_CHUNK = 500  # keys per SQLite query (its bound variables are limited)


@cache
def _select_sql(model: type[Model], names: tuple[str, ...], key: str, postgres: bool, count: int) -> str:
    _, columns = _fields(model, names)
    (key_field,), (key_column,) = _fields(model, (key,))
    listed = ", ".join(f'"{column}"' for column in columns)
    table = model._meta.db_table
    if postgres:
        key_type = key_field.get_for_dialect("postgres", "SQL_TYPE")
        return f'SELECT {listed} FROM "{table}" WHERE "{key_column}" IN (SELECT unnest($1::{key_type}[]))'
    return f'SELECT {listed} FROM "{table}" WHERE "{key_column}" IN ({", ".join("?" * count)})'


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
    found, _ = _fields(model, names)
    postgres = _postgres(conn)
    if postgres:
        chunks = [list(keys)]
    else:
        chunks = [list(keys[i : i + SQLITE_CHUNK]) for i in range(0, len(keys), SQLITE_CHUNK)]
    rows: list[tuple[Any, ...]] = []
    for chunk in chunks:
        query = _select_sql(model, names, key, postgres, 0 if postgres else len(chunk))
        _, records = await conn.execute_query(query, [chunk] if postgres else chunk)
        rows.extend(tuple(field.to_python_value(record[i]) for i, field in enumerate(found)) for record in records)
    return rows


# -- several writes in one statement ----------------------------------------------------------------

Part = tuple[str, list[Any]]  # one PostgreSQL statement over arrays, its parameters numbered from $1


class Conflict(Exception):
    """``write_at_once`` found a guarded row changed since it was read (or a unique key taken): nothing
    was written, and the caller reads again."""


def insert_part(model: type[Model], names: tuple[str, ...], values: Sequence[Sequence[Any]]) -> Part | None:
    """``insert_values`` as a part of ``write_at_once`` (PostgreSQL); None when there is nothing to insert."""
    if not values:
        return None
    converters = _converters(model, names)
    rows = [_db_values(converters, row, model) for row in values]
    return _insert_sql(model, names, True), _arrays(rows, _texts(model, names))


def insert_rows_parts(rows: Sequence[Model]) -> list[Part]:
    """``insert_rows`` as parts of ``write_at_once`` (PostgreSQL): one per model."""
    by_model: dict[type[Model], list[Model]] = {}
    for row in rows:
        by_model.setdefault(type(row), []).append(row)
    parts = []
    for model, instances in by_model.items():
        names = _inserted(model)
        converters = _converters(model, names)  # with each row: its stamps (``auto_now_add``) are set
        values = [_db_values(converters, [getattr(row, n) for n in names], row) for row in instances]
        parts.append((_insert_sql(model, names, True), _arrays(values, _texts(model, names))))
    return parts


def _upsert_values(rows: Sequence[Model]) -> tuple[type[Model], tuple[str, ...], list[list[Any]]]:
    model = type(rows[0])
    names = _inserted(model)
    converters = _converters(model, names)
    return model, names, [_db_values(converters, [getattr(row, n) for n in names], row) for row in rows]


async def upsert_rows(conn: BaseDBAsyncClient, rows: Sequence[Model], key: tuple[str, ...]) -> None:
    """Insert rows of one model, where a row whose ``key`` (the fields of a unique key) is taken updates
    that row's other fields instead (``INSERT … ON CONFLICT … DO UPDATE``): tortoise's
    ``update_or_create`` is a locking read and a write per row. No two rows may share a key."""
    if not rows:
        return
    model, names, values = _upsert_values(rows)
    postgres = _postgres(conn)
    await _run(conn, _upsert_sql(model, names, key, postgres), values, postgres, _texts(model, names))


async def insert_missing(conn: BaseDBAsyncClient, rows: Sequence[Model], key: tuple[str, ...]) -> None:
    """Insert the rows of one model whose ``key`` (the fields of a unique key) is not taken yet; the
    others are left as they are (``INSERT … ON CONFLICT DO NOTHING``)."""
    if not rows:
        return
    model, names, values = _upsert_values(rows)
    postgres = _postgres(conn)
    _, key_columns = _fields(model, key)
    conflict = ", ".join(f'"{c}"' for c in key_columns)
    query = f"{_insert_sql(model, names, postgres)} ON CONFLICT ({conflict}) DO NOTHING"
    await _run(conn, query, values, postgres, _texts(model, names))


def upsert_rows_part(rows: Sequence[Model], key: tuple[str, ...]) -> Part | None:
    """``upsert_rows`` as a part of ``write_at_once`` (PostgreSQL); None when there are no rows."""
    if not rows:
        return None
    model, names, values = _upsert_values(rows)
    return _upsert_sql(model, names, key, True), _arrays(values, _texts(model, names))


@cache
def _upsert_sql(model: type[Model], names: tuple[str, ...], key: tuple[str, ...], postgres: bool) -> str:
    _, columns = _fields(model, names)
    _, key_columns = _fields(model, key)
    sets = ", ".join(f'"{c}" = excluded."{c}"' for c in columns if c not in key_columns)
    conflict = ", ".join(f'"{c}"' for c in key_columns)
    return f"{_insert_sql(model, names, postgres)} ON CONFLICT ({conflict}) DO UPDATE SET {sets}"


def update_part(model: type[Model], names: tuple[str, ...], values: Sequence[Sequence[Any]]) -> Part | None:
    """``update_values`` as a part of ``write_at_once`` (PostgreSQL); None when there is nothing to update."""
    if not values:
        return None
    converters = _converters(model, names)
    rows = [[*_db_values(converters, row[:-1], model), row[-1]] for row in values]
    return _update_sql(model, names, True), _arrays(rows, _texts(model, names))


def delete_part(model: type[Model], key: str | tuple[str, ...], keys: Sequence[Any]) -> Part | None:
    """Delete the rows of ``model`` whose field ``key`` is among ``keys`` (or, for several fields, whose
    fields ``key`` are one of the tuples ``keys``), as a part of ``write_at_once`` (PostgreSQL); None
    when there are no keys."""
    if not keys:
        return None
    names = (key,) if isinstance(key, str) else key
    rows = [[k] for k in keys] if isinstance(key, str) else [list(k) for k in keys]
    return _delete_sql(model, names, True), _arrays(rows, ())


async def delete_rows(conn: BaseDBAsyncClient, model: type[Model], key: tuple[str, ...], keys: Sequence[Any]) -> None:
    """``delete_part`` run on its own, on either database (a prepared statement per key on SQLite)."""
    if not keys:
        return
    postgres = _postgres(conn)
    await _run(conn, _delete_sql(model, key, postgres), [list(k) for k in keys], postgres, ())


@cache
def _delete_sql(model: type[Model], names: tuple[str, ...], postgres: bool) -> str:
    fields, columns = _fields(model, names)
    table = f'"{model._meta.db_table}"'
    if not postgres:
        equal = " AND ".join(f'"{c}" = ?' for c in columns)
        return f"DELETE FROM {table} WHERE {equal}"
    listed = ", ".join(f'"{c}"' for c in columns)
    arrays = ", ".join(f"${i}::{f.get_for_dialect('postgres', 'SQL_TYPE')}[]" for i, f in enumerate(fields, 1))
    return f"DELETE FROM {table} WHERE ({listed}) IN (SELECT * FROM unnest({arrays}))"


def guarded_update_part(rows: Sequence[Model], names: tuple[str, ...], was: Sequence[Sequence[Any]]) -> Part:
    """``update_rows`` of the fields ``names`` as a part of ``write_at_once`` (PostgreSQL), each row only
    if those fields still hold ``was`` (its values when read, in ``names`` order); it returns a row per
    row updated, which ``write_at_once`` counts."""
    model = type(rows[0])
    converters = _converters(model, names)
    values = [
        [*_db_values(converters, [getattr(r, n) for n in names], r), *old, r.pk]
        for r, old in zip(rows, was, strict=True)
    ]
    guards = tuple(name for name in names if name not in _AUTO)
    texts = _texts(model, names)
    texts = (*texts, *(len(names) + i for i, name in enumerate(guards) if names.index(name) in texts))
    return _guarded_update_sql(model, names, guards), _arrays(values, texts)


_AUTO = frozenset({"updated_at"})  # stamped on every write, never a guard


@cache
def _guarded_update_sql(model: type[Model], names: tuple[str, ...], guards: tuple[str, ...]) -> str:
    meta = model._meta
    _, columns = _fields(model, names)
    _, guard_columns = _fields(model, guards)
    table, pk = meta.db_table, meta.db_pk_column
    types = (
        *_array_types(model, names),
        *_array_types(model, guards),
        f"{meta.pk.get_for_dialect('postgres', 'SQL_TYPE')}[]",
    )
    arrays = ", ".join(f"${i}::{kind}" for i, kind in enumerate(types, 1))
    named = ", ".join(f'"{c}"' for c in (*columns, *(f"_was_{g}" for g in guard_columns), "_pk"))
    sets = ", ".join(f'"{c}" = v."{c}"' for c in columns)
    checks = " AND ".join(f't."{g}" = v."_was_{g}"' for g in guard_columns)
    return (f'UPDATE "{table}" AS t SET {sets} FROM unnest({arrays}) AS v({named}) '
            f'WHERE t."{pk}" = v."_pk" AND {checks} RETURNING 1')  # fmt: skip


def _arrays(rows: list[list[Any]], texts: tuple[int, ...]) -> list[Any]:
    columns = [list(column) for column in zip(*rows, strict=True)]
    for index in texts:
        columns[index] = [_text(value) for value in columns[index]]
    return columns


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
