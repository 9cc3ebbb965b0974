"""How callers reach the actors (docs/architecture.md "Typed calls"): ``Engine`` finds pair, wallet,
lever and MicroTimer actors by name, rides out a pair's move and shares single orders' calls. The
order path that uses it, hold then match, is ``actors.orders``."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from decimal import Decimal
from typing import Any

import ray
from ray.exceptions import RayActorError
from redis.asyncio import Redis
from redis.exceptions import RedisError

from actors.commands import LeverOrder, LeverOverview, Stake
from actors.names import PAIR_AT, PAIR_MOVED, PAIR_MOVING, lever_name, micro_name, pair_name, wallet_name
from actors.pair.directory import live_name
from actors.runtime import GroupCommit
from actors.wallet.legs import shard_of
from store.errors import DomainError, ErrorCode, OutcomeUnknown
from store.ids import LEVER, MICRO, IdBlocks

# How long a command waits for a moving pair to come back (a move pauses a pair for about a second,
# docs/performance.md §5). Below SUBMIT_DEADLINE_MS, so a retried order is never refused as stale.
MOVE_WAIT_S = 15.0
MOVE_POLL_S = 0.02
# How long a caller waits for a pair's answer. Above the pair's SUBMIT_DEADLINE_MS: a command still
# queued when its caller gives up is refused by the pair when it gets to it, so the order cannot
# appear after the reconciler released its freeze (ORPHAN_GRACE_MS is longer still).
ANSWER_WAIT_S = 25.0
# Calls an engine has out at once to one wallet shard or one pair for single orders (``hold``,
# ``submit``); orders that come while that many are out go together in the next. Two: the actor
# always has the next call queued while it answers one (one at a time left it idle for a round trip
# between its groups), and orders coalesce only once the actor is behind.
CALLS_OUT = 2


def _moving(answer: Any) -> bool:
    """A pair's answer to one item of a call: refused by a move's pause, never matched."""
    return isinstance(answer, DomainError) and answer.code == ErrorCode.PAIR_MOVING


class Engine:
    """Finds pair, wallet, lever and MicroTimer actors by name (handles cached); ``ask`` rides out a pair's move and
    never waits longer than ``ANSWER_WAIT_S``; ``ids`` hands out order ids."""

    def __init__(
        self, shards: int, redis: Redis | None = None, *, lever_shards: int = 0, micro_shards: int = 0
    ) -> None:
        self._shards = shards
        self._lever_shards = lever_shards  # 0: this engine reaches no lever shard (the market maker's)
        self._micro_shards = micro_shards
        self._redis = redis
        self._handles: dict[str, Any] = {}
        self._pair_names: dict[str, str] = {}  # symbol -> its live actor's name (a move changes it)
        self.ids = IdBlocks(redis=redis)
        self.micro_ids = IdBlocks(MICRO)
        self.lever_ids = IdBlocks(LEVER)  # positions whose id a caller chooses (an idempotency key's)
        # Single orders on their way (``place_order``): per wallet shard and per pair, ``CALLS_OUT`` calls
        # out at a time, and what comes meanwhile goes as the next call (``hold``, ``submit``).
        self._freezes: dict[int, GroupCommit[tuple[int, int, Decimal, str], bool]] = {}
        self._submits: dict[str, GroupCommit[dict[str, Any], dict[str, Any]]] = {}

    def _get(self, name: str) -> Any:
        handle = self._handles.get(name)
        if handle is None:
            try:
                handle = ray.get_actor(name)
            except ValueError as exc:
                raise DomainError(ErrorCode.PAIR_UNAVAILABLE) from exc
            self._handles[name] = handle
        return handle

    def forget_handles(self) -> None:
        """Look every actor up by name again on its next use: a handle to an actor that died for good
        (killed, or out of restarts) fails every call, even once another actor has taken its name."""
        self._handles.clear()
        self._pair_names.clear()

    def wallet(self, uid: int) -> Any:
        return self._get(wallet_name(shard_of(uid, self._shards)))

    async def hold(self, uid: int, currency_id: int, amount: Decimal, ref: str) -> bool:
        """An order's freeze (``WalletShard.freeze``), sent with the other freezes this engine has for the
        same shard: while ``CALLS_OUT`` ``freeze_many`` are out, those that come wait and go together next.
        At low load each goes alone at once; under load an order costs the shard and this process a
        share of one actor call instead of a whole one. Raises the freeze's DomainError, or RayActorError
        for every freeze of a call the shard did not answer."""
        shard = shard_of(uid, self._shards)
        group = self._freezes.get(shard)
        if group is None:
            group = self._freezes[shard] = GroupCommit(
                functools.partial(self._freeze_many, shard), concurrency=CALLS_OUT
            )
        return await group.submit((uid, currency_id, amount, ref))

    async def _freeze_many(self, shard: int, freezes: list[tuple[int, int, Decimal, str]]) -> list[bool | DomainError]:
        answers: list[bool | DomainError] = await self._get(wallet_name(shard)).freeze_many.remote(freezes)
        return answers

    async def submit(self, symbol: str, order: dict[str, Any]) -> dict[str, Any]:
        """An order for the pair (its ``submit`` command), sent with the other orders this engine has for
        the pair as ``hold`` sends freezes: ``CALLS_OUT`` ``submit_many`` at a time (through ``ask``, so a
        move is ridden out). The pair matches an order of ``submit_many`` exactly as ``submit`` (they share its
        batch). Raises the order's DomainError, or the one that refused the whole call."""
        group = self._submits.get(symbol)
        if group is None:
            group = GroupCommit(functools.partial(self.ask_many, symbol, "submit_many"), concurrency=CALLS_OUT)
            self._submits[symbol] = group
        return await group.submit(order)

    def micro(self, order_id: int) -> Any:
        """The MicroTimer holding a second contract (shard ``order_id % micro_shards``)."""
        if not self._micro_shards:
            raise RuntimeError("this Engine was made without micro_shards")
        return self._get(micro_name(shard_of(order_id, self._micro_shards)))

    async def stake(self, uid: int, order_id: int, stake: Stake) -> dict[str, Any]:
        """Stake a second contract on its MicroTimer; the contract as it stands. A shard replaced
        since this replica last called it is asked once more: a stake is idempotent by the
        contract's id, so one already held is not held again."""
        try:
            return await self.micro(order_id).submit.remote(uid, order_id, stake)
        except RayActorError:
            self.forget_handles()
            return await self.micro(order_id).submit.remote(uid, order_id, stake)

    def lever(self, uid: int) -> Any:
        """The LeverShard holding the user's lever account (shard ``uid % lever_shards``)."""
        if not self._lever_shards:
            raise RuntimeError("this Engine was made without lever_shards")
        return self._get(lever_name(shard_of(uid, self._lever_shards)))

    # -- the user's LeverShard: one method per call, each with its retry policy ---------------------

    async def _lever_call(self, uid: int, method: str, *args: Any, again: bool) -> Any:
        """Call the user's LeverShard. A shard replaced since this replica last called it (its handle
        fails with RayActorError) is looked up again; the call is sent once more only when ``again``
        (a read, or a command idempotent by its id or ref), else the error reaches the edge (503)."""
        try:
            return await getattr(self.lever(uid), method).remote(uid, *args)
        except RayActorError:
            self.forget_handles()
            if not again:
                raise
            return await getattr(self.lever(uid), method).remote(uid, *args)

    async def lever_submit(self, uid: int, order: LeverOrder) -> dict[str, Any]:
        """Open or entrust a position; sent once more only with an id (one position per id)."""
        return dict(await self._lever_call(uid, "submit", order, again=order.id is not None))

    async def lever_cancel(self, uid: int, position_id: int) -> dict[str, Any]:
        return dict(await self._lever_call(uid, "cancel", position_id, again=False))

    async def lever_close(self, uid: int, position_id: int) -> dict[str, Any]:
        return dict(await self._lever_call(uid, "close", position_id, again=False))

    async def lever_batch_close(self, uid: int, pair_id: int, side: int) -> list[dict[str, Any]]:
        """Close the user's open positions on a pair (0: every pair) and side (0: both)."""
        return list(await self._lever_call(uid, "batch_close", pair_id, side, again=False))

    async def lever_setstop(
        self, uid: int, position_id: int, take_profit: Decimal | None, stop_loss: Decimal | None
    ) -> dict[str, Any]:
        return dict(await self._lever_call(uid, "setstop", position_id, take_profit, stop_loss, again=False))

    async def lever_overview(self, uid: int, pair_id: int | None = None) -> LeverOverview:
        """The lever account's balance, margins, risk rate and unrealised profit (a read)."""
        overview: LeverOverview = await self._lever_call(uid, "overview", pair_id, again=True)
        return overview

    async def lever_transfer(
        self, uid: int, currency_id: int, amount: Decimal, source: int, target: int, ref: str
    ) -> bool:
        """Move between the lever account and another of the user's; once per ``ref``. Not sent again:
        a transfer out that a dead shard made would be refused on the second try (the margin check
        comes before the ref's), so the edge answers 503 and a keyed request's replay tells."""
        return bool(await self._lever_call(uid, "transfer", currency_id, amount, source, target, ref, again=False))

    def every_lever(self) -> list[Any]:
        """Every LeverShard (to tell them all something, such as an operator's change of the terms)."""
        return [self._get(lever_name(i)) for i in range(self._lever_shards)]

    def every_micro(self) -> list[Any]:
        """Every MicroTimer shard."""
        return [self._get(micro_name(i)) for i in range(self._micro_shards)]

    async def ask(self, symbol: str, method: str, *args: Any) -> Any:
        """Call ``method`` of the pair's actor; while the pair moves, wait and call the new actor.

        A command is sent again only when the first actor certainly did not take it: it refused
        with PAIR_MOVING, it was stopped by a move after its pause (every command it took before
        the pause was answered), or no actor has the name it looked up while a move is under way or
        since a move gave the pair's actor another (it had remembered the old one). Any other
        failure is the caller's (PAIR_UNAVAILABLE), as before; no answer within ``ANSWER_WAIT_S`` is
        OutcomeUnknown (the pair may still carry the command out, within its own deadline).
        """
        deadline = time.monotonic() + MOVE_WAIT_S
        while True:
            handle, name = None, await self._pair_name(symbol)
            try:
                handle = self._get(name)
                return await asyncio.wait_for(getattr(handle, method).remote(*args), ANSWER_WAIT_S)
            except TimeoutError as exc:
                raise OutcomeUnknown(ErrorCode.PAIR_UNAVAILABLE) from exc
            except DomainError as exc:
                unsent = exc.code == ErrorCode.PAIR_UNAVAILABLE and handle is None  # no actor has the name
                retry = exc.code == ErrorCode.PAIR_MOVING or (
                    unsent and (await self._flag(PAIR_MOVING + symbol) or await self._renamed(symbol, name))
                )
                if not retry:
                    raise
            except RayActorError as exc:
                if handle is None or not await self._flag(PAIR_MOVED + handle._actor_id.hex()):
                    raise OutcomeUnknown(ErrorCode.PAIR_UNAVAILABLE) from exc
            self._forget_pair(symbol)
            if time.monotonic() > deadline:
                raise DomainError(ErrorCode.PAIR_UNAVAILABLE)
            await asyncio.sleep(MOVE_POLL_S)

    async def ask_many(self, symbol: str, method: str, items: list[Any], *args: Any) -> list[Any]:
        """``ask`` a method that answers one result per item (``submit_many``, ``cancel_many``), and send
        again the items refused with PAIR_MOVING one by one: a move's pause that comes while the pair's
        batch loop holds the first commands of the call (it waits the batch window for more) refuses
        those still queued, each on its own, and they were never matched, as when the pair refuses the
        whole call (which ``ask`` sends again itself). Up to ``MOVE_WAIT_S``; then PAIR_MOVING is the
        item's answer."""
        answers = list(await self.ask(symbol, method, items, *args))
        deadline = time.monotonic() + MOVE_WAIT_S
        while again := [i for i, answer in enumerate(answers) if _moving(answer)]:
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(MOVE_POLL_S)
            retried = await self.ask(symbol, method, [items[i] for i in again], *args)
            for i, answer in zip(again, retried, strict=True):
                answers[i] = answer
        return answers

    async def read(self, symbol: str, method: str, *args: Any) -> Any:
        """``ask`` a question that changes nothing (depth, bars, a fence), asked again while the pair's
        actor restarts: a restarting actor refuses calls (ActorUnavailableError) for the moment it takes
        to load its book, and a reader should see the book, not "busy". Up to ``MOVE_WAIT_S``."""
        deadline = time.monotonic() + MOVE_WAIT_S
        while True:
            try:
                return await self.ask(symbol, method, *args)
            except OutcomeUnknown as exc:
                if not isinstance(exc.__cause__, RayActorError) or time.monotonic() > deadline:
                    raise
            self._forget_pair(symbol)  # a replaced actor is found by name again
            await asyncio.sleep(MOVE_POLL_S * 10)

    async def _pair_name(self, symbol: str) -> str:
        """The name of the pair's live actor: remembered, else the generation the last move recorded in
        Redis, else (no Redis, or the key is gone) the newest Ray knows."""
        name = self._pair_names.get(symbol)
        if name is None:
            generation = None
            if self._redis is not None:
                with contextlib.suppress(RedisError):  # Ray's list of names answers without Redis
                    generation = await self._redis.get(PAIR_AT + symbol)
            name = pair_name(symbol, int(generation)) if generation is not None else live_name(symbol)
            self._pair_names[symbol] = name
        return name

    async def _renamed(self, symbol: str, name: str) -> bool:
        """True if the pair's live actor is no longer called ``name`` (a move since it was looked up)."""
        self._forget_pair(symbol)
        return await self._pair_name(symbol) != name

    def _forget_pair(self, symbol: str) -> None:
        """Find the pair's actor again on the next call (it moved, or the one found is gone)."""
        name = self._pair_names.pop(symbol, None)
        if name is not None:
            self._handles.pop(name, None)

    async def _flag(self, key: str) -> bool:
        return self._redis is not None and bool(await self._redis.exists(key))
