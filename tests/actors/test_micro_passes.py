"""A MicroTimer's settling commits (``actors.micro.passes``) against real PostgreSQL and Redis, without
Ray: settlements started while others commit are each applied once, pushed once and reported as
settled; a commit that raises fails no contract silently (it stays open, the shard is told) and
``drain`` waits for every settlement under way."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

from actors.micro import stakes
from actors.micro.passes import Settlements, quantiles
from config.settings import Settings
from store import channels, ledger, micro, users
from store.cache import connect_redis
from store.ids import MICRO, reserve
from store.micro import settle as rule
from store.models import Account, AccountLog, AccountType, Currency, HouseLedger, MicroOrder, MicroStatus

PAIR = 1  # BTC/USDT
TICK_MS = 1_700_000_000_000


async def _player(email: str, usdt: Currency) -> int:
    user = await users.create_user(kind="email", account=email, password_hash="x", area=None, parent=None)
    await ledger.credit(user_id=user.id, currency=usdt, account_type=AccountType.MICRO, amount=Decimal(100),
                        log_type="deposit", ref=f"test:{email}")  # fmt: skip
    return user.id


async def _staked(uid: int, usdt: Currency, kind: int) -> MicroOrder:
    order_id = await reserve(MICRO, 1)
    row = MicroOrder(id=order_id, user_id=uid, currency_match_id=PAIR, currency_id=usdt.id, type=kind, seconds=30,
                     number=Decimal(10), profit_ratio=Decimal(80), fee_rate=Decimal(0), status=MicroStatus.OPEN,
                     accepted_ms=TICK_MS - 1)  # fmt: skip
    assert await ledger.apply_debits([stakes.op(row, usdt)]) == [True]
    return row


def _decided(row: MicroOrder) -> tuple[MicroOrder, rule.Outcome]:
    """Up from 100 to 101 over the 30 s: up wins 18, down loses its 10."""
    path = [rule.TickView(1, 1, TICK_MS, Decimal(100)), rule.TickView(2, 2, TICK_MS + 30_000, Decimal(101))]
    return row, rule.settle(micro.terms_of(row, 8), path)


def _settlements(settings: Settings, settled: list[int], failures: list[int], failing: asyncio.Event) -> Settlements:
    def failed() -> None:
        failures.append(1)
        failing.set()

    public: Callable[[MicroOrder], dict[str, Any]] = lambda row: {"id": row.id, "outcome": row.outcome}  # noqa: E731
    return Settlements(0, connect_redis(settings), public, lambda row: settled.append(row.id), failed)


async def test_settlements_started_while_others_commit_apply_once_each(db: None, settings: Settings) -> None:
    usdt = await Currency.get(code="USDT")
    uid = await _player("passes-once@example.com", usdt)
    rows = [await _staked(uid, usdt, kind) for kind in (rule.UP, rule.DOWN, rule.UP, rule.DOWN, rule.UP)]
    redis = connect_redis(settings)
    pubsub = redis.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(channels.user_topic(uid, "MICRO_CLOSED"))
    settled: list[int] = []
    failures: list[int] = []
    passes = _settlements(settings, settled, failures, asyncio.Event())
    passes.start([_decided(rows[0])])  # commits alone; the next two passes wait and share a commit
    passes.start([_decided(r) for r in rows[1:3]])
    passes.start([_decided(r) for r in rows[3:]])
    await passes.drain()

    assert sorted(settled) == sorted(r.id for r in rows) and not failures and passes.failed is None
    assert sum(size for size, _, _ in passes.commits) == len(rows) and len(passes.commits) < len(rows)  # grouped
    assert all(commit_ms > 0 and push_ms > 0 for _, commit_ms, push_ms in passes.commits)
    figures = passes.figures()
    assert figures["commits"] == len(passes.commits) and figures["commit_size"]["max"] <= len(rows)
    stored = await MicroOrder.filter(id__in=[r.id for r in rows]).order_by("id")
    assert [(s.status, s.outcome) for s in stored] == [(MicroStatus.CLOSED, "win" if r.type == rule.UP else "loss")
                                                       for r in sorted(rows, key=lambda r: r.id)]  # fmt: skip
    for row in rows:
        assert await AccountLog.filter(ref=f"m{row.id}:settle").count() == 1
    account = await Account.get(user_id=uid, currency_id=usdt.id, account_type=AccountType.MICRO)
    assert (account.balance, account.lock_balance) == (Decimal(100) - 50 + 3 * 18, Decimal(0))
    house = sum([h.amount for h in await HouseLedger.filter(user_id=uid, kind="micro_pnl")], Decimal(0))
    assert house == 2 * 10 - 3 * 8  # the losses' stakes less the wins' profits
    pushed: list[int] = []
    deadline = time.monotonic() + 10
    while len(pushed) < len(rows) and time.monotonic() < deadline:  # None: nothing yet, or the subscription
        message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
        if message is not None:
            pushed.append(json.loads(message["data"])["order"]["id"])
    assert sorted(pushed) == sorted(r.id for r in rows)
    await pubsub.aclose()

    passes.start([_decided(rows[0])])  # a shard that settles one again (it died before forgetting it): no change
    await passes.drain()
    assert await AccountLog.filter(ref=f"m{rows[0].id}:settle").count() == 1
    assert (await Account.get(id=account.id)).balance == account.balance


async def test_a_commit_that_raises_leaves_its_contracts_open_and_tells_the_shard(
    db: None, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    usdt = await Currency.get(code="USDT")
    uid = await _player("passes-fail@example.com", usdt)
    row = await _staked(uid, usdt, rule.UP)
    settled: list[int] = []
    failures: list[int] = []
    failing = asyncio.Event()
    passes = _settlements(settings, settled, failures, failing)

    async def unreachable(*_: Any, **__: Any) -> list[bool]:
        await asyncio.sleep(0.01)
        raise ConnectionError("the database went away")

    monkeypatch.setattr(ledger, "apply_debits", unreachable)
    passes.start([_decided(row)])
    await asyncio.sleep(0)
    assert passes.failed is None  # under way
    await asyncio.wait_for(failing.wait(), 10)
    assert isinstance(passes.failed, ConnectionError) and failures == [1] and settled == []
    await passes.drain()
    assert passes.failed is None
    assert (await MicroOrder.get(id=row.id)).status == MicroStatus.OPEN
    assert not await AccountLog.filter(ref=f"m{row.id}:settle").exists()

    monkeypatch.undo()  # the shard reloads and settles it again: once
    reloaded = await MicroOrder.get(id=row.id)
    passes.start([_decided(reloaded)])
    await passes.drain()
    assert settled == [row.id] and failures == [1]
    assert (await MicroOrder.get(id=row.id)).status == MicroStatus.CLOSED


def test_quantiles_of_a_shard_s_figures() -> None:
    assert quantiles([]) == {"p50": None, "p99": None, "max": None}
    assert quantiles(range(1, 201)) == {"p50": 101, "p99": 199, "max": 200}
    assert quantiles([7.5]) == {"p50": 7.5, "p99": 7.5, "max": 7.5}
