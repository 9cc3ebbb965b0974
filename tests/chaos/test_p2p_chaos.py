"""The P2P invariant under chaos: merchants and takers act at random and at once (open, pay, cancel,
release, appeal, operators resolving, ads edited, paused, resumed, closed and posted again), half
through the API and half through the store's functions, while a Scheduler of the test's own running
the ``p2p_expire`` sweep is killed and restarted again and again, its clock running ahead so that
payment windows end in the middle of it all.

Afterwards: every legal lock equals its escrow plus its sell ads' stock, the system's totals are what
they were, every order's journal is a path the state machine allows ending in the order's state, no
ledger ref was applied twice, every escrow is still held or ended exactly once (released or refunded,
never both), every ad's sold amount is what its completed orders took, and no window outlived a
Scheduler that came back."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Awaitable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import httpx
import ray
from ray.exceptions import RayActorError
from tortoise.expressions import Q

from actors.scheduler.actor import Scheduler
from actors.scheduler.jobs import SWEEPS
from serve.stack import Stack
from store.errors import DomainError, ErrorCode
from store.models import (
    Account,
    AccountLog,
    AccountType,
    AdSide,
    AdStatus,
    P2PAd,
    P2PEvent,
    P2POrder,
    P2PState,
)
from store.models.p2p import OPEN_STATES
from store.p2p import ads, audit, orders, rules
from store.p2p.ads import AdInput
from store.times import now_ms
from tests.utils.p2p import DEAL, ad_body, trader
from tests.utils.sales import post
from tests.utils.users import Member, ok
from tests.utils.wallets import USDT, system_totals

D = Decimal
MERCHANTS, TAKERS = 3, 8
RUN_S = 20.0  # seconds of random actions
AHEAD_MS = 25 * 60_000  # the sweeping Scheduler's clock runs this far ahead by the end: 10-minute windows end
MERCHANT_USDT, TAKER_USDT = D(100_000), D(5_000)
P2P_SWEEPS = [s for s in SWEEPS if s.name == "p2p_expire"]
ALLOWED = {(0, 1), (1, 2), (1, 4), (2, 3), (2, 5), (5, 3), (5, 4)}  # the state machine's edges
UNEXPECTED_CODES = {ErrorCode.REF_CONFLICT}  # a batch replayed with other facts: never a fair refusal


@dataclass
class Chaos:
    base_url: str
    rng: random.Random
    merchants: list[Member]
    takers: list[Member]
    ends_at: float
    unexpected: list[str] = field(default_factory=list)
    done: Counter[str] = field(default_factory=Counter)

    @property
    def merchant_ids(self) -> list[int]:
        return [m.uid for m in self.merchants]

    def running(self) -> bool:
        return time.monotonic() < self.ends_at

    async def post(self, client: httpx.Client, m: Member, path: str, body: dict[str, Any]) -> None:
        """An API call; any answer but a success or a refusal (a 5xx, a broken envelope) is a failure."""
        try:
            response = await asyncio.to_thread(client.post, path, json=body, headers=m.auth)
            envelope = response.json()
        except Exception as exc:
            self.unexpected.append(f"{path} {body}: {exc!r}")
            return
        if response.status_code >= 500 or envelope.get("code") not in (0, 1, 996):
            self.unexpected.append(f"{path} {body}: {response.status_code} {envelope}")
        self.done[f"api {path} {'ok' if envelope.get('code') == 1 else response.status_code}"] += 1

    async def call(self, name: str, work: Awaitable[Any]) -> None:
        """A store call; a DomainError is a refusal, anything else a failure."""
        try:
            await work
            self.done[f"store {name} ok"] += 1
        except DomainError as exc:
            if exc.code in UNEXPECTED_CODES:
                self.unexpected.append(f"{name}: {exc!r}")
            self.done[f"store {name} {exc.code.name}"] += 1
        except Exception as exc:
            self.unexpected.append(f"{name}: {exc!r}")

    async def act(self, client: httpx.Client, m: Member, action: str, order_id: int, **extra: Any) -> None:
        """``paid``, ``cancel``, ``release`` or ``appeal`` on ``order_id`` as ``m``, by the API or the store."""
        if self.rng.random() < 0.5:
            body: dict[str, Any] = {"id": order_id, **extra}
            if action == "release":
                body["pay_password"] = DEAL
            if action == "appeal":
                body["reason"] = "chaos: the other side did not do their part"
            await self.post(client, m, f"legal/order/{action}", body)
            return
        now = now_ms()
        work = {
            "paid": lambda: orders.mark_paid(order_id, m.uid, "", now),
            "cancel": lambda: orders.cancel(order_id, m.uid, now),
            "release": lambda: orders.release(order_id, m.uid, now),
            "appeal": lambda: orders.appeal(order_id, m.uid, "chaos: the other side did not do theirs", [], now),
        }[action]
        await self.call(action, work())

    async def open(self, client: httpx.Client, m: Member) -> None:
        query = P2PAd.filter(merchant_id__in=self.merchant_ids)
        if self.rng.random() < 0.9:  # now and then a closed one, refused
            query = query.filter(status__not=AdStatus.CLOSED)
        ad = self.rng.choice(await query)
        number = D(self.rng.randint(2, 60))
        method = "alipay" if ad.side == AdSide.SELL else "bank"
        if self.rng.random() < 0.5:
            body = {"ad_id": ad.id, "number": str(number), "pay_method": method}
            await self.post(client, m, "legal/order/create", body)
        else:
            opening = orders.Opening(ad_id=ad.id, number=number, fiat_amount=None, pay_method=method)
            await self.call("create", orders.create(m.uid, opening, now_ms()))

    async def answer(self, client: httpx.Client, m: Member, order: P2POrder) -> None:
        """What the side ``m`` is of ``order`` might do now; now and then something it may not."""
        roll, buyer = self.rng.random(), order.buyer_id == m.uid
        if roll < 0.05:
            await self.act(client, m, self.rng.choice(["paid", "cancel", "release", "appeal"]), order.id)
        elif order.state == P2PState.UNPAID and buyer:  # few cancel: three a day and a buyer buys no more
            if roll < 0.75:
                await self.act(client, m, "paid", order.id)
            elif roll < 0.82:
                await self.act(client, m, "cancel", order.id)
            # else: not yet, and maybe never: the window ends
        elif order.state == P2PState.PAID and not buyer:
            await self.act(client, m, "release" if roll < 0.75 else "appeal", order.id)
        elif order.state == P2PState.PAID and roll < 0.15:
            await self.act(client, m, "appeal", order.id)

    async def taker(self, m: Member) -> None:
        with httpx.Client(base_url=self.base_url, timeout=60) as client:
            while self.running():
                mine = await P2POrder.filter(Q(buyer_id=m.uid) | Q(seller_id=m.uid), state__in=OPEN_STATES,
                                             merchant_id__in=self.merchant_ids)  # fmt: skip
                # At the cap of orders waiting for payment an opening is refused: only now and then one tries.
                capped = sum(o.state == P2PState.UNPAID for o in mine) >= rules.UNPAID_MAX
                if not mine or self.rng.random() < (0.05 if capped else 0.35):
                    await self.open(client, m)
                else:
                    await self.answer(client, m, self.rng.choice(mine))
                await asyncio.sleep(self.rng.uniform(0, 0.05))

    async def merchant(self, m: Member) -> None:
        with httpx.Client(base_url=self.base_url, timeout=60) as client:
            while self.running():
                if self.rng.random() < 0.25:
                    await self.shop(client, m)
                else:
                    mine = await P2POrder.filter(merchant_id=m.uid, state__in=OPEN_STATES)
                    if mine:
                        await self.answer(client, m, self.rng.choice(mine))
                await asyncio.sleep(self.rng.uniform(0, 0.05))

    async def shop(self, client: httpx.Client, m: Member) -> None:
        """Edit an ad's total, pause or resume it, or close it and post another."""
        live = await P2PAd.filter(merchant_id=m.uid, status__not=AdStatus.CLOSED)
        roll = self.rng.random()
        if not live or roll < 0.08:
            if live:
                ad = self.rng.choice(live)
                if self.rng.random() < 0.5:
                    await self.post(client, m, "shop/ad/close", {"id": ad.id})
                else:
                    await self.call("close", ads.close(m.uid, ad.id, now_ms()))
            body = ad_body(side=self.rng.choice([1, 2]), total=str(self.rng.randint(500, 3000)), min_fiat="10",
                           max_fiat="100000", window_min=10)  # fmt: skip
            await self.post(client, m, "shop/ad/save", body)
            return
        ad = self.rng.choice(live)
        if roll < 0.6:
            total = ad.total - ad.stock + D(self.rng.randint(-50, 1500))  # now and then below what orders took
            fields = ad_body(side=ad.side, total=str(total), min_fiat="10", max_fiat="100000", window_min=10)
            if self.rng.random() < 0.5:
                await self.post(client, m, "shop/ad/save", {**fields, "id": ad.id})
            else:
                inp = AdInput(side=ad.side, currency_id=USDT, fiat="CNY", price=D("7.2"), min_fiat=D(10),
                              max_fiat=D(100_000), total=total, methods=("alipay", "bank"), window_min=10,
                              remarks="chaos")  # fmt: skip
                await self.call("save", ads.save(m.uid, ad.id, inp, now_ms()))
        else:
            status = AdStatus.PAUSED if ad.status == AdStatus.ONLINE else AdStatus.ONLINE
            if self.rng.random() < 0.5:
                await self.post(client, m, "shop/ad/status", {"id": ad.id, "status": int(status)})
            else:
                await self.call("status", ads.set_status(m.uid, ad.id, status, now_ms()))

    async def operator(self) -> None:
        while self.running():
            appeals = await P2POrder.filter(merchant_id__in=self.merchant_ids, state=P2PState.APPEAL)
            if appeals:
                order = self.rng.choice(appeals)
                to = self.rng.choice(["buyer", "seller"])
                await self.call("resolve", orders.resolve(order.id, to, "chaos-op", now_ms(), "decided"))
            await asyncio.sleep(self.rng.uniform(0.05, 0.3))


async def answers(handle: Any, within: float = 60) -> None:
    deadline = time.monotonic() + within
    while True:
        try:
            await asyncio.wait_for(handle.status.remote(), 5)
            return
        except (RayActorError, TimeoutError):
            assert time.monotonic() < deadline, "the sweeping scheduler did not come back"
            await asyncio.sleep(0.2)


async def kill_loop(handle: Any, chaos: Chaos, started: float) -> int:
    """Move the sweeping Scheduler's clock ahead with time and kill it (Ray restarts it) again and again."""
    kills = 0
    while chaos.running():
        ahead = int((time.monotonic() - started) / RUN_S * AHEAD_MS)
        moved = handle.set_clock.remote(ahead)  # retried on the restarted actor
        await asyncio.sleep(chaos.rng.uniform(0.3, 1.2))
        if chaos.rng.random() < 0.7:
            ray.kill(handle, no_restart=False)  # as a crash would, maybe in the middle of a pass
            kills += 1
        try:
            await moved
        except RayActorError:
            pass
    return kills


async def test_the_p2p_invariant_holds_under_chaos(stack: Stack, api: httpx.Client, db: None) -> None:
    merchants = [await trader(api, legal={"USDT": str(MERCHANT_USDT)}, merchant=True) for _ in range(MERCHANTS)]
    takers = [await trader(api, legal={"USDT": str(TAKER_USDT)}) for _ in range(TAKERS)]
    uids = [m.uid for m in merchants + takers]
    before = await system_totals()
    for m in merchants:
        for side in (1, 2):
            body = ad_body(side=side, total="3000", min_fiat="10", max_fiat="100000", window_min=10)
            ok(post(api, "shop/ad/save", json=body, headers=m.auth))

    name = f"scheduler-p2p-chaos-{uuid.uuid4().hex[:8]}"
    sweeper = Scheduler.options(name=name).remote(stack.settings.model_dump(mode="json"), [], 0.2, P2P_SWEEPS)
    await answers(sweeper)
    started = time.monotonic()
    chaos = Chaos(f"http://{stack.settings.http_host}:{stack.settings.http_port}/api/", random.Random(14),
                  merchants, takers, started + RUN_S)  # fmt: skip
    try:
        work = [chaos.taker(m) for m in takers] + [chaos.merchant(m) for m in merchants] + [chaos.operator()]
        kills, *_ = await asyncio.gather(kill_loop(sweeper, chaos, started), *work)
        await answers(sweeper)
        for _ in range(5):  # a Scheduler that comes back ends every window that ran out meanwhile
            await sweeper.set_clock.remote(AHEAD_MS + 60_000)
            if not await P2POrder.filter(merchant_id__in=chaos.merchant_ids, state=P2PState.UNPAID).exists():
                break
    finally:
        try:
            await sweeper.set_clock.remote(0)
        finally:
            ray.kill(sweeper, no_restart=True)

    assert chaos.unexpected == [], chaos.unexpected[:20]
    assert kills >= 5
    mine = await P2POrder.filter(merchant_id__in=chaos.merchant_ids)
    kinds = Counter((o.state, o.cancel_kind) for o in mine)
    assert kinds[(P2PState.COMPLETED, "")] and kinds[(P2PState.CANCELLED, "buyer")], (kinds, chaos.done)
    assert kinds[(P2PState.CANCELLED, "timeout")], (kinds, chaos.done)  # windows ended under the kills
    assert not kinds[(P2PState.UNPAID, "")], kinds  # none outlived the Scheduler's return

    assert await audit.mismatches() == {}
    assert await system_totals() == before
    assert await legal_held(uids) == {USDT: MERCHANT_USDT * MERCHANTS + TAKER_USDT * TAKERS}
    await journals_are_paths(mine)
    await escrow_ended_at_most_once(mine, uids)
    await ads_sold_what_completed(chaos.merchant_ids, mine)


async def legal_held(uids: list[int]) -> dict[int, Decimal]:
    """Balance + lock of these users' legal accounts, per currency: P2P only moves coins between them."""
    held: defaultdict[int, Decimal] = defaultdict(Decimal)
    rows = await Account.filter(user_id__in=uids, account_type=AccountType.LEGAL).values_list(
        "currency_id", "balance", "lock_balance"
    )
    for currency_id, balance, lock in rows:
        assert balance >= 0 and lock >= 0
        held[int(currency_id)] += balance + lock
    return {k: v for k, v in held.items() if v}


async def journals_are_paths(mine: list[P2POrder]) -> None:
    """Each order's events: seq 1..n, from the opening (0 -> 1) along the machine's edges, each from
    where the last one ended, to the order's state."""
    events: defaultdict[int, list[tuple[int, int, int]]] = defaultdict(list)
    rows = (
        await P2PEvent.filter(order_id__in=[o.id for o in mine])
        .order_by("order_id", "seq")
        .values_list("order_id", "seq", "from_state", "to_state")
    )
    for order_id, seq, from_state, to_state in rows:
        events[int(order_id)].append((int(seq), int(from_state), int(to_state)))
    for order in mine:
        path = events[order.id]
        assert [seq for seq, _, _ in path] == list(range(1, len(path) + 1)), (order.id, path)
        assert path[0][1:] == (0, 1), (order.id, path)
        for (_, _, ended), (_, began, _) in zip(path, path[1:], strict=False):
            assert began == ended, (order.id, path)
        assert all((f, t) in ALLOWED for _, f, t in path), (order.id, path)
        assert path[-1][2] == order.state, (order.id, path, order.state)


async def escrow_ended_at_most_once(mine: list[P2POrder], uids: list[int]) -> None:
    """No ref in the journal twice; each order's escrow released (both legs) or refunded, never both, and
    only when its state says it ended so."""
    logs = await AccountLog.filter(user_id__in=uids, log_type__in=("p2p_ad", "p2p_escrow", "p2p_release",
                                                                   "p2p_refund")).values_list("ref", flat=True)  # fmt: skip
    twice = [ref for ref, n in Counter(logs).items() if n > 1]
    assert twice == []
    refs = Counter(logs)
    for o in mine:
        released = {refs[f"p2p{o.id}:release:s"], refs[f"p2p{o.id}:release:b"]}
        refunded = refs[f"p2p{o.id}:refund"]
        escrowed = refs[f"p2p{o.id}:escrow"]
        assert escrowed == (1 if o.side == AdSide.BUY else 0), o.id  # a sell ad's stock is already locked
        assert released in ({0}, {1}), o.id
        assert not (1 in released and refunded), o.id
        if o.state == P2PState.COMPLETED:
            assert released == {1} and (o.ended_ms is not None), o.id
        elif o.state == P2PState.CANCELLED:
            assert released == {0}, o.id
            if o.cancel_kind == "appeal" or o.side == AdSide.BUY:
                assert refunded == 1, o.id  # to the seller's balance, not to the ad
        else:
            assert released == {0} and refunded == 0, o.id


async def ads_sold_what_completed(merchant_ids: list[int], mine: list[P2POrder]) -> None:
    """Every ad's total less its stock and its open escrow is what its completed orders took."""
    completed: defaultdict[int, Decimal] = defaultdict(Decimal)
    held: defaultdict[int, Decimal] = defaultdict(Decimal)
    for o in mine:
        if o.state == P2PState.COMPLETED:
            completed[o.ad_id] += o.amount
        elif o.state in OPEN_STATES:
            held[o.ad_id] += o.amount
    for ad in await P2PAd.filter(merchant_id__in=merchant_ids):
        assert ad.stock >= 0, ad.id
        assert ad.status != AdStatus.CLOSED or ad.stock == 0, ad.id
        assert ad.total - ad.stock - held[ad.id] == completed[ad.id], (ad.id, ad.total, ad.stock)
