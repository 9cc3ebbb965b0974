"""The shapes of answers on the wire, as pydantic models: a route names its answer with
``response_model=Envelope[...]`` so the OpenAPI document shows every field (schemathesis checks the
answers against it), and builds the data through the model, so a field renamed or dropped fails where
the answer is made rather than in a user's browser. Money stays a string (``store.money.money``)."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter

T = TypeVar("T")
D = TypeVar("D")


class Envelope(BaseModel, Generic[T]):
    """Every answer: ``code`` 1 for success, ``msg`` (translated), ``data``."""

    code: int
    msg: str
    data: T


class Paged(BaseModel, Generic[T]):
    """One page of a list (``serve.api.paging.paginate``)."""

    data: list[T]
    total: int
    per_page: int
    current_page: int
    last_page: int


class Out(BaseModel):
    """An answer's part: exactly the fields named (a typo in a field's name is an error, not a new field)."""

    model_config = ConfigDict(extra="forbid")


class Code(Out):
    code: str


def checked(shape: type[BaseModel] | TypeAdapter[Any], data: D) -> D:
    """``data`` (an actor's or the store's dict, or a list of them) unchanged once ``shape`` (a model, or
    an adapter built once, e.g. of a list of models) accepts it strictly: every field named, none
    other, each of its type (no number where a string is named), so the data on the wire is what the
    model would dump. For answers served often: one validation, no objects to dump again."""
    if isinstance(shape, TypeAdapter):
        shape.validate_python(data, strict=True)
    else:
        shape.model_validate(data, strict=True)
    return data
