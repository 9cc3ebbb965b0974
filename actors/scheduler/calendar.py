"""Which days a daily job owes (pure: no I/O, no Ray). A day is a UTC day, counted from 1970-01-01."""

from __future__ import annotations

DAY_MS = 86_400_000


def due_day(now_ms: int, at_s: int) -> int:
    """The latest day whose run time (``at_s`` seconds after that day's 00:00 UTC) is not after ``now_ms``."""
    return (now_ms - at_s * 1000) // DAY_MS


def owed(last_done: int | None, due: int) -> range:
    """The days to run, in order: every day after the last one done, up to the due one. A job that
    never ran owes only the due day (its first), not every day since 1970."""
    return range(due if last_done is None else last_done + 1, due + 1)


def next_run_ms(now_ms: int, at_s: int, last_done: int | None) -> int:
    """When the next run owed is due (ms since the epoch): in the past while one is owed now (a failed
    run waiting for its retry), else the first day after the last one done (the clock may have run
    ahead of real time and back)."""
    first = due_day(now_ms, at_s) if last_done is None else last_done + 1
    return first * DAY_MS + at_s * 1000
