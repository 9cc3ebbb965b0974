"""A second contract's id puts it in its user's MicroTimer (``actors.micro.contract_id``): every id of one
user maps to the shard of the user's wallet, ids never repeat, and none falls below the allocator's
numbers already handed out as ids."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from actors.micro import contract_id
from actors.wallet.legs import shard_of


@given(shards=st.integers(1, 64), uids=st.lists(st.integers(1, 10**9), min_size=1, max_size=50),
       first=st.integers(1, 10**12))  # fmt: skip
def test_each_users_contracts_are_in_the_users_shard_and_unique(shards: int, uids: list[int], first: int) -> None:
    ids = [contract_id(first + i, uid, shards) for i, uid in enumerate(uids)]
    assert [i % shards for i in ids] == [shard_of(uid, shards) for uid in uids]
    assert len(set(ids)) == len(ids)
    assert all(i >= first + n for n, i in enumerate(ids))  # above the numbers, so above ids made of them before


def test_one_shard_keeps_the_allocators_numbers() -> None:
    assert [contract_id(n, uid, 1) for n, uid in ((7, 3), (8, 4), (9, 3))] == [7, 8, 9]
