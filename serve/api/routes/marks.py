"""Mark prices and their tick logs, public: the live mark of a pair (market/mark), its ticks in a
time window with their hash chain (market/ticks), and the tick in force at a moment (market/tick_at),
so anyone can check a price decision against the log it was made from."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from actors.pair.marks import Tick, verify
from serve.api.deps import Svc
from serve.errors import envelope
from store import marks, ticks
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, CurrencyMatch
from store.money import money
from store.times import now_ms

router = APIRouter(prefix="/market", tags=["market"])
MAX_TICKS = 1000
PairId = Annotated[int, Query(ge=1, le=INT_MAX)]
TimeMs = Annotated[int, Query(ge=0, le=10**15, description="milliseconds since the epoch")]


async def _symbol(pair_id: int) -> str:
    pair = await CurrencyMatch.get_or_none(id=pair_id).prefetch_related("base_currency", "quote_currency")
    if pair is None:
        raise DomainError(ErrorCode.PAIR_NOT_FOUND)
    return f"{pair.base_currency.code}/{pair.quote_currency.code}"


@router.get("/mark")
async def mark(currency_match_id: PairId, svc: Svc) -> Any:
    """The pair's live mark price (the smoothed median of impact bid, impact ask and last price), the
    rule that produced it, its latest tick, and whether the pair confirmed it recently (``fresh``);
    null before the first tick."""
    symbol = await _symbol(currency_match_id)
    found = (await marks.read(svc.redis, [symbol])).get(symbol)
    if found is None:
        return envelope(None)
    now = now_ms()
    return envelope({
        "currency_match_id": found.pair_id,
        "symbol": found.symbol,
        "price": money(found.price),
        "rule": found.rule,
        "id": found.tick_id,
        "seq": found.seq,
        "time": found.time_ms,
        "confirmed_at": found.at_ms,
        "fresh": found.fresh(now, svc.settings.mark_stale_seconds),
    })  # fmt: skip


@router.get("/ticks")
async def tick_log(
    currency_match_id: PairId,
    from_: Annotated[int, Query(alias="from", ge=0, le=10**15, description="milliseconds since the epoch")],
    to: TimeMs,
    limit: Annotated[int, Query(ge=1, le=MAX_TICKS)] = MAX_TICKS,
) -> Any:
    """The pair's mark ticks with ``from <= time <= to``, oldest first, each with the hash of the one
    before it and its own; ``chained`` says whether they verify as one unbroken chain."""
    await _symbol(currency_match_id)
    rows = [Tick.of(r) for r in await ticks.ticks_between(currency_match_id, from_, to, limit)]
    return envelope({"ticks": [t.public() for t in rows], "chained": verify(rows)})


@router.get("/tick_at")
async def tick_at(currency_match_id: PairId, time: TimeMs) -> Any:
    """The tick in force at ``time``: the last one at or before it (null if the log starts later)."""
    await _symbol(currency_match_id)
    row = await ticks.tick_at(currency_match_id, time)
    return envelope(Tick.of(row).public() if row else None)
