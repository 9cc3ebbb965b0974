"""Which actor is a pair's live one: the newest generation of its name that Ray knows.

A move (``actors.pair.placement``) starts the next generation beside the current one and, once it has
taken over, records its number in Redis (``PAIR_AT``), where ``Engine.ask`` reads it. What has no Redis
at hand (an operator's command, a test, a benchmark), or finds the key gone, asks Ray for the named
actors instead: this module. The standby of a move under way is the newest name too, and answers once
it has taken over.
"""

from __future__ import annotations

from typing import Any

import ray

from actors.names import pair_generation, pair_name


def generations(symbol: str) -> list[int]:
    """The generations of ``symbol``'s PairActor that have a live name, oldest first."""
    found = (pair_generation(name, symbol) for name in ray.util.list_named_actors())
    return sorted(g for g in found if g is not None)


def live_name(symbol: str) -> str:
    """The name of the pair's newest actor (the first generation's if none runs)."""
    return pair_name(symbol, max(generations(symbol), default=0))


def pair_actor(symbol: str) -> Any:
    """A handle to the pair's newest actor; ValueError if none runs."""
    return ray.get_actor(live_name(symbol))


def current(name: str) -> str:
    """``name``; for a pair's first name (``pair:BTC/USDT``), the name of its live generation."""
    if name.startswith("pair:") and "@" not in name:
        return live_name(name.removeprefix("pair:"))
    return name
