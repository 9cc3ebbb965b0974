"""A MicroTimer's copy of one pair's tick log: the ticks since the oldest open contract was accepted,
gapless by seq, and how far it is complete in time."""

from __future__ import annotations

from bisect import bisect_right

from store.micro.settle import TickView

RETRY_MS = 200  # a pair that has not confirmed its ticks up to a decision time: look again this much later


class Tape:
    def __init__(self) -> None:
        self.ticks: list[TickView] = []
        self.times: list[int] = []
        self.last_seq = 0  # the seq of the last tick on the tape (0: none yet)
        # Every tick stamped before this time is on the tape: the last tick's time + 1, or a fence of
        # the pair (``PairActor.tick_fence``) that came later.
        self.complete_before = 0

    def reset(self, after_seq: int) -> None:
        """Start empty, the next tick expected being ``after_seq + 1``."""
        self.ticks, self.times, self.last_seq, self.complete_before = [], [], after_seq, 0

    def append(self, tick: TickView) -> bool:
        """Add the next tick; False (nothing added) if it is not the one after the last."""
        if tick.seq != self.last_seq + 1:
            return False
        self.ticks.append(tick)
        self.times.append(tick.time_ms)
        self.last_seq = tick.seq
        self.complete_before = max(self.complete_before, tick.time_ms + 1)
        return True

    def fenced(self, seq: int, as_of_ms: int) -> bool:
        """The pair answered a fence: if the tape holds its every tick up to ``seq``, it is complete
        up to ``as_of_ms``. False when the tape is behind (fill it from the log, then try again)."""
        if self.last_seq < seq:
            return False
        self.complete_before = max(self.complete_before, as_of_ms)
        return True

    def wake_at(self, decided_by: int, now: int) -> int | None:
        """When to look again at a due contract whose outcome can be decided at ``decided_by``: None
        if the tape decides it now; ``decided_by`` + 1 if that is still to come (it was woken at its
        entry deadline and its entry tick has come since: it is due at its end, however soon); else
        RETRY_MS later (the pair has not confirmed its ticks that far)."""
        if decided_by < self.complete_before:
            return None
        return decided_by + 1 if decided_by >= now else now + RETRY_MS

    def trim(self, keep_after_ms: int) -> None:
        """Forget ticks no open contract can need: keep the last one at or before ``keep_after_ms``
        and everything later."""
        cut = max(0, bisect_right(self.times, keep_after_ms) - 1)
        if cut:
            del self.ticks[:cut], self.times[:cut]
