"""What a moving pair hands its successor besides the book: the orders it took last, so a command sent
again after the move is answered as it was stored, not carried out twice.

A move kills the old actor once its pause has committed what it had queued. An answer can still be
lost on the way: the caller then sees the old actor die, learns it was stopped by a move, and sends the
command again (``Engine.ask``). Matching that command a second time would be wrong (a submit's id is
already stored, a cancelled order is no longer in the book), so the new actor looks up every command
whose order the old one took last and answers it from the database; only those reads cost anything.
A restart from the database (a crash, a failed batch) does the same through ``answer_from_database``.
"""

from __future__ import annotations

from collections import deque
from decimal import Decimal
from typing import Any

from actors.pair import events
from actors.pair.commands import Command
from actors.pair.matching import public_order
from actors.pair.state import PairConfig
from store import spot
from store.models import OrderStatus

RECENT_IDS = 4096  # the orders a pair remembers taking: far more than a move's lost answers can be


class Handover:
    """Owned by the PairActor: ``taken`` after each commit, ``handed`` from the snapshot it started on."""

    def __init__(self, handed: frozenset[int] = frozenset()) -> None:
        self.recent: deque[int] = deque(maxlen=RECENT_IDS)
        self.handed = handed

    def taken(self, kind: str, payload: Any) -> None:
        """A submit or cancel committed (not refused)."""
        self.recent.append(int(payload["id"]) if kind == "submit" else int(payload[0]))

    def snapshot(self) -> frozenset[int]:
        return frozenset(self.recent)

    async def answered(self, command: Command, open_ids: dict[int, Any], cfg: PairConfig) -> bool:
        """True if ``command`` is one the previous actor took, answered now as the database holds it."""
        kind, payload, future = command
        if future is None or future.done():
            return False
        if kind == "submit":
            return int(payload["id"]) in self.handed and await answer_from_database(command, cfg)
        if kind != "cancel":
            return False
        order_id, uid = payload
        if order_id not in self.handed or order_id in open_ids:
            return False  # still open here: the cancel is matched as usual
        row = await spot.order(int(order_id))
        if row is None or row.user_id != uid or row.status != OrderStatus.CANCELLED:
            return False
        future.set_result(public_order(events.state_of(row), cfg))
        return True


async def answer_from_database(command: Command, cfg: PairConfig) -> bool:
    """A submit whose order the database holds was committed (its answer was lost with a failure or a
    move): answer it as stored. True if answered."""
    kind, payload, future = command
    if kind != "submit" or future is None:
        return False
    row = await spot.order(int(payload["id"]))
    price, number = Decimal(payload.get("price") or 0), Decimal(payload["number"])
    sent = (int(payload["uid"]), int(payload["way"]), price, number)
    if row is None or (row.user_id, row.way, row.price, row.number) != sent:
        return False  # not stored, or another order holds the id (the command is not a retry of it)
    future.set_result(public_order(events.state_of(row), cfg))
    return True
