"""Running an operator command's work on the configured database."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from config.settings import get_settings

T = TypeVar("T")


def db_run(work: Callable[[], Awaitable[T]]) -> T:
    """Run ``work`` with the ORM open on the configured database."""
    from store.db import close_db, init_db

    async def run() -> T:
        await init_db(get_settings())
        try:
            return await work()
        finally:
            await close_db()

    return asyncio.run(run())
