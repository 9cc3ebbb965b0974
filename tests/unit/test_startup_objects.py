"""An actor's startup objects are out of the cyclic garbage collector's reach (``gc.freeze``): a full
collection no longer walks the ~170,000 objects of a worker's modules (87-116 ms in a MicroTimer in
the middle of a settlement), while what the actor makes afterwards is collected as before; a
collection that still pauses the process is counted and logged (``GcPauses``)."""

from __future__ import annotations

import gc
import logging
from collections.abc import Iterator

import pytest

from actors import runtime
from actors.runtime import DbActor, GcPauses
from config.settings import Settings


class _Node:
    """An object in a reference cycle: only the cyclic collector could ever free it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def unfrozen() -> Iterator[None]:
    yield
    gc.unfreeze()  # the test process's objects go back to the oldest generation
    gc.callbacks[:] = [c for c in gc.callbacks if not isinstance(c, GcPauses)]  # and its collections go unwatched


def _tracked(node: _Node) -> bool:
    return any(o is node for o in gc.get_objects())


def test_what_exists_when_an_actor_starts_is_never_walked_and_what_comes_later_is(
    settings: Settings, unfrozen: None
) -> None:
    before = _Node()
    assert _tracked(before)
    DbActor(settings.model_dump(mode="json"))
    after = _Node()
    assert not _tracked(before) and gc.get_freeze_count() > 0
    assert _tracked(after)
    gc.collect()  # a full collection leaves the frozen object alone and frees a later cycle
    assert before.me is before
    gone = _Node()
    probe = [id(gone)]
    del gone
    gc.collect()
    assert not any(id(o) == probe[0] and isinstance(o, _Node) for o in gc.get_objects())


def test_a_process_watches_its_collections_once_and_logs_the_long_ones(
    settings: Settings, unfrozen: None, caplog: pytest.LogCaptureFixture
) -> None:
    DbActor(settings.model_dump(mode="json"))
    DbActor(settings.model_dump(mode="json"))  # a second actor's start installs nothing more
    watching = [c for c in gc.callbacks if isinstance(c, GcPauses)]
    assert len(watching) == 1
    pauses = watching[0]
    full = pauses.collections[2]
    gc.collect()
    assert pauses.collections[2] == full + 1
    clock = iter([10.0, 10.005, 20.0, 20.090])
    timed = GcPauses(lambda: next(clock))  # not installed: fed a 5 ms and a 90 ms collection by hand
    gc.disable()  # no real collection may read the clock meanwhile
    try:
        with caplog.at_level(logging.WARNING, logger=runtime.__name__):
            timed("start", {"generation": 0, "collected": 0, "uncollectable": 0})
            timed("stop", {"generation": 0, "collected": 3, "uncollectable": 0})
            assert not caplog.records
            timed("start", {"generation": 2, "collected": 0, "uncollectable": 0})
            timed("stop", {"generation": 2, "collected": 7, "uncollectable": 0})
    finally:
        gc.enable()
    assert [r.getMessage().split(" (")[0] for r in caplog.records] == [
        "gc: a generation 2 collection took 90 ms of CPU"
    ]
    assert timed.collections == [1, 0, 1]
    assert timed.longest_ms == pytest.approx(90.0)
