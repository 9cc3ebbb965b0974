"""Bursts of duplicate submits (issue 27): each round every trader sends the same lever/submit,
microtrade/submit and tx_in/add several times at once under one Idempotency-Key, and in some rounds a
lever shard, a MicroTimer, a wallet shard or the spot pair is killed meanwhile; the traders then
retry each key as a client would. Afterwards every key made at most one position, stake or order
(the one its answers name), every account holds exactly what those moved once, the insurance fund
moved nothing (no shortfall happened), and money is conserved exactly."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import httpx
import ray

from actors.names import lever_name, micro_name, pair_name, wallet_name
from actors.pair.directory import current
from config.settings import Settings
from serve.stack import Stack
from store import lever, micro
from store.cache import connect_redis
from store.models import (
    Account,
    AccountLog,
    AccountType,
    FeeLedger,
    HouseLedger,
    LeverPosition,
    MicroOrder,
    MicroStatus,
    Order,
)
from store.sessions import PREFIX
from store.spot import OPEN_STATUSES
from tests.chaos.test_micro_chaos import back
from tests.utils.prices import mark_to, move_mark
from tests.utils.spot import cancel
from tests.utils.trading import quiesce
from tests.utils.users import Member, member, ok
from tests.utils.wallets import ETH, USDT, fund

BTC_USDT, ETH_USDT, LTC_USDT = 1, 2, 3
TRADERS = 3
ROUNDS = 6
BURST = 4
FUNDS = Decimal(100_000)
RETRY_FOR_S = 20.0
# Killed while the round's bursts are in flight (None: a round without a kill).
VICTIMS = (None, lever_name(0), micro_name(0), wallet_name(0), pair_name("ETH/USDT"), lever_name(1))
KINDS = ("lever", "micro", "spot")


@dataclass
class Key:
    """One user action: its key, what it sends, and every answer it got."""

    kind: str
    trader: Member
    path: str
    body: dict[str, Any]
    key: str = field(default_factory=lambda: f"chaos-{uuid.uuid4()}")
    answers: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    @property
    def settled(self) -> bool:
        """Answered for good: a success or a refusal (not busy, not still in progress)."""
        return any(status < 500 and status != 409 for status, _ in self.answers)

    def ids(self) -> set[int]:
        return {body["data"]["id"] for status, body in self.answers if status == 200 and body["code"] == 1}


async def send(client: httpx.AsyncClient, k: Key) -> None:
    try:
        r = await client.post(k.path, json=k.body, headers={**k.trader.auth, "Idempotency-Key": k.key})
        k.answers.append((r.status_code, r.json()))
    except httpx.HTTPError:  # the answer was lost: the outcome is unknown to the client
        k.answers.append((599, {}))


def actions(traders: list[Member], seconds: int, eth_price: Decimal) -> list[Key]:
    """One lever open, one second contract and one resting ETH buy per trader, each under a new key."""
    made = []
    for i, t in enumerate(traders):
        made.append(Key("lever", t, "lever/submit", {"currency_match_id": BTC_USDT, "type": 1 + i % 2, "status": 1,
                                                     "share": 1, "multiple": 5}))  # fmt: skip
        made.append(Key("micro", t, "microtrade/submit", {"match_id": LTC_USDT, "currency_id": USDT, "type": 1 + i % 2,
                                                          "lx": 1, "seconds": seconds, "number": "10"}))  # fmt: skip
        made.append(Key("spot", t, "tx_in/add", {"currency_match_id": ETH_USDT, "number": "0.1",
                                                 "price": str(eth_price)}))  # fmt: skip
    return made


def durations(api: httpx.Client, pair_id: int) -> list[int]:
    return [d["seconds"] for d in ok(api.get("microtrade/seconds", params={"match_id": pair_id}))]


async def remembered(settings: Settings, keys: list[Key]) -> dict[str, dict[str, int]]:
    """Each key's references as its Redis record keeps them (the id its money movement was made under)."""
    redis = connect_redis(settings)
    try:
        found = {}
        for k in keys:
            raw = await redis.get(f"{PREFIX}idem:{k.trader.uid}:{k.key}")
            found[k.key] = json.loads(raw).get("refs", {}) if raw else {}
        return found
    finally:
        await redis.aclose()


async def test_bursts_of_duplicate_submits_move_money_once_per_key(stack: Stack, api: httpx.Client, db: None) -> None:
    traders = [member(api) for _ in range(TRADERS)]
    for t in traders:
        await fund(t, "USDT", str(FUNDS), AccountType.LEVER)
        await fund(t, "USDT", str(FUNDS), AccountType.MICRO)
        await fund(t, "USDT", str(FUNDS))
    movers = member(api), member(api)
    for code, amount in (("BTC", "100"), ("LTC", "100000"), ("ETH", "1000")):
        await fund(movers[0], code, amount)
    await fund(movers[1], "USDT", "100000000")
    await asyncio.to_thread(mark_to, api, *movers, BTC_USDT, Decimal(60000))
    await asyncio.to_thread(move_mark, api, *movers, LTC_USDT, "1")
    eth_mark = await asyncio.to_thread(move_mark, api, *movers, ETH_USDT, "0.1")
    eth_price = (Decimal(eth_mark["price"]) * Decimal("0.8")).quantize(Decimal("0.01"))  # rests below the market
    seconds = max(durations(api, LTC_USDT))  # the longest: the contracts stay open through the test

    keys: list[Key] = []
    async with httpx.AsyncClient(base_url=api.base_url, timeout=30) as client:
        for victim in VICTIMS:
            round_keys = actions(traders, seconds, eth_price)
            keys += round_keys
            bursts = [send(client, k) for k in round_keys for _ in range(BURST)]
            if victim is None:
                await asyncio.gather(*bursts)
                continue
            running = asyncio.gather(*bursts)
            await asyncio.sleep(0.05)
            ray.kill(ray.get_actor(current(victim)), no_restart=False)
            await running
            await back(victim)
        deadline = time.monotonic() + RETRY_FOR_S
        while (waiting := [k for k in keys if not k.settled]) and time.monotonic() < deadline:
            await asyncio.gather(*(send(client, k) for k in waiting))  # the client's own retries
            await asyncio.sleep(0.5)
    statuses = Counter(status for k in keys for status, _ in k.answers)
    print("answers by status:", dict(sorted(statuses.items())), "keys settled:", sum(k.settled for k in keys), "of",
          len(keys))  # fmt: skip
    assert set(statuses) <= {200, 400, 409, 503, 599}, statuses  # never a 500
    assert sum(k.settled for k in keys) >= len(keys) * 2 // 3, [k.answers[-1] for k in keys if not k.settled]
    await quiesce(stack)

    # One position, stake or order per key: the one every successful answer of the key names.
    refs = await remembered(stack.settings, keys)
    uids = [t.uid for t in traders]
    made = {
        "lever": set(await LeverPosition.filter(user_id__in=uids).values_list("id", flat=True)),
        "micro": set(await MicroOrder.filter(user_id__in=uids).values_list("id", flat=True)),
        "spot": set(await Order.filter(user_id__in=uids).values_list("id", flat=True)),
    }
    ref_name = {"lever": "position", "micro": "contract", "spot": "order"}
    for kind in KINDS:
        by_key = {k.key: refs[k.key].get(ref_name[kind]) for k in keys if k.kind == kind}
        assert made[kind] <= set(by_key.values()), (kind, made[kind], by_key)  # nothing made without a key
        for k in (k for k in keys if k.kind == kind):
            assert k.ids() <= {by_key[k.key]}, (kind, k.answers)  # every answer names the key's one movement
            assert not k.ids() or by_key[k.key] in made[kind], (kind, k.answers)  # and it was made
    assert len(made["lever"]) > ROUNDS and len(made["micro"]) > ROUNDS and len(made["spot"]) > ROUNDS

    # Each account holds exactly what those moved once.
    for t in traders:
        accounts = {(a.currency_id, int(a.account_type)): a for a in await Account.filter(user_id=t.uid)}  # type: ignore[attr-defined]
        positions = await LeverPosition.filter(user_id=t.uid)
        held = accounts[(USDT, int(AccountType.LEVER))]
        margins = sum((p.caution_money for p in positions), Decimal(0))
        fees = sum((p.trade_fee for p in positions), Decimal(0))
        assert (held.balance, held.lock_balance) == (FUNDS - margins - fees, margins), t.uid
        contracts = await MicroOrder.filter(user_id=t.uid)
        staked = accounts[(USDT, int(AccountType.MICRO))]
        open_stakes = sum((c.number for c in contracts if c.status == MicroStatus.OPEN), Decimal(0))
        won = sum((c.payout - c.number for c in contracts if c.status == MicroStatus.CLOSED), Decimal(0))
        assert (staked.balance + staked.lock_balance, staked.lock_balance) == (FUNDS + won, open_stakes), t.uid
        orders = await Order.filter(user_id=t.uid, status__in=OPEN_STATUSES)
        spot = accounts[(USDT, int(AccountType.CHANGE))]
        bids = sum((o.frozen - o.transacted_volume for o in orders), Decimal(0))  # type: ignore[attr-defined]
        assert (spot.balance + spot.lock_balance, spot.lock_balance) == (FUNDS, bids), t.uid  # resting, unfilled

    # The insurance fund moved only on a real shortfall: none happened (nothing was liquidated).
    assert not await HouseLedger.filter(kind="insurance", user_id__in=uids).exists()
    # Conservation, exact: every balance is its journal; lever, second contracts and spot trading move
    # money only between users, the house and the fee ledger.
    for currency_id in (USDT, ETH):
        balances = await Account.filter(currency_id=currency_id).values_list("balance", "lock_balance")
        journal = await AccountLog.filter(currency_id=currency_id).values_list("log_type", "amount", "lock_amount")
        assert sum((b + lock for b, lock in balances), Decimal(0)) == sum(
            (a + lock for _, a, lock in journal), Decimal(0)
        )
        trading = sum((a + lock for kind, a, lock in journal if kind in ("freeze", "release", "trade_pay", "trade_get")),
                      Decimal(0))  # fmt: skip
        fees = sum(await FeeLedger.filter(currency_id=currency_id).values_list("amount", flat=True), Decimal(0))
        assert trading + fees == 0, currency_id
    moved = defaultdict(Decimal)
    for kinds, house_kinds, name in ((lever.LOG_TYPES, lever.HOUSE_KINDS, "lever"),
                                     ((micro.STAKE, micro.SETTLE), (micro.PNL, micro.FEE), "micro")):  # fmt: skip
        for a, lock in await AccountLog.filter(log_type__in=kinds).values_list("amount", "lock_amount"):
            moved[name] += a + lock
        moved[name] += sum(await HouseLedger.filter(kind__in=house_kinds).values_list("amount", flat=True), Decimal(0))
    assert moved == {"lever": 0, "micro": 0}, moved
    for t in traders:  # ETH/USDT's book as it was: resting bids move its mark
        resting = await Order.filter(user_id=t.uid, status__in=OPEN_STATUSES).values_list("id", flat=True)
        if resting:
            await asyncio.to_thread(cancel, api, t, list(resting))
