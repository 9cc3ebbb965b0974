"""Each replica's copy of the pair table, so the order path does not read it on every order.

Pairs change only by an operator (open or close trading, disable selling), so a copy refreshed
every few seconds is enough for the API's fast refusals; the pair's own actor checks the same flags
again with its own configuration before it matches anything.
"""

from __future__ import annotations

import asyncio
import time

from actors.pair.loading import config_of
from actors.pair.state import PairConfig
from store.errors import DomainError, ErrorCode
from store.models import CurrencyMatch

REFRESH_S = 5.0


class PairCatalog:
    """Pairs by id, reloaded at most every ``refresh_s`` seconds (and at once for an unknown id)."""

    def __init__(self, refresh_s: float = REFRESH_S) -> None:
        self._refresh_s = refresh_s
        self._pairs: dict[int, PairConfig] = {}
        self._loaded_at: float | None = None  # monotonic time of the last load
        self._lock = asyncio.Lock()

    async def get(self, pair_id: int) -> PairConfig:
        """The pair, or PAIR_NOT_FOUND."""
        if self._older_than(self._refresh_s) or pair_id not in self._pairs:
            await self._reload(pair_id)
        pair = self._pairs.get(pair_id)
        if pair is None:
            raise DomainError(ErrorCode.PAIR_NOT_FOUND)
        return pair

    async def all(self) -> list[PairConfig]:
        """Every pair, by id."""
        if self._older_than(self._refresh_s):
            await self._reload(0)
        return sorted(self._pairs.values(), key=lambda p: p.id)

    def forget(self) -> None:
        """Read the table again at the next call (this replica's operator just changed a pair)."""
        self._loaded_at = None

    def _older_than(self, seconds: float) -> bool:
        """Whether the copy is older than ``seconds`` (or was never loaded)."""
        return self._loaded_at is None or time.monotonic() - self._loaded_at > seconds

    async def _reload(self, pair_id: int) -> None:
        loaded_before = self._loaded_at
        async with self._lock:
            if self._loaded_at != loaded_before:  # another request reloaded while this one waited
                return
            # An unknown id reloads at most once a second, so probing ids cannot hammer the database.
            if pair_id not in self._pairs and not self._older_than(1.0):
                return
            rows = await CurrencyMatch.all().prefetch_related("base_currency", "quote_currency")
            self._pairs = {p.id: config_of(p) for p in rows}
            self._loaded_at = time.monotonic()
