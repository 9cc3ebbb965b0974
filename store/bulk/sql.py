"""The SQL ``store.bulk`` runs, built once per model and fields: each field's column, its conversion to
a database value and its PostgreSQL array type, and the statements over arrays (PostgreSQL) or one
row's parameters (SQLite)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from functools import cache
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.fields import DecimalField, Field
from tortoise.models import Model

Convert = Callable[[Any, "type[Model] | Model"], Any]


def is_postgres(conn: BaseDBAsyncClient) -> bool:
    return bool(conn.capabilities.dialect == "postgres")


@cache
def field_columns(model: type[Model], names: tuple[str, ...]) -> tuple[tuple[Field[Any], ...], tuple[str, ...]]:
    """The fields of ``names`` and their columns."""
    meta = model._meta
    found = tuple(meta.fields_map[name] for name in names)
    return found, tuple(field.source_field or name for field, name in zip(found, names, strict=True))


@cache
def inserted_fields(model: type[Model]) -> tuple[str, ...]:
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
def converters_for(model: type[Model], names: tuple[str, ...]) -> tuple[Convert, ...]:
    return tuple(_converter(field) for field in field_columns(model, names)[0])


def db_values(converters: tuple[Convert, ...], values: Sequence[Any], instance: type[Model] | Model) -> list[Any]:
    return [convert(value, instance) for convert, value in zip(converters, values, strict=True)]


@cache
def text_positions(model: type[Model], names: tuple[str, ...]) -> tuple[int, ...]:
    """The positions of the fields sent as text on PostgreSQL (decimals)."""
    return tuple(i for i, field in enumerate(field_columns(model, names)[0]) if isinstance(field, DecimalField))


@cache
def array_types(model: type[Model], names: tuple[str, ...]) -> tuple[str, ...]:
    """Each field's PostgreSQL array type (``DECIMAL(36,18)[]``, sent as ``text[]``), the casts ``unnest`` needs."""
    fields, _ = field_columns(model, names)
    texts = text_positions(model, names)
    return tuple(f"{'text[]::' if i in texts else ''}{field.get_for_dialect('postgres', 'SQL_TYPE')}[]"
                 for i, field in enumerate(fields))  # fmt: skip


@cache
def insert_sql(model: type[Model], names: tuple[str, ...], postgres: bool) -> str:
    _, columns = field_columns(model, names)
    table = model._meta.db_table
    listed = ", ".join(f'"{column}"' for column in columns)
    if postgres:
        arrays = ", ".join(f"${i}::{kind}" for i, kind in enumerate(array_types(model, names), 1))
        return f'INSERT INTO "{table}" ({listed}) SELECT * FROM unnest({arrays})'
    return f'INSERT INTO "{table}" ({listed}) VALUES ({", ".join("?" * len(columns))})'


@cache
def update_sql(model: type[Model], names: tuple[str, ...], postgres: bool) -> str:
    meta = model._meta
    _, columns = field_columns(model, names)
    table, pk = meta.db_table, meta.db_pk_column
    if postgres:
        pk_type = f"{meta.pk.get_for_dialect('postgres', 'SQL_TYPE')}[]"
        arrays = ", ".join(f"${i}::{kind}" for i, kind in enumerate((*array_types(model, names), pk_type), 1))
        named = ", ".join(f'"{column}"' for column in (*columns, "_pk"))
        sets = ", ".join(f'"{column}" = v."{column}"' for column in columns)
        return f'UPDATE "{table}" AS t SET {sets} FROM unnest({arrays}) AS v({named}) WHERE t."{pk}" = v."_pk"'
    sets = ", ".join(f'"{column}" = ?' for column in columns)
    return f'UPDATE "{table}" SET {sets} WHERE "{pk}" = ?'


def _text(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


@cache
def select_sql(model: type[Model], names: tuple[str, ...], key: str, postgres: bool, count: int) -> str:
    _, columns = field_columns(model, names)
    (key_field,), (key_column,) = field_columns(model, (key,))
    listed = ", ".join(f'"{column}"' for column in columns)
    table = model._meta.db_table
    if postgres:
        key_type = key_field.get_for_dialect("postgres", "SQL_TYPE")
        return f'SELECT {listed} FROM "{table}" WHERE "{key_column}" IN (SELECT unnest($1::{key_type}[]))'
    return f'SELECT {listed} FROM "{table}" WHERE "{key_column}" IN ({", ".join("?" * count)})'


def by_model(rows: Sequence[Model]) -> list[list[Model]]:
    """Model instances grouped by their model, in the order each model first comes."""
    grouped: dict[type[Model], list[Model]] = {}
    for row in rows:
        grouped.setdefault(type(row), []).append(row)
    return list(grouped.values())


def model_rows(rows: Sequence[Model]) -> tuple[type[Model], tuple[str, ...], list[list[Any]]]:
    """Rows of one model as an insert writes them: the model, its inserted fields, each row's database values."""
    model = type(rows[0])
    names = inserted_fields(model)
    converters = converters_for(model, names)
    return model, names, [db_values(converters, [getattr(row, n) for n in names], row) for row in rows]


@cache
def upsert_sql(model: type[Model], names: tuple[str, ...], key: tuple[str, ...], postgres: bool) -> str:
    _, columns = field_columns(model, names)
    _, key_columns = field_columns(model, key)
    sets = ", ".join(f'"{c}" = excluded."{c}"' for c in columns if c not in key_columns)
    conflict = ", ".join(f'"{c}"' for c in key_columns)
    return f"{insert_sql(model, names, postgres)} ON CONFLICT ({conflict}) DO UPDATE SET {sets}"


@cache
def delete_sql(model: type[Model], names: tuple[str, ...], postgres: bool) -> str:
    fields, columns = field_columns(model, names)
    table = f'"{model._meta.db_table}"'
    if not postgres:
        equal = " AND ".join(f'"{c}" = ?' for c in columns)
        return f"DELETE FROM {table} WHERE {equal}"
    listed = ", ".join(f'"{c}"' for c in columns)
    arrays = ", ".join(f"${i}::{f.get_for_dialect('postgres', 'SQL_TYPE')}[]" for i, f in enumerate(fields, 1))
    return f"DELETE FROM {table} WHERE ({listed}) IN (SELECT * FROM unnest({arrays}))"


def columns_of(rows: list[list[Any]], texts: tuple[int, ...]) -> list[Any]:
    """Rows of values as one list per column (what ``unnest`` takes), the decimals at ``texts`` as text."""
    columns = [list(column) for column in zip(*rows, strict=True)]
    for index in texts:
        columns[index] = [_text(value) for value in columns[index]]
    return columns
