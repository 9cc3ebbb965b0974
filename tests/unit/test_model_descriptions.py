"""Model and field descriptions end up inside the migrations' SQL.

tortoise's SQLite schema editor splits a migration's SQL on ";": a description with one broke the
schema on SQLite (the embedded default) while PostgreSQL took it.
"""

from __future__ import annotations

import inspect

from tortoise.models import Model

from store import models

MODELS = [m for _, m in inspect.getmembers(models, inspect.isclass) if issubclass(m, Model) and m is not Model]


def test_every_description_is_safe_inside_sql() -> None:
    assert MODELS
    unsafe = []
    for model in MODELS:
        texts = {model.__name__: model._meta.table_description or ""}
        texts |= {f"{model.__name__}.{name}": field.description or "" for name, field in model._meta.fields_map.items()}
        unsafe += [f"{where}: {text!r}" for where, text in texts.items() if ";" in text]
    assert unsafe == []
