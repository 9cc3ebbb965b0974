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


def _owner(item: str) -> str:
    return item[0]  # "a1" belongs to a


async def test_with_owners_a_user_in_a_running_commit_waits_and_the_others_go_beside_it() -> None:
    """alice's first freeze holds a transaction open; bob's items start another at once, while alice's
    later items (and nobody's item behind them) wait for hers, and then go in the order they came."""
    batches: list[list[str]] = []
    gates: dict[str, asyncio.Event] = {"a1": asyncio.Event()}

    async def commit(items: list[str]) -> list[str | BaseException]:
        batches.append(items)
        if items[0] in gates:
            await gates[items[0]].wait()
        return [ValueError(i) if i.endswith("!") else i.upper() for i in items]

    group: GroupCommit[str, str] = GroupCommit(commit, concurrency=3, owners=lambda i: {_owner(i)})
    alice_first = group.submit_many(["a1"])
    await asyncio.sleep(0)
    later = group.submit_many(["a2", "b1", "b2!", "a3", "c1"])
    await asyncio.sleep(0)
    assert batches == [["a1"], ["b1", "b2!", "c1"]]  # alice's a2, a3 wait behind a1
    assert await later[1] == "B1" and await later[4] == "C1"
    with pytest.raises(ValueError):  # refused alone: bob's b1 and carol's c1 landed with it
        await later[2]
    assert not later[0].done() and not later[3].done()
    gates["a1"].set()
    assert await alice_first[0] == "A1"
    assert [await later[0], await later[3]] == ["A2", "A3"]
    assert batches[2] == ["a2", "a3"]


async def test_with_owners_a_failed_commit_fails_its_own_batch_only() -> None:
    gate = asyncio.Event()

    async def commit(items: list[str]) -> list[str | BaseException]:
        if "a1" in items:
            await gate.wait()
            raise ConnectionError("this transaction's connection went away")
        return [item.upper() for item in items]

    group: GroupCommit[str, str] = GroupCommit(commit, concurrency=2, owners=lambda i: {_owner(i)})
    alice = group.submit_many(["a1"])
    await asyncio.sleep(0)
    bob = group.submit_many(["b1"])
    assert await bob[0] == "B1"
    alice_next = group.submit_many(["a2"])
    gate.set()
    with pytest.raises(ConnectionError):
        await alice[0]
    assert await alice_next[0] == "A2"  # after alice's failed one, never beside it


async def test_with_owners_an_item_of_two_owners_waits_for_both() -> None:
    gates = {"a": asyncio.Event(), "b": asyncio.Event()}
    batches: list[list[str]] = []

    async def commit(items: list[str]) -> list[str | BaseException]:
        batches.append(items)
        if len(items[0]) == 1:
            await gates[items[0]].wait()
        return items

    group: GroupCommit[str, str] = GroupCommit(commit, concurrency=3, owners=lambda i: set(i.split("+")[0]))
    first = group.submit_many(["a"])
    await asyncio.sleep(0)
    second = group.submit_many(["b"])
    await asyncio.sleep(0)
    both = group.submit_many(["ab+x"])
    await asyncio.sleep(0)
    assert batches == [["a"], ["b"]]
    gates["a"].set()
    await first[0]
    await asyncio.sleep(0)
    assert not both[0].done()  # bob's transaction still runs
    gates["b"].set()
    await second[0]
    assert await both[0] == "ab+x"
