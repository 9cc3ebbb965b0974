"""The move's side of a pair's actor (``actors.pair.placement`` runs the move): the moving actor keeps
a tail and pauses; its standby reads the database ahead, then takes over what the pause hands it
(``actors.pair.tail``) or, without a tail, the whole snapshot; a move that fails resumes the old one.

Mixed into the PairActor, over ``PairLoading`` (which builds the state from what is handed over).
"""

from __future__ import annotations

import asyncio
import pickle
from typing import TYPE_CHECKING, Any

from actors.pair.commands import CommandQueue
from actors.pair.effects import Outgoing, PairEffects
from actors.pair.handover import Handover
from actors.pair.loading import PairLoading
from actors.pair.tail import Tail
from store.errors import DomainError, ErrorCode


class PairMoving(PairLoading):
    """Mixed into the PairActor."""

    _commands: CommandQueue
    _effects: PairEffects
    _handed_in: asyncio.Event  # set once there is something to load (at once, unless a standby)
    _restarted_standby: bool  # a standby Ray restarted: it loaded the pair on its own
    _unsent: list[list[Outgoing]]  # the pushes the last pause handed over unsent
    if TYPE_CHECKING:  # the PairActor's method (the stub exists for the checker only)

        async def start(self) -> dict[str, Any]: ...

    def _handoff(self) -> dict[str, Any]:
        """What the pause hands the standby: the tail and the carried state when a tail was kept since
        before the standby loaded (``keep_tail``), else everything ``_load`` builds, as it is now."""
        handed = {"_handed": self._handover.snapshot()}
        tail = self._tail
        if tail is None or tail.lost:
            return {**{name: getattr(self, name) for name in self._MOVED_STATE}, **handed}
        return {**{name: getattr(self, name) for name in self._CARRIED}, **handed,
                "_tail": list(tail.orders.values()), "_bars": self._candles.cells(tail.bars),
                "_ticker_part": self._ticker.part(tail.minutes)}  # fmt: skip

    async def keep_tail(self) -> bytes:
        """Note every order, bar and ticker minute a batch commits from now on (a move's standby is
        about to read the database), until ``pause`` hands them over or ``resume`` drops them; answers
        the 24 h ticker as it is now, pickled (for the standby's ``preload``: the database does not hold
        it exactly). Calling it again starts the tail again."""
        await self._ready()
        self._tail = Tail()
        return pickle.dumps(self._ticker)  # now, with the tail: a batch may change the ticker right after

    async def preload(self, ticker: bytes) -> int:
        """A move's standby reads the pair from the database while the moving actor still trades (it
        keeps a tail since before this call, and answered ``ticker`` then: ``keep_tail``); ``take_over``
        then applies the tail. Answers how many open orders it read. Call once, before ``take_over``."""
        await self._ready()
        await self._read_database()
        self._preloaded = pickle.loads(ticker)  # noqa: S301 - from the pair's own actor, through Ray
        return len(self._orders)

    async def pause(self) -> dict[str, Any]:
        """Stop taking commands, let the batch being matched or committed finish, and return what the
        standby needs: the tail if one was kept (``keep_tail``), else the whole snapshot (``_handoff``).

        Commands that arrive from now on, and orders and cancels queued but not yet matched (so the
        drain waits for one batch, not two), are refused with PAIR_MOVING: they were never accepted,
        so the caller may send them again to the actor that takes over.
        """
        await self.start()
        self._commands.paused = True
        self._commands.refuse_orders(DomainError(ErrorCode.PAIR_MOVING))
        await self._commands.between_batches("barrier")
        # Not waited for: answers that wait for a release (one lost with this actor is sent again and
        # answered by the next from the database, actors.pair.handover), settlements (the next actor's
        # sweep finishes any that did not, idempotently), and pushes of the last batches: those not
        # yet on their way go with the handoff and the next actor sends them before its own.
        handoff = self._handoff()
        self._unsent = await self._effects.unsent()
        return {**handoff, "_unsent": self._unsent}

    async def standby(self) -> bool:
        """True once a move's standby is up with its database open: ready to ``take_over``."""
        await self._ready()
        return True

    async def take_over(self, handed: dict[str, Any]) -> dict[str, Any]:
        """The standby takes what the paused actor ``handed`` (its tail, applied to what ``preload``
        read, or its whole snapshot) and takes commands; answers as ``start``, and ``tail_orders`` (how
        many orders the tail held; None without one). Raises RuntimeError if this standby restarted
        since it started: it loaded the pair on its own (the move fails, the paused actor resumes)."""
        if self._restarted_standby:
            raise RuntimeError("the standby restarted and loaded the pair on its own before the pause")
        if not self._handed_in.is_set():
            for outgoing in handed.pop("_unsent", ()):  # the paused actor's last pushes, first
                self._effects.outbox.put_nowait(outgoing)
            self._handover = Handover(frozenset(handed.pop("_handed", ())))
            self._restore = handed
            self._handed_in.set()
        return {**await self.start(), "tail_orders": self._tail_applied}

    async def resume(self) -> None:
        """Take commands again (a move that could not finish gives the pair back to this actor), and
        keep no tail."""
        self._tail = None
        for outgoing in self._unsent:  # handed to a standby that will not serve: sent here after all
            self._effects.outbox.put_nowait(outgoing)
        self._unsent = []
        self._commands.paused = False
