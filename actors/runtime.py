"""What every database-backed actor shares: settings and a lazily opened ORM connection."""

from __future__ import annotations

import asyncio
from typing import Any

from config.settings import Settings
from store.db import init_db


class DbActor:
    def __init__(self, settings: dict[str, Any]) -> None:
        self._settings = Settings.model_validate(settings)
        self._db_ready = False
        self._db_lock = asyncio.Lock()

    async def _ready(self) -> None:
        """Open the ORM on first use (an actor's constructor cannot await)."""
        if not self._db_ready:
            async with self._db_lock:
                if not self._db_ready:
                    await init_db(self._settings)
                    self._db_ready = True

    async def ping(self) -> bool:
        await self._ready()
        return True
