"""Which days a daily job owes (actors/scheduler/calendar.py)."""

from __future__ import annotations

from actors.scheduler.calendar import DAY_MS, due_day, next_run_ms, owed

DAY = 20_000  # a UTC day, counted from 1970-01-01
MIDNIGHT = DAY * DAY_MS


def test_a_day_is_due_from_its_run_time_on() -> None:
    assert due_day(MIDNIGHT - 1, 0) == DAY - 1
    assert due_day(MIDNIGHT, 0) == DAY
    assert due_day(MIDNIGHT + 3600_000 - 1, 3600) == DAY - 1  # a job at 01:00 UTC
    assert due_day(MIDNIGHT + 3600_000, 3600) == DAY


def test_owed_days_follow_the_last_one_done_in_order() -> None:
    assert list(owed(DAY, DAY)) == []
    assert list(owed(DAY - 1, DAY)) == [DAY]
    assert list(owed(DAY - 3, DAY)) == [DAY - 2, DAY - 1, DAY]  # three missed midnights, oldest first
    assert list(owed(DAY + 2, DAY)) == []  # done ahead by a clock moved forward, then back


def test_a_job_that_never_ran_owes_only_the_current_day() -> None:
    assert list(owed(None, DAY)) == [DAY]


def test_the_next_run_is_the_first_day_not_done() -> None:
    noon = MIDNIGHT + DAY_MS // 2
    assert next_run_ms(noon, 0, DAY) == MIDNIGHT + DAY_MS
    assert next_run_ms(noon, 0, DAY + 1) == MIDNIGHT + 2 * DAY_MS  # done ahead: not before the day after
    assert next_run_ms(noon, 0, DAY - 1) == MIDNIGHT  # owed now (a failed run waiting for its retry)
    assert next_run_ms(noon, 3600, None) == MIDNIGHT + 3600_000
