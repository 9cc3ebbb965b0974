"""GroupCommit batches what queues behind a running commit and answers each caller alone."""

from __future__ import annotations

import asyncio

import pytest

from actors.runtime import GroupCommit


async def test_items_queued_behind_a_commit_share_the_next_one() -> None:
    batches: list[list[int]] = []
    gate = asyncio.Event()

    async def commit(items: list[int]) -> list[int | BaseException]:
        batches.append(items)
        if len(batches) == 1:
            await gate.wait()  # hold the first transaction open while more items arrive
        return [ValueError(i) if i < 0 else i * 10 for i in items]

    group: GroupCommit[int, int] = GroupCommit(commit, max_batch=3)
    first = asyncio.ensure_future(group.submit(1))
    await asyncio.sleep(0)
    rest = [asyncio.ensure_future(group.submit(i)) for i in (2, -3, 4, 5)]
    await asyncio.sleep(0)
    gate.set()
    assert await first == 10
    outcomes = await asyncio.gather(*rest, return_exceptions=True)
    assert outcomes[0] == 20 and isinstance(outcomes[1], ValueError) and outcomes[2:] == [40, 50]
    assert batches == [[1], [2, -3, 4], [5]]


async def test_a_failed_commit_fails_its_whole_batch_and_the_next_batch_still_runs() -> None:
    calls = 0

    async def commit(items: list[str]) -> list[str | BaseException]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise ConnectionError("database went away")
        return [item.upper() for item in items]

    group: GroupCommit[str, str] = GroupCommit(commit)
    with pytest.raises(ConnectionError):
        await group.submit("a")
    assert await group.submit("b") == "B"


async def test_many_items_handed_over_at_once_queue_in_order_behind_the_running_commit() -> None:
    batches: list[list[int]] = []
    gate = asyncio.Event()

    async def commit(items: list[int]) -> list[int | BaseException]:
        batches.append(items)
        if len(batches) == 1:
            await gate.wait()
        return [ValueError(i) if i < 0 else i + 100 for i in items]

    group: GroupCommit[int, int] = GroupCommit(commit, max_batch=4)
    first = group.submit_many([1, 2])
    await asyncio.sleep(0)  # the first commit runs with both
    later = group.submit_many([3, -4, 5, 6, 7])
    assert not any(f.done() for f in later)
    gate.set()
    assert await asyncio.gather(*first) == [101, 102]
    outcomes = await asyncio.gather(*later, return_exceptions=True)
    assert outcomes[0] == 103 and isinstance(outcomes[1], ValueError) and outcomes[2:] == [105, 106, 107]
    assert batches == [[1, 2], [3, -4, 5, 6], [7]]


async def test_with_two_at_a_time_items_arriving_during_a_commit_start_the_second_at_once() -> None:
    """A second commit starts while the first is held open; a third waits for one of them, and takes
    everything queued meanwhile, oldest first."""
    batches: list[list[int]] = []
    gates = [asyncio.Event(), asyncio.Event(), asyncio.Event()]

    async def commit(items: list[int]) -> list[int | BaseException]:
        index = len(batches)
        batches.append(items)
        await gates[min(index, 2)].wait()
        return [i * 2 for i in items]

    group: GroupCommit[int, int] = GroupCommit(commit, max_batch=10, concurrency=2)
    first = group.submit_many([1, 2])
    await asyncio.sleep(0)
    second = group.submit_many([3])
    await asyncio.sleep(0)
    assert batches == [[1, 2], [3]]  # both running: the second did not wait for the first
    third = group.submit_many([4, 5])
    fourth = group.submit_many([6])
    await asyncio.sleep(0)
    assert batches == [[1, 2], [3]]  # no third commit while two run
    gates[1].set()
    assert await asyncio.gather(*second) == [6]
    await asyncio.sleep(0)
    assert batches == [[1, 2], [3], [4, 5, 6]]
    gates[2].set()
    gates[0].set()
    assert await asyncio.gather(*first, *third, *fourth) == [2, 4, 8, 10, 12]
