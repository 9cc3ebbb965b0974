"""The move's side of a pair's actor (``actors.pair.placement`` runs the move): the moving actor keeps
a tail and pauses; its standby reads the database ahead, then takes over what the pause hands it
(``actors.pair.tail``) or, without a tail, the whole snapshot; a move that fails resumes the old one.

Mixed into the PairActor, over ``PairLoading`` (which builds the state from what is handed over).
"""

from __future__ import annotations

import asyncio
import contextlib
import pickle
from typing import TYPE_CHECKING, Any

import ray

from actors.names import pair_generation, pair_name
from actors.pair.commands import Command, CommandQueue, answer_all
from actors.pair.directory import generations
from actors.pair.effects import Outgoing, PairEffects
from actors.pair.handover import Handover, InFlight, committed
from actors.pair.loading import PairLoading
from actors.pair.mark_clock import MarkClock
from actors.pair.matching import Batch
from actors.pair.tail import Tail
from store import spot
from store.errors import DomainError, ErrorCode

COMMIT_WAIT_S = 60.0  # how long a standby waits for the commit its predecessor paused with


class PairMoving(PairLoading):
    """Mixed into the PairActor."""

    _commands: CommandQueue
    _effects: PairEffects
    _handed_in: asyncio.Event  # set once there is something to load (at once, unless a standby)
    _restarted_standby: bool  # a standby Ray restarted: it loaded the pair on its own
    _unsent: list[list[Outgoing]]  # the pushes the last pause handed over unsent
    _clock: MarkClock
    _in_flight: InFlight | None  # the batch whose commit is running
    _persisting: asyncio.Event  # set while it runs
    _handed_in_flight: InFlight | None  # the one the last pause handed over with its commit running
    _predecessor: Any  # a standby's: the actor that paused with a commit running, until it has ended
    _predecessor_done: dict[str, Any] | None  # how that commit ended, once it has
    if TYPE_CHECKING:  # the PairActor's methods (the stubs exist for the checker only)

        async def start(self) -> dict[str, Any]: ...

        async def _recover(self) -> None: ...

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
        it exactly). Calling it again starts the tail again. A batch whose commit is running is in the
        tail from the start: the standby's read may come before its commit."""
        await self._ready()
        self._tail = Tail()
        if self._in_flight is not None:
            self._tail.record(self._in_flight.batch)
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
        """Stop taking commands and return what the standby needs: the tail if one was kept
        (``keep_tail``), else the whole snapshot (``_handoff``), as the batch being matched or committed
        leaves the pair.

        Commands that arrive from now on, and orders and cancels queued but not yet matched (so the
        drain waits for one batch, not two), are refused with PAIR_MOVING: they were never accepted,
        so the caller may send them again to the actor that takes over. The pause waits for the batch
        in flight to be matched, not committed: if its commit is running, it goes with the handoff
        (``_in_flight``: this actor still answers its callers; the standby matches nothing before it
        has ended, ``committed``).
        """
        await self.start()
        self._commands.paused = True
        self._commands.refuse_orders(DomainError(ErrorCode.PAIR_MOVING))
        in_flight = await self._drain()
        # Not waited for: answers that wait for a release (one lost with this actor is sent again and
        # answered by the next from the database, actors.pair.handover), settlements (the next actor's
        # sweep finishes any that did not, idempotently), and pushes of the last batches: those not
        # yet on their way go with the handoff and the next actor sends them before its own.
        handoff = self._handoff()
        self._unsent = await self._effects.unsent()
        mine = ray.get_runtime_context().current_actor if in_flight is not None else None
        return {**handoff, "_unsent": self._unsent, "_predecessor": mine}

    async def _drain(self) -> InFlight | None:
        """Wait until the batch loop has committed everything it took before the pause, or is
        committing its last batch: that batch (now handed over), or None."""
        barrier = asyncio.ensure_future(self._commands.between_batches("barrier"))
        barrier.add_done_callback(lambda done: done.cancelled() or done.exception())  # nobody may wait for it
        persisting = asyncio.ensure_future(self._persisting.wait())
        try:
            await asyncio.wait({barrier, persisting}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            persisting.cancel()
        in_flight = self._in_flight  # None if that commit ended meanwhile: the barrier comes next
        if in_flight is None:
            await barrier
            return None
        in_flight.hand()
        self._handed_in_flight = in_flight
        return in_flight

    async def _persist(self, writes: dict[str, Any], batch: Batch, outgoing: list[Outgoing]) -> list[Outgoing]:
        """Commit a batch's writes (``store.spot.persist_batch``) as the batch in flight, which a move's
        pause may hand over meanwhile (``_drain``). Answers the pushes this actor still sends: none if
        a standby took them over."""
        in_flight = self._in_flight = InFlight(batch, outgoing)
        self._persisting.set()
        try:
            await spot.persist_batch(**writes)
        except BaseException:
            in_flight.end(ok=False)
            raise
        finally:
            self._in_flight = None
            self._persisting.clear()
        return [] if in_flight.end(ok=True) else outgoing

    async def _refused_after_handoff(self, commands: list[Command]) -> bool:
        """A batch whose commit failed after a move's pause handed the pair over with it: the pair is the
        standby's now (it loads from the database), and the batch's callers send again to it, which
        answers whatever the database holds of them as stored (their ids went with the handoff). This
        actor loads its own state again, should the move not finish (``resume``). True if so."""
        if self._handed_in_flight is None:
            return False
        answer_all(commands, DomainError(ErrorCode.PAIR_MOVING))
        await self._load()
        return True

    async def committed(self) -> dict[str, Any]:
        """Once the commit a move's pause handed over while it ran has ended: whether it is durable,
        its trades and pushes (``actors.pair.handover.InFlight``); at once ``ok`` with nothing if no
        commit was running at the pause. The standby asks before its first batch (a standby Ray
        restarted, before it reads the database); the placement retires this actor only after that."""
        in_flight = self._handed_in_flight
        if in_flight is None or in_flight.done is None:
            return committed(True)
        return await asyncio.shield(in_flight.done)

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
            self._predecessor = handed.pop("_predecessor", None)
            self._restore = handed
            self._handed_in.set()
        return {**await self.start(), "tail_orders": self._tail_applied, "in_flight": self._predecessor is not None}

    async def resume(self) -> None:
        """Take commands again (a move that could not finish gives the pair back to this actor), and
        keep no tail."""
        self._tail = None
        for outgoing in self._unsent:  # handed to a standby that will not serve: sent here after all
            self._effects.outbox.put_nowait(outgoing)
        self._unsent = []
        in_flight, self._handed_in_flight = self._handed_in_flight, None
        if in_flight is not None and in_flight.done is not None:  # the batch's pushes are this actor's again
            if in_flight.done.done():
                if in_flight.done.result()["outgoing"]:
                    self._effects.outbox.put_nowait(in_flight.done.result()["outgoing"])
            else:
                in_flight.handed = False
        self._commands.paused = False

    async def _predecessor_ended(self) -> dict[str, Any] | None:
        """For a standby that took over while its predecessor's last commit ran (``pause``): once that
        commit has ended, how (``committed``; not ok if the predecessor is gone without saying). None
        for any other actor."""
        if self._predecessor is not None and self._predecessor_done is None:
            try:
                self._predecessor_done = await asyncio.wait_for(self._predecessor.committed.remote(), COMMIT_WAIT_S)
            except Exception:
                self._predecessor_done = committed(False)
        return self._predecessor_done

    async def _take_in_predecessor(self) -> None:
        """Before the first batch of a standby that took over while its predecessor's last commit ran:
        once that commit has ended, send its pushes and take its trades into the mark; if it failed,
        the database is the truth: load the pair from it."""
        done = await self._predecessor_ended()
        self._predecessor = self._predecessor_done = None
        if done is None:
            return
        if not done["ok"]:
            await self._recover()
            return
        if done["outgoing"]:
            self._effects.outbox.put_nowait(done["outgoing"])
        self._clock.take_in(self._ticks, self._mark, done["trades"], done["now_ms"], self._book)

    async def _older_commits_ended(self) -> None:
        """A standby Ray restarted loads the pair from the database: first, the commit an older
        generation paused with (if any) has ended, so the read does not miss it."""
        name = ray.get_runtime_context().get_actor_name() or ""
        symbol = name.removeprefix("pair:").split("@")[0]
        own = pair_generation(name, symbol)
        for generation in await asyncio.to_thread(generations, symbol):
            if own is not None and generation < own:
                with contextlib.suppress(Exception):  # gone: nothing of it is still committing
                    await asyncio.wait_for(ray.get_actor(pair_name(symbol, generation)).committed.remote(),
                                           COMMIT_WAIT_S)  # fmt: skip
