"""When a pair looks at its mark price, and the record of it the pair keeps in Redis.

The tick log (``actors.pair.marks``) and the mark's state (``actors.pair.mark_state``) are part of the
pair's loaded state: a load builds them and a move carries them in the snapshot, so the PairActor keeps
them and hands them in. The clock decides with them: the tick a batch writes (``due_tick``), what a
durable batch adds to the mark and when the pair looks again while the smoothed mark may still change
(``take_in``: a timer that queues a look through the orders' queue), and how often an idle pair
confirms its mark (``refresh_s``). An object the PairActor owns (no mixin): the one timer lives here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from actors.book.order_book import OrderBook
from actors.pair.mark_state import MarkState
from actors.pair.marks import Tick, TickLog
from config.settings import Settings
from store import marks


class MarkClock:
    def __init__(self, pair_id: int, settings: Settings, look: Callable[[], None]) -> None:
        self._pair_id = pair_id
        self._settings = settings
        self._look = look  # queues a look at the mark through the orders' queue
        self._timer: asyncio.TimerHandle | None = None

    def due_tick(self, ticks: TickLog, mark: MarkState, now: int) -> Tick | None:
        """The tick to write with a batch: the smoothed mark of the batches already durable, if it is due
        for a look (``actors.pair.mark_state``), changed, and the tick interval allows."""
        if ticks.wait_ms(now) > 0 or not mark.due(now):
            return None
        return ticks.propose(mark.smooth.value(now), now)

    def take_in(self, ticks: TickLog, mark: MarkState, trades: list[dict[str, Any]], now: int, book: OrderBook) -> None:
        """A durable batch's trades (their rows; the batch was matched at ``now``) and the book as it
        left it into the raw mark, and a timer for the next look while the smoothed mark may still
        change. Only once the batch is durable: the mark's state never runs ahead of the database, so a
        reload after a failed batch keeps it as it is (and a move's standby takes in the batch the
        pause handed over with its commit running once that commit has ended)."""
        mark.count(trades, now)
        mark.observe(book, now)
        last = ticks.last
        wait = mark.wait_ms(now, last.price if last else None)
        if wait is not None:
            self.later(max(wait, ticks.wait_ms(now)))

    def later(self, delay_ms: int) -> None:
        """A mark change came too soon after the last tick: tick again once the interval is over."""
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(delay_ms / 1000, self._due)

    def _due(self) -> None:
        self._timer = None
        self._look()

    def record(self, symbol: str, tick: Tick, now: int) -> marks.Mark:
        """What Redis holds of the mark: ``tick``, confirmed at ``now``."""
        return marks.Mark(self._pair_id, symbol, tick.price, tick.id, tick.seq, tick.time_ms, now, tick.rule)

    @property
    def refresh_s(self) -> float:
        """A quarter of the time after which a mark is stale, and at least ``REFRESH_MS``: an idle
        pair wakes less often (2.5 s by default, issue 15) and its mark still never looks stale."""
        return max(marks.REFRESH_MS / 1000, self._settings.mark_stale_seconds / 4)
