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

import asyncio
from collections import deque
from decimal import Decimal
from typing import Any

from actors.pair import events
from actors.pair.commands import Command
from actors.pair.matching import Batch, public_order
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


class InFlight:
    """A batch whose commit is running. A move's pause that comes meanwhile hands the pair over at once
    (``hand``), the pair as this batch leaves it, instead of waiting for the commit: the old actor
    still answers the batch's callers once it is durable, and the standby, which takes commands from
    then on, matches nothing before ``done`` says how the commit ended: its trades (for the mark,
    which takes in durable batches only) and its pushes (sent by the standby, before its own), or that
    it failed (the standby then loads the pair from the database)."""

    def __init__(self, batch: Batch, outgoing: list[Any]) -> None:
        self.batch = batch  # a tail begun meanwhile records it: the standby's read may not see it yet
        self.outgoing = outgoing
        self.handed = False
        self.done: asyncio.Future[dict[str, Any]] | None = None  # made when a pause hands it over

    def hand(self) -> None:
        self.handed = True
        self.done = asyncio.get_running_loop().create_future()

    def end(self, *, ok: bool) -> bool:
        """The commit ended (durable if ``ok``). True if a standby took the pair over meanwhile: the
        pushes are its to send."""
        if self.done is not None and not self.done.done():
            trades = [t.row for t in self.batch.trades]
            self.done.set_result(committed(ok, trades, self.batch.now_ms, self.outgoing if self.handed else []))
        return self.handed


def committed(
    ok: bool, trades: list[dict[str, Any]] | None = None, now_ms: int = 0, outgoing: list[Any] | None = None
) -> dict[str, Any]:
    """What ``PairActor.committed`` answers: whether the batch handed over with its commit running is
    durable and, if it is, its trades, when it was matched, and the pushes the standby sends."""
    if not ok:
        return {"ok": False, "trades": [], "now_ms": 0, "outgoing": []}
    return {"ok": True, "trades": trades or [], "now_ms": now_ms, "outgoing": outgoing or []}


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
