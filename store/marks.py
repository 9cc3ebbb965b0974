"""The live mark price of each pair as Redis keeps it: written by the pair's actor, read by everyone.

Key ``ex:mark:<symbol>`` (``ex:mark:BTC/USDT``) holds one JSON object::

    {"currency_match_id": 1, "symbol": "BTC/USDT", "price": "68012.5", "rule": "impact",
     "id": 1099511627782, "seq": 6, "time": 1763900000123, "at": 1763900004000}

``price``, ``rule``, ``id``, ``seq`` and ``time`` are those of the pair's latest tick in its durable tick
log (``mark_ticks``; ``rule``: which rule produced it, ``actors.pair.mark_rule``); ``at`` is when the
pair last confirmed the mark is still current. The pair writes the key on every new tick and again
every ``REFRESH_MS`` or a quarter of the staleness setting (``mark_stale_seconds``), whichever is
longer, with a TTL, so a mark whose pair is down ages (``Mark.fresh``) and then disappears. Anything
that decides money from a price reads it here (or the tick log) and records the tick id it used.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from redis.asyncio import Redis

from store.sessions import PREFIX

KEY = f"{PREFIX}mark:"
REFRESH_MS = 1000  # the pair confirms its mark at most this often (see the module docstring)
TTL_S = 60


def key(symbol: str) -> str:
    return KEY + symbol


@dataclass(frozen=True)
class Mark:
    pair_id: int
    symbol: str
    price: Decimal
    tick_id: int
    seq: int
    time_ms: int  # of the tick
    at_ms: int  # last confirmed by the pair
    rule: str = ""  # of the tick (empty in a record written before the rule was kept)

    def fresh(self, now_ms: int, stale_seconds: float) -> bool:
        """Whether the pair confirmed this mark within ``stale_seconds``."""
        return now_ms - self.at_ms <= stale_seconds * 1000

    def encode(self) -> str:
        return json.dumps(
            {
                "currency_match_id": self.pair_id,
                "symbol": self.symbol,
                "price": format(self.price.normalize(), "f"),
                "rule": self.rule,
                "id": self.tick_id,
                "seq": self.seq,
                "time": self.time_ms,
                "at": self.at_ms,
            },
            separators=(",", ":"),
        )

    @classmethod
    def decode(cls, text: str | bytes) -> Mark:
        raw = json.loads(text)
        return cls(
            pair_id=int(raw["currency_match_id"]),
            symbol=str(raw["symbol"]),
            price=Decimal(raw["price"]),
            tick_id=int(raw["id"]),
            seq=int(raw["seq"]),
            time_ms=int(raw["time"]),
            at_ms=int(raw["at"]),
            rule=str(raw.get("rule", "")),
        )


async def publish(redis: Redis, mark: Mark) -> None:
    """Store ``mark`` as the pair's current one (the pair's actor alone calls this)."""
    await redis.set(key(mark.symbol), mark.encode(), ex=TTL_S)


async def read(redis: Redis, symbols: Iterable[str]) -> dict[str, Mark]:
    """The current marks of ``symbols`` that Redis has (fresh or not: check ``Mark.fresh``)."""
    names = list(symbols)
    if not names:
        return {}
    found: dict[str, Mark] = {}
    for symbol, text in zip(names, await redis.mget([key(s) for s in names]), strict=True):
        if text:
            found[symbol] = Mark.decode(text)
    return found
