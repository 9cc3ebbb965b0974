"""Telling the running actors that an operator changed their terms (the console's markets screens), so a
change takes effect without a restart: every LeverShard and every MicroTimer reads the terms again.

Best effort by design: the database already holds the change when these run, and an actor that does
not answer (restarting, or not started) reads it when it loads; the answer says whether all took it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from actors.engine import Engine
from store.errors import DomainError

log = logging.getLogger(__name__)
WAIT_S = 10.0  # an actor still loading answers within its own 10 s (SERVICE_UNAVAILABLE after)


async def _tell_all(engine: Engine, handles: Callable[[], list[Any]], method: str) -> bool:
    """Call ``method`` (idempotent) on each actor at once; True when every one of them answered. A handle
    to an actor that Ray has since replaced fails every call: the handles are looked up again and the
    call made once more, as the API does for a second contract's submit."""
    for _ in range(2):
        try:
            found = handles()
        except (DomainError, RuntimeError):  # no such actor (yet), or an engine without them
            return False
        calls = [asyncio.wait_for(getattr(handle, method).remote(), WAIT_S) for handle in found]
        failed = [a for a in await asyncio.gather(*calls, return_exceptions=True) if isinstance(a, BaseException)]
        if not failed:
            return True
        log.warning("%s: %d of %d actors did not take it: %r", method, len(failed), len(found), failed[0])
        engine.forget_handles()
    return False


async def reload_lever(engine: Engine) -> bool:
    """Every LeverShard reads the pairs' lever terms again (``LeverShard.reload_terms``)."""
    return await _tell_all(engine, engine.every_lever, "reload_terms")


async def reload_micro(engine: Engine) -> bool:
    """Every MicroTimer reads the pairs' and currencies' second-contract terms again."""
    return await _tell_all(engine, engine.every_micro, "reload_terms")
