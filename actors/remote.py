"""What a ``@ray.remote`` class is, for the type checker. mypy does not apply class decorators: after
``@ray.remote class PairActor`` it still sees the plain class, which has no ``.options`` or ``.remote``.
``actor_class(PairActor)`` names what the decorator made of it (Ray's ``ActorClass``), so the calls that
start actors are checked against Ray's types instead of each carrying an ignore."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar, cast

if TYPE_CHECKING:
    from ray.actor import ActorClass

T = TypeVar("T")


def actor_class(cls: type[T]) -> ActorClass[T]:
    """``cls`` itself (a Ray actor class at runtime), typed as one."""
    return cast("ActorClass[T]", cls)
