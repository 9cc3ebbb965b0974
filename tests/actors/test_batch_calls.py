"""The batch calls of issue 15 through Ray: a wallet shard's freeze_many answers each freeze alone
(applied, replayed, refused), release_many gives them back; a pair's submit_many and cancel_many
answer each command as submit and cancel would."""

from __future__ import annotations

import time
from decimal import Decimal
from typing import Any

import httpx
import pytest
import ray

from actors.names import SUBMIT_DEADLINE_MS, wallet_name
from actors.pair.directory import pair_actor
from actors.pair.state import BUY
from actors.wallet import legs
from serve.stack import Stack
from store.errors import DomainError, ErrorCode
from store.ids import IdBlocks
from store.models import OrderHold
from tests.utils.users import Member, member
from tests.utils.wallets import USDT, balance, fund

# Order ids come from the API's own allocator: an id made up here would become a stored order's id, the
# allocator's next block would start above it, and the API would then hand out ids whose refs this
# module had already journaled (REF_CONFLICT for some later test's order).
ORDER_IDS = IdBlocks()


@pytest.fixture
async def alice(api: httpx.Client, db: None) -> Member:
    user = member(api)
    await fund(user, "USDT", "1000")
    return user


def shard(stack: Stack, uid: int) -> Any:
    return ray.get_actor(wallet_name(legs.shard_of(uid, stack.settings.wallet_shards)))


def codes(answers: list[Any]) -> list[Any]:
    return [a.code if isinstance(a, DomainError) else a for a in answers]


async def test_freeze_many_answers_each_freeze_alone(stack: Stack, api: httpx.Client, alice: Member) -> None:
    wallet = shard(stack, alice.uid)
    first, second, unused = [await ORDER_IDS.next() for _ in range(3)]
    answers = await wallet.freeze_many.remote([
        (alice.uid, USDT, Decimal(10), f"o{first}:freeze"),
        (alice.uid, USDT, Decimal(5000), f"o{unused}:freeze"),  # more than she has
        (alice.uid, USDT, Decimal(20), f"o{second}:freeze"),
        (alice.uid, USDT, Decimal(10), f"o{first}:freeze"),  # replayed: a success that changes nothing
        (alice.uid, USDT, Decimal(11), f"o{first}:freeze"),  # the same ref for another amount
    ])  # fmt: skip
    assert codes(answers) == [True, ErrorCode.INSUFFICIENT_BALANCE, True, False, ErrorCode.REF_CONFLICT]
    assert balance(api, alice, USDT) == (Decimal(970), Decimal(30))
    assert await OrderHold.filter(order_id__in=[first, second]).count() == 2
    released = await wallet.release_many.remote([
        (alice.uid, USDT, Decimal(10), f"o{first}:release"),
        (alice.uid, USDT, Decimal(20), f"o{second}:release"),
        (alice.uid, USDT, Decimal(10), f"o{first}:release"),  # replayed
    ])  # fmt: skip
    assert released == [True, True, False]
    assert balance(api, alice, USDT) == (Decimal(1000), Decimal(0))
    assert not await OrderHold.filter(order_id__in=[first, second]).exists()


async def test_submit_many_and_cancel_many_answer_each_command(stack: Stack, api: httpx.Client, alice: Member) -> None:
    wallet, pair = shard(stack, alice.uid), pair_actor("BTC/USDT")
    ids = [await ORDER_IDS.next() for _ in range(2)]
    held = await wallet.freeze_many.remote([(alice.uid, USDT, Decimal(30), f"o{i}:freeze") for i in ids])
    assert held == [True, True]
    now = int(time.time() * 1000)
    order = {"uid": alice.uid, "way": BUY, "kind": 1, "price": Decimal(30000), "number": Decimal("0.001"),
             "frozen": Decimal(30), "budget": Decimal(0)}  # fmt: skip
    answers = await pair.submit_many.remote([
        {**order, "id": ids[0], "sent_ms": now},
        {**order, "id": ids[1], "sent_ms": now - SUBMIT_DEADLINE_MS - 1000},  # too late: refused alone
    ])  # fmt: skip
    assert answers[0]["id"] == ids[0] and answers[0]["status"] == 1
    assert codes(answers[1:]) == [ErrorCode.PAIR_UNAVAILABLE]
    await wallet.release_many.remote([(alice.uid, USDT, Decimal(30), f"o{ids[1]}:release")])
    cancelled = await pair.cancel_many.remote([ids[0], ids[0], ids[1]], alice.uid)
    assert cancelled[0]["id"] == ids[0] and cancelled[0]["status"] == 4
    assert codes(cancelled[1:]) == [ErrorCode.ORDER_NOT_OPEN, ErrorCode.ORDER_NOT_FOUND]
    assert balance(api, alice, USDT) == (Decimal(1000), Decimal(0))  # the cancel answers once funds are back


async def test_freezes_and_releases_of_several_users_group_each_user_in_order_and_refuse_alone(
    stack: Stack, api: httpx.Client, alice: Member
) -> None:
    """alice and bob (one shard) freeze in one call: alice's second freeze would only fit before her
    first, and is refused because hers go in the order sent; bob's land beside them. Then one
    release_many over both: bob's release asks more than he holds and is refused alone (raised once
    the others landed); alice's lands and ends her order's hold, and a second call replays it."""
    wallet = shard(stack, alice.uid)
    bob = member(api)
    while legs.shard_of(bob.uid, stack.settings.wallet_shards) != legs.shard_of(
        alice.uid, stack.settings.wallet_shards
    ):
        bob = member(api)
    await fund(bob, "USDT", "100")
    a1, a2, b1, b2 = [await ORDER_IDS.next() for _ in range(4)]
    answers = await wallet.freeze_many.remote([
        (alice.uid, USDT, Decimal(600), f"o{a1}:freeze"),
        (bob.uid, USDT, Decimal(40), f"o{b1}:freeze"),
        (alice.uid, USDT, Decimal(500), f"o{a2}:freeze"),  # 400 left after her first
        (bob.uid, USDT, Decimal(60), f"o{b2}:freeze"),
    ])  # fmt: skip
    assert codes(answers) == [True, True, ErrorCode.INSUFFICIENT_BALANCE, True]
    assert balance(api, alice, USDT) == (Decimal(400), Decimal(600))
    assert balance(api, bob, USDT) == (Decimal(0), Decimal(100))

    releases = [
        (bob.uid, USDT, Decimal(150), f"o{b1}:release"),  # more than bob's lock: refused
        (alice.uid, USDT, Decimal(600), f"o{a1}:release"),
        (bob.uid, USDT, Decimal(60), f"o{b2}:release"),
    ]
    with pytest.raises(DomainError) as refused:
        await wallet.release_many.remote(releases)
    assert refused.value.code == ErrorCode.INSUFFICIENT_BALANCE
    assert balance(api, alice, USDT) == (Decimal(1000), Decimal(0))
    assert balance(api, bob, USDT) == (Decimal(60), Decimal(40))
    assert set(await OrderHold.filter(order_id__in=[a1, b1, b2]).values_list("order_id", flat=True)) == {b1}
    assert await wallet.release_many.remote(releases[1:]) == [False, False]  # both applied before
    assert await wallet.release.remote(bob.uid, USDT, Decimal(40), f"o{b1}:release") is True
    assert balance(api, bob, USDT) == (Decimal(100), Decimal(0))
    assert not await OrderHold.filter(order_id__in=[a1, b1, b2]).exists()
