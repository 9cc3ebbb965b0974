"""The one queue a pair's commands wait in, and whether the pair takes them now.

Orders and cancels wait in it for the batch loop (``actors.pair.actor``), and so do the mark's looks
(``tick``), the health check (``ping``), the fences, the barrier of a move and the check after it: none
overtakes a batch, and a pair whose loop is stuck answers no ping and ticks no more. A command waits
at most ``LOAD_WAIT_S`` for the pair's first load (the pair's ``Lifecycle``, ``actors.lifecycle``);
while the pair reloads it is refused at once (PAIR_UNAVAILABLE), and so is every command still
queued; while the pair is paused for a move, every command but a fence or a barrier is refused
(PAIR_MOVING), the orders and cancels it had queued but not yet matched too, and the mark is not
looked at. A refused command was never matched, so its caller may release its freeze or send it
again.

The queue is an object the PairActor owns (no mixin): the actor's lifecycle says whether it is loaded
and healthy (its loads), the actor sets ``paused`` (a move), its calls wait here, and its batch loop
``take``s what queued up.
"""

from __future__ import annotations

import asyncio
from typing import Any

from actors.lifecycle import Lifecycle
from store.errors import DomainError, ErrorCode, OutcomeUnknown

Command = tuple[str, Any, "asyncio.Future[Any] | None"]


class CommandQueue:
    def __init__(self, life: Lifecycle) -> None:
        self._queue: asyncio.Queue[Command] = asyncio.Queue()
        self._life = life  # loaded, and healthy (serving; not while it reloads): PAIR_UNAVAILABLE else
        self.paused = False  # moving to another node: commands are refused with PAIR_MOVING

    @property
    def healthy(self) -> bool:
        return self._life.healthy

    async def wait_loaded(self) -> None:
        await self._life.wait_loaded()

    async def serving(self) -> None:
        await self._life.serving()

    async def send(self, kind: str, payload: Any) -> Any:
        """Queue one command and answer what the batch loop answers it."""
        await self.serving()
        if self.paused:
            raise DomainError(ErrorCode.PAIR_MOVING)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put((kind, payload, future))
        return await future

    async def send_many(self, kind: str, payloads: list[Any]) -> list[Any]:
        """Queue every command at once (so they share a batch) and answer each alone."""
        await self.serving()
        if self.paused:
            raise DomainError(ErrorCode.PAIR_MOVING)
        loop = asyncio.get_running_loop()
        futures: list[asyncio.Future[Any]] = []
        for payload in payloads:
            futures.append(loop.create_future())
            self._queue.put_nowait((kind, payload, futures[-1]))
        answers = await asyncio.gather(*futures, return_exceptions=True)
        if all(isinstance(a, DomainError) and a.code == ErrorCode.PAIR_MOVING for a in answers):
            raise DomainError(ErrorCode.PAIR_MOVING)  # a move's pause refused them all, unmatched (refuse_orders)
        # Only rules refuse a command; anything else leaves its outcome to the reconcilers.
        return [a if isinstance(a, dict | DomainError) else OutcomeUnknown(ErrorCode.PAIR_UNAVAILABLE) for a in answers]

    async def between_batches(self, kind: str) -> Any:
        """Queue ``kind`` (a fence, a barrier) also while the pair is paused; the batch loop answers it
        after every command queued before it has committed."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put((kind, None, future))
        return await future

    def tick(self) -> None:
        """Queue a look at the mark (nobody waits for it), unless the pair is reloading or paused (a
        paused pair's state went with its snapshot)."""
        if self.healthy and not self.paused:
            self._queue.put_nowait(("tick", None, None))

    async def take(self, window_s: float) -> list[Command]:
        """The next batch: the first command to come, and everything queued ``window_s`` after it."""
        commands = [await self._queue.get()]
        if window_s:
            await asyncio.sleep(window_s)
        while not self._queue.empty():
            commands.append(self._queue.get_nowait())
        return commands

    def refuse_orders(self, error: Exception) -> None:
        """Answer ``error`` to every submit and cancel still queued (a move's pause: they were never
        matched, so their callers send them again to the next actor), and drop the looks at the mark
        (``tick``: nobody waits for one, and a tick the paused actor committed after its state went to
        the standby would take the tick id the standby writes next); the rest stays queued, in order.
        The commands of one ``send_many`` are queued at once, but a batch loop waiting for its first
        command takes that one and waits the batch window for more: a pause meanwhile refuses the rest
        of them here, each on its own (``Engine.ask_many`` sends those again)."""
        kept = []
        while not self._queue.empty():
            command = self._queue.get_nowait()
            if command[0] in ("submit", "cancel"):
                answer_all([command], error)
            elif command[0] != "tick":
                kept.append(command)
        for command in kept:
            self._queue.put_nowait(command)

    def refuse_queued(self, error: Exception) -> None:
        """Answer ``error`` to every command still queued."""
        queued = []
        while not self._queue.empty():
            queued.append(self._queue.get_nowait())
        answer_all(queued, error)


def answer_all(commands: list[Command], error: Exception) -> None:
    for _, _, future in commands:
        if future is not None and not future.done():
            future.set_exception(error)


async def answer_after(release: asyncio.Task[bool], future: asyncio.Future[Any], answer: Any) -> None:
    """Answer once ``release`` is done: a caller whose order is final learns of it with its funds back."""
    await release
    if not future.done():
        future.set_result(answer)
