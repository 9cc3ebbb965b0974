"""Single orders placed at the same time through one Engine share their actor calls (``Engine.hold``,
``Engine.submit``): one ``freeze_many`` per wallet shard and one ``submit_many`` per pair while the
previous call is out, each order still answered, refused or released on its own."""

from __future__ import annotations

import asyncio
from decimal import Decimal
from typing import Any

from ray.exceptions import RayActorError

from actors.engine import Engine
from actors.names import wallet_name
from actors.orders import LIMIT, OrderSpec, PairRef, place_order, place_orders
from actors.pair.state import BUY
from store.errors import DomainError, ErrorCode

PAIR = PairRef(1, "BTC/USDT", base_currency_id=2, quote_currency_id=1)


class Method:
    """An actor method: records each call's argument, answers through ``answer`` once ``gate`` opens."""

    def __init__(self, answer: Any) -> None:
        self.calls: list[Any] = []
        self.answer = answer
        self.gate = asyncio.Event()
        self.gate.set()

    def remote(self, *args: Any) -> Any:
        self.calls.append(args[0] if len(args) == 1 else args)

        async def reply() -> Any:
            await self.gate.wait()
            return self.answer(*args)

        return reply()


class Actor:
    def __init__(self, **methods: Method) -> None:
        self.__dict__.update(methods)


class Ids:
    """Order ids from 100 on, as ``IdBlocks`` hands them out (without its database)."""

    def __init__(self) -> None:
        self.last = 99

    async def next(self) -> int:
        self.last += 1
        return self.last


def engine_with(wallet: Actor, pair: Actor) -> Engine:
    engine = Engine(1)
    engine.ids = Ids()  # type: ignore[assignment]
    engine._handles[wallet_name(0)] = wallet
    engine._pair_names[PAIR.symbol] = "pair:BTC/USDT"
    engine._handles["pair:BTC/USDT"] = pair
    return engine


def place(engine: Engine, order_id: int, price: str = "100") -> Any:
    return place_order(engine, uid=order_id % 7 + 1, pair=PAIR, way=BUY, kind=LIMIT, price=Decimal(price),
                       number=Decimal(1), order_id=order_id)  # fmt: skip


def accepted(orders: list[dict[str, Any]]) -> list[Any]:
    """The pair's answers: an order priced 0 breaks a rule, the others rest."""
    return [DomainError(ErrorCode.PRICE_REQUIRED) if o["price"] == 0 else {"id": o["id"]} for o in orders]


async def test_orders_sent_while_a_call_is_out_go_together_and_are_answered_each() -> None:
    freeze_many = Method(lambda freezes: [True for _ in freezes])
    release = Method(lambda *args: True)
    submit_many = Method(accepted)
    engine = engine_with(Actor(freeze_many=freeze_many, release=release), Actor(submit_many=submit_many))
    freeze_many.gate.clear()  # the first freeze is out while nine more orders come
    first = asyncio.ensure_future(place(engine, 1))
    await asyncio.sleep(0)
    rest = [asyncio.ensure_future(place(engine, i, "0" if i == 5 else "100")) for i in range(2, 11)]
    await asyncio.sleep(0)
    freeze_many.gate.set()
    answers = await asyncio.gather(first, *rest, return_exceptions=True)

    assert [len(call) for call in freeze_many.calls] == [1, 9]
    assert sum(len(call) for call in submit_many.calls) == 10 and len(submit_many.calls) < 10
    assert [ref for call in freeze_many.calls for *_, ref in call] == [f"o{i}:freeze" for i in range(1, 11)]
    refused = answers.pop(4)
    assert isinstance(refused, DomainError) and refused.code == ErrorCode.PRICE_REQUIRED
    assert answers == [{"id": i} for i in range(1, 11) if i != 5]
    # only the refused order's freeze is released, with its own ref
    assert [call[3] for call in release.calls] == ["o5:release"]


async def test_a_freeze_refused_or_a_shard_lost_fails_only_the_orders_it_concerns() -> None:
    def freezes_answer(freezes: list[tuple[int, int, Decimal, str]]) -> list[Any]:
        return [DomainError(ErrorCode.INSUFFICIENT_BALANCE) if ref == "o3:freeze" else True for *_, ref in freezes]

    freeze_many = Method(freezes_answer)
    submit_many = Method(accepted)
    engine = engine_with(
        Actor(freeze_many=freeze_many, release=Method(lambda *a: True)), Actor(submit_many=submit_many)
    )
    answers = await asyncio.gather(*(place(engine, i) for i in (1, 2, 3, 4)), return_exceptions=True)
    assert isinstance(answers[2], DomainError) and answers[2].code == ErrorCode.INSUFFICIENT_BALANCE
    assert [a for i, a in enumerate(answers) if i != 2] == [{"id": 1}, {"id": 2}, {"id": 4}]
    assert 3 not in [o["id"] for call in submit_many.calls for o in call]  # never reached the pair

    def lost(freezes: list[Any]) -> list[Any]:
        raise RayActorError()

    engine = engine_with(Actor(freeze_many=Method(lost)), Actor(submit_many=submit_many))
    answers = await asyncio.gather(*(place(engine, i) for i in (11, 12)), return_exceptions=True)
    assert all(isinstance(a, DomainError) and a.code == ErrorCode.PAIR_UNAVAILABLE for a in answers)


async def test_batches_of_several_users_share_the_calls_and_keep_each_users_order() -> None:
    freeze_many = Method(lambda freezes: [True for _ in freezes])
    release_many = Method(lambda releases: [True for _ in releases])
    submit_many = Method(accepted)
    engine = engine_with(
        Actor(freeze_many=freeze_many, release_many=release_many, release=Method(lambda *a: True)),
        Actor(submit_many=submit_many),
    )
    freeze_many.gate.clear()  # two single orders hold a call to the shard open
    singles = [asyncio.ensure_future(place(engine, i)) for i in (1, 2)]
    await asyncio.sleep(0)

    def batch(uid: int, prices: list[str]) -> Any:
        specs = [OrderSpec(PAIR, BUY, LIMIT, Decimal(p), Decimal(1)) for p in prices]
        return asyncio.ensure_future(place_orders(engine, uid=uid, orders=specs))

    first, second = batch(8, ["100", "0", "101"]), batch(9, ["102", "103"])
    for _ in range(3):
        await asyncio.sleep(0)
    freeze_many.gate.set()
    placed = await asyncio.gather(first, second)
    await asyncio.gather(*singles)

    assert [len(call) for call in freeze_many.calls] == [2, 5]  # both users' freezes in one call
    users = [uid for uid, *_ in freeze_many.calls[1]]
    assert users == [8, 8, 8, 9, 9]
    submitted = [(o["uid"], o["price"]) for call in submit_many.calls for o in call if o["uid"] in (8, 9)]
    assert [p for uid, p in submitted if uid == 8] == [Decimal(100), Decimal(0), Decimal(101)]
    assert [p for uid, p in submitted if uid == 9] == [Decimal(102), Decimal(103)]
    refused = placed[0][1]
    assert isinstance(refused, DomainError) and refused.code == ErrorCode.PRICE_REQUIRED
    assert all(isinstance(p, dict) for p in (placed[0][0], placed[0][2], *placed[1]))
    assert [ref for call in release_many.calls for *_, ref in call] == [f"o{placed_id(freeze_many, 8, 1)}:release"]


def placed_id(freeze_many: Method, uid: int, nth: int) -> int:
    """The order id of ``uid``'s ``nth`` freeze (0-based) in the calls recorded."""
    refs = [ref for call in freeze_many.calls for u, _, _, ref in call if u == uid]
    return int(refs[nth][1:].split(":")[0])


async def test_orders_a_pause_refused_one_by_one_are_sent_again_and_placed() -> None:
    """A move's pause that comes while the pair's batch loop holds the first order of a call refuses
    the others of it, each with PAIR_MOVING (never matched): they go again, and every order is placed
    (CI's cluster test saw one such order answered "Trading is busy")."""
    seen: list[int] = []

    def paused_after_the_first(orders: list[dict[str, Any]]) -> list[Any]:
        answers: list[Any] = []
        for i, order in enumerate(orders):
            first_time = order["id"] not in seen
            seen.append(order["id"])
            answers.append(DomainError(ErrorCode.PAIR_MOVING) if first_time and i > 0 else {"id": order["id"]})
        return answers

    submit_many = Method(paused_after_the_first)
    release_many = Method(lambda releases: [True for _ in releases])
    engine = engine_with(
        Actor(freeze_many=Method(lambda freezes: [True for _ in freezes]), release_many=release_many),
        Actor(submit_many=submit_many),
    )
    specs = [OrderSpec(PAIR, BUY, LIMIT, Decimal(p), Decimal(1)) for p in ("100", "101", "102")]
    placed = await place_orders(engine, uid=3, orders=specs)
    assert placed == [{"id": 100}, {"id": 101}, {"id": 102}]
    assert [[o["id"] for o in call] for call in submit_many.calls] == [[100, 101, 102], [101, 102]]
    assert not release_many.calls  # nothing refused, nothing released
