"""Second contracts under load (issue 12): how late MicroTimer shards settle many contracts after their
end, how late MICRO_CLOSED reaches the owners, and, with ``--kill``, that killing a shard mid-run
loses or repeats no settlement.

Against a running instance in development mode (``make run`` in another terminal: ``/api/dev/credit``
funds accounts, the market maker makes the ticks). It registers ``--users`` users through the API,
each moves ``--funds`` USDT to its micro account, and the first ``--ws-users`` of them log in on the
push socket and subscribe to ``MICRO_CLOSED``. Then ``--contracts`` contracts of ``--stake`` USDT are
submitted through ``POST /api/microtrade/submit`` by ``--concurrency`` concurrent requests (paced at
``--rate`` a second if given), round-robin over the users and the offered pairs of ``--pairs``, up
and down alternately. ``--durations``: the earliest submitted get the longest, in equal parts, so a
list whose steps match the submission time bunches the ends (``120,60`` submitted over 60 s: ends
spread over 60 s, all open at once); a single one spreads the ends over the submission time.

Measured, for every contract (``microtrade/lists`` of each user once all have ended):

- settlement lag: ``settled_at - end_at`` (the row's stamp, taken as the settling pass starts its
  commit), split by whether submissions were still running, and the shards' own figure
  (``MicroTimer.status()``: commit done - end, since ``reset_stats()`` at the start; a killed shard
  forgets its figures);
- where the time goes: the pairs' ``tick_fence`` round trip (sampled twice a second), arrival -
  ``settled_at`` (the commit and the push), and the settling passes rebuilt from the rows (the
  contracts of a pass share one ``settled_at``): their sizes and, under a backlog, the time one
  contract adds to a pass;
- MICRO_CLOSED delivery: arrival at the owner's socket - ``end_at`` (this machine's clock);
- exactly once: every contract closed, one ``micro_settle`` journal row and at most one house row per
  kind each (read from the database with ``store``), no push twice, and each user's micro balance is
  what was funded, less the stakes, plus the payouts;
- a sample checked with ``bench/verify_micro.py`` (``--verify``).

``--kill`` kills MicroTimer ``--kill-shard`` (``ray.kill(no_restart=False)``: Ray starts it again and it
settles the overdue contracts from their own end times) when half the contracts have ended, and
reports how many settled more than 5 s after their end.

    .venv/bin/python bench/micro_bench.py [--host http://127.0.0.1:8000] [--contracts 10000] [--users 100]
        [--ws-users 30] [--durations 300] [--concurrency 48] [--rate 0] [--stake 1] [--kill]

Run it with the environment of the ``make run`` it measures (the same ``var/`` or DATABASE_URL): it
joins that Ray (``var/ray-address``) for the shards' status and the kill, and reads the database.
Prints figures; asserts nothing about time. The users it made stay, with their contracts closed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402
from harness import raise_fd_limit  # noqa: E402
from measure import pct  # noqa: E402
from verify_micro import check_one  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from config.settings import get_settings  # noqa: E402
from tests.utils.users import Member as User  # noqa: E402

PASSWORD = "MicroBench123"
USDT = 1
CHANGE, MICRO = 1, 4  # account types
OPEN, CLOSED = 1, 3
LATE_MS = 5000  # the bound with a shard killed
PER_PAGE = 50


def figures(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    return (f"p50 {pct(ordered, 50):8.1f} ms   p99 {pct(ordered, 99):8.1f} ms   max {ordered[-1]:8.1f} ms"
            f"   (n {len(ordered)})")  # fmt: skip


def data(answer: httpx.Response) -> Any:
    body = answer.json()
    if body.get("code") != 1:
        raise RuntimeError(f"{answer.request.url.path}: {answer.status_code} {body.get('msg')}")
    return body["data"]


@dataclass
class Run:
    """What the run saw, as it went."""

    accepted: dict[int, dict[str, Any]] = field(default_factory=dict)  # order id -> the submit's answer
    owner: dict[int, User] = field(default_factory=dict)
    submit_ms: list[float] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    pushed: dict[int, list[float]] = field(default_factory=dict)  # order id -> arrival times (ms)
    pushed_order: dict[int, dict[str, Any]] = field(default_factory=dict)
    killed: str = ""
    submitted_ms: float = 0.0  # when the last submission was answered
    fence_ms: list[float] = field(default_factory=list)  # tick_fence round trips while contracts ended


# -- setting up ------------------------------------------------------------------------------------------


async def sign_up(api: httpx.AsyncClient, funds: Decimal) -> User:
    """A fresh user (dev outbox code), logged in, ``funds`` USDT in the micro account."""
    email = f"micro-{uuid.uuid4().hex[:12]}@example.com"
    data(await api.post("notify/send_email", json={"to": email, "type": 1}))
    code = data(await api.get("dev/outbox", params={"to": email}))[0]["code"]
    data(await api.post("user/register", json={"type": "email", "account": email, "password": PASSWORD,
                                               "re_password": PASSWORD, "sms_code": code}))  # fmt: skip
    login = data(await api.post("user/login", json={"account": email, "password": PASSWORD, "login_type": "email"}))
    user = User(account=email, password=PASSWORD, token=login["token"], uid=login["uid"])
    data(await api.post("dev/credit", json={"currency": "USDT", "amount": str(funds)}, headers=user.auth))
    move = {"currency_id": USDT, "balance": str(funds), "from": CHANGE, "to": MICRO}
    data(await api.post("account/transfer", json=move, headers=user.auth))
    return user


async def offered_pairs(api: httpx.AsyncClient, wanted: list[int]) -> dict[int, str]:
    """The pairs offering second contracts (of ``wanted``, if given): id -> symbol."""
    groups = data(await api.get("market/currency_matches"))
    offered = {m["id"]: m["symbol"] for g in groups for m in g["matches"]
               if m["open_microtrade"] and m["quote_currency_id"] == USDT}  # fmt: skip
    chosen = {p: s for p, s in offered.items() if not wanted or p in wanted}
    if not chosen:
        raise SystemExit(f"none of the pairs {wanted} offers second contracts (offered: {sorted(offered)})")
    return chosen


async def listen(ws_url: str, user: User, run: Run, ready: asyncio.Event) -> None:
    """The user's socket: login, MICRO_CLOSED, and every push's arrival; pings every 5 s."""
    async with connect(ws_url, max_queue=None) as ws:
        await ws.send(json.dumps({"type": "login", "token": user.token}))
        await ws.send(json.dumps({"type": "sub", "params": "MICRO_CLOSED"}))

        async def ping() -> None:
            while True:
                await asyncio.sleep(5)
                await ws.send(json.dumps({"type": "ping"}))

        pinger = asyncio.create_task(ping())
        try:
            async for raw in ws:
                now = time.time() * 1000
                message = json.loads(raw)
                if message.get("type") == "sub" and message.get("code") == 1:
                    ready.set()
                elif message.get("type") == "micro_closed":
                    order = message["order"]
                    run.pushed.setdefault(order["id"], []).append(now)
                    run.pushed_order[order["id"]] = order
        finally:
            pinger.cancel()


# -- the shards (Ray) ------------------------------------------------------------------------------------


def join_cluster() -> list[Any]:
    """The MicroTimer handles of the running exchange (joins its Ray as a driver)."""
    import ray

    from actors.micro import micro_name
    from serve.stack import join_ray, ray_address_file

    settings = get_settings()
    join_ray(ray_address_file(settings).read_text().strip(), log_to_driver=False, logging_level=logging.ERROR)
    return [ray.get_actor(micro_name(i)) for i in range(settings.micro_shards)]


def shard_status(shards: list[Any]) -> list[dict[str, Any]]:
    import ray

    return ray.get([s.status.remote() for s in shards], timeout=60)


def kill(shard: Any) -> None:
    import ray

    ray.kill(shard, no_restart=False)


def fence_round_trip(symbols: list[str]) -> list[float]:
    """How long each pair takes to answer ``tick_fence`` (what a settling pass waits for), ms."""
    import ray

    from actors.pair.actor import pair_name

    took = []
    for symbol in symbols:
        began = time.monotonic()
        ray.get(ray.get_actor(pair_name(symbol)).tick_fence.remote(), timeout=30)
        took.append((time.monotonic() - began) * 1000)
    return took


async def sample_fences(symbols: list[str], run: Run) -> None:
    """Twice a second until cancelled: every pair's fence round trip."""
    while True:
        with contextlib.suppress(Exception):  # a pair restarting: no sample
            run.fence_ms += await asyncio.to_thread(fence_round_trip, symbols)
        await asyncio.sleep(0.5)


async def wait_restarted(shard: Any, settled_before: int, since: float) -> float:
    """Seconds from ``since`` until the shard answers as a new actor (its count of settled contracts
    starts again, or it is loading) that is healthy; NaN if not within two minutes."""
    restarted = False
    while time.monotonic() - since < 120:
        try:
            status = (await asyncio.to_thread(shard_status, [shard]))[0]
        except Exception:  # dead, not restarted yet
            restarted = True
        else:
            restarted = restarted or status["settled"] < settled_before or not status["healthy"]
            if restarted and status["healthy"]:
                return time.monotonic() - since
        await asyncio.sleep(0.1)
    return float("nan")


# -- the run ---------------------------------------------------------------------------------------------


def terms(i: int, n: int, users: list[User], pairs: list[int], durations: list[int], stake: str) -> dict[str, Any]:
    """Contract ``i`` of ``n``: round-robin users and pairs, up and down in turn on each pair, the
    longest durations first."""
    pair = pairs[i % len(pairs)]
    return {"match_id": pair, "currency_id": USDT, "type": 1 + (i // len(pairs)) % 2, "lx": 1,
            "seconds": durations[i * len(durations) // n], "number": stake}  # fmt: skip


async def submit_all(api: httpx.AsyncClient, args: argparse.Namespace, users: list[User], pairs: list[int],
                     run: Run) -> float:  # fmt: skip
    """Submit every contract; answers the seconds it took."""
    durations = sorted(args.durations, reverse=True)
    n, queue = args.contracts, iter(range(args.contracts))
    began = time.monotonic()

    async def worker() -> None:
        for i in queue:
            if args.rate:
                await asyncio.sleep(max(0.0, began + i / args.rate - time.monotonic()))
            user = users[i % len(users)]
            sent = time.monotonic()
            try:
                answer = await api.post("microtrade/submit", json=terms(i, n, users, pairs, durations, args.stake),
                                        headers=user.auth)  # fmt: skip
                body = answer.json()
            except (httpx.HTTPError, ValueError) as exc:
                run.refused[type(exc).__name__] += 1
                continue
            run.submit_ms.append((time.monotonic() - sent) * 1000)
            if body.get("code") == 1:
                run.accepted[body["data"]["id"]] = body["data"]
                run.owner[body["data"]["id"]] = user
            else:
                run.refused[f"{answer.status_code} {body.get('msg')}"] += 1

    await asyncio.gather(*(worker() for _ in range(args.concurrency)))
    run.submitted_ms = time.time() * 1000
    return time.monotonic() - began


def end_of(order: dict[str, Any]) -> int:
    """A contract's end: its entry's time + the duration once the entry tick came, else (not come yet,
    or void: no tick came in time) its acceptance + the duration."""
    return order["end_at"] or order["accepted_at"] + order["seconds"] * 1000


async def closed_rows(api: httpx.AsyncClient, users: list[User]) -> dict[int, dict[str, Any]]:
    """Every closed contract of the users (``microtrade/lists`` status 3, every page)."""
    found: dict[int, dict[str, Any]] = {}

    async def of(user: User) -> None:
        page = 1
        while True:
            params = {"status": CLOSED, "page": page, "limit": PER_PAGE}
            answer = data(await api.get("microtrade/lists", params=params, headers=user.auth))
            for row in answer["data"]:
                found[row["id"]] = row
            if page >= answer["last_page"]:
                return
            page += 1

    limit = asyncio.Semaphore(16)

    async def bounded(user: User) -> None:
        async with limit:
            await of(user)

    await asyncio.gather(*(bounded(u) for u in users))
    return found


async def wait_closed(api: httpx.AsyncClient, users: list[User], run: Run, grace_s: float) -> dict[int, dict[str, Any]]:
    """Wait past the last end, then until every accepted contract is closed (or ``grace_s`` more)."""
    last_due = max(end_of(o) for o in run.accepted.values())
    await asyncio.sleep(max(0.0, last_due / 1000 - time.time()) + 1)
    deadline = time.monotonic() + grace_s
    while True:
        rows = await closed_rows(api, users)
        if all(i in rows for i in run.accepted) or time.monotonic() > deadline:
            return rows
        await asyncio.sleep(2)


async def kill_midway(shards: list[Any], index: int, run: Run, at_ms: float) -> None:
    await asyncio.sleep(max(0.0, at_ms / 1000 - time.time()))
    before = (await asyncio.to_thread(shard_status, [shards[index]]))[0]
    began = time.monotonic()
    await asyncio.to_thread(kill, shards[index])
    back = await wait_restarted(shards[index], before["settled"], began)
    run.killed = f"micro:{index} killed with {before['open']} open contracts; healthy again after {back:.1f} s"
    print(f"  {run.killed}")


# -- checks ----------------------------------------------------------------------------------------------


async def journal(order_ids: list[int]) -> tuple[Counter[int], Counter[tuple[int, str]]]:
    """(settle journal rows per contract, house rows per (contract, kind)), from the database."""
    from store.db import close_db, init_db
    from store.models import AccountLog, HouseLedger

    await init_db(get_settings())
    try:
        settles: Counter[int] = Counter()
        house: Counter[tuple[int, str]] = Counter()
        for start in range(0, len(order_ids), 500):
            chunk = order_ids[start : start + 500]
            refs = [f"m{i}:settle" for i in chunk]
            for ref in await AccountLog.filter(ref__in=refs, log_type="micro_settle").values_list("ref", flat=True):
                settles[int(str(ref)[1:].split(":")[0])] += 1
            rows = await HouseLedger.filter(position_id__in=chunk, kind__in=("micro_pnl", "micro_fee"))
            for row in rows:
                house[(int(row.position_id or 0), row.kind)] += 1
        return settles, house
    finally:
        await close_db()


async def balances_match(api: httpx.AsyncClient, users: list[User], funded: Decimal, run: Run,
                         rows: dict[int, dict[str, Any]]) -> int:  # fmt: skip
    """How many users' micro balance is not ``funded`` - stakes + payouts."""
    expected = {u.uid: funded for u in users}
    for order_id, order in run.accepted.items():
        uid = run.owner[order_id].uid
        expected[uid] += -Decimal(order["number"]) + Decimal(rows.get(order_id, {}).get("payout") or 0)
    wrong = 0
    for user in users:
        found = data(await api.get("microtrade/payable_currencies", headers=user.auth))
        balance = next(Decimal(c["micro_account"]["balance"]) for c in found if c["id"] == USDT)
        wrong += balance != expected[user.uid]
    return wrong


def spread(run: Run) -> str:
    """How many were open at once at most, and how the ends spread."""
    events = sorted([(o["accepted_at"], 1) for o in run.accepted.values()]
                    + [(o["accepted_at"] + o["seconds"] * 1000, -1) for o in run.accepted.values()])  # fmt: skip
    opened = peak = 0
    for _, step in events:
        opened += step
        peak = max(peak, opened)
    ends = sorted(o["accepted_at"] + o["seconds"] * 1000 for o in run.accepted.values())
    busiest = Counter(e // 1000 for e in ends).most_common(1)[0][1]
    return (f"at most {peak} open at once; ends spread over {(ends[-1] - ends[0]) / 1000:.0f} s, "
            f"busiest second {busiest} ends")  # fmt: skip


def passes(rows: list[dict[str, Any]], shards: int) -> None:
    """The settling passes, rebuilt from the rows: a pass stamps one ``settled_at`` on all it settles,
    so per shard the rows sharing one are a pass. When the next pass holds contracts that had already
    ended as this one began (a backlog), the time between the two is this pass's work (its commit,
    then the next fence): that over its size is what one contract costs."""
    for index in range(shards):
        mine = [r for r in rows if r["id"] % shards == index and r["settled_at"]]
        sizes: Counter[int] = Counter(r["settled_at"] for r in mine)
        first_end: dict[int, int] = {}
        for r in mine:
            first_end[r["settled_at"]] = min(first_end.get(r["settled_at"], end_of(r)), end_of(r))
        times = sorted(sizes)
        if not times:
            continue
        gaps = sorted(b - a for a, b in zip(times, times[1:], strict=False))
        busy = sorted((b - a) / sizes[a] for a, b in zip(times, times[1:], strict=False) if first_end[b] < a)
        print(f"  micro:{index} {len(times)} passes, contracts a pass p50 {pct(sorted(sizes.values()), 50):.0f} "
              f"max {max(sizes.values())}; to the next pass p50 {pct(gaps, 50):.0f} ms max {max(gaps, default=0)} "
              f"ms; backlogged: {len(busy)} passes, {pct(busy, 50):.1f} ms a contract (p50)")  # fmt: skip


async def report(api: httpx.AsyncClient, args: argparse.Namespace, users: list[User], run: Run,
                 rows: dict[int, dict[str, Any]], shards: list[Any]) -> None:  # fmt: skip
    ours = [rows[i] for i in run.accepted if i in rows]
    lags = [r["settled_at"] - end_of(r) for r in ours if r["settled_at"] is not None]
    outcomes = Counter(r["outcome"] for r in ours)
    print(f"closed {len(ours)} of {len(run.accepted)}: {dict(outcomes)}")
    print(f"  settlement lag, settled_at - end (rows)    {figures(lags)}")
    for label, phase in (("while submitting", True), ("after the last submit", False)):
        some = [r["settled_at"] - end_of(r) for r in ours
                if r["settled_at"] is not None and (end_of(r) < run.submitted_ms) == phase]  # fmt: skip
        print(f"    ends {label:<22}               {figures(some)}")
    late = [x for x in lags if x > LATE_MS]
    print(f"  settled more than {LATE_MS / 1000:.0f} s after the end: {len(late)}")
    print(f"  tick_fence round trip (sampled all along)   {figures(run.fence_ms)}")
    passes(ours, len(shards))
    for status in await asyncio.to_thread(shard_status, shards):
        print(f"  micro:{status['index']} durable - end (status)    p50 {status['lag_p50_ms']} ms   "
              f"p99 {status['lag_p99_ms']} ms   max {status['lag_max_ms']} ms   (n {status['settled']}; "
              f"{status['open']} open)")  # fmt: skip
    watched = {u.uid for u in users[: args.ws_users]}
    expected_pushes = [i for i in run.accepted if run.owner[i].uid in watched]
    arrivals = [run.pushed[i][0] - end_of(run.pushed_order[i]) for i in expected_pushes if i in run.pushed]
    print(f"  MICRO_CLOSED received - end ({len(watched)} users)   {figures(arrivals)}")
    for label, phase in (("while submitting", True), ("after the last submit", False)):
        some = [run.pushed[i][0] - end_of(run.pushed_order[i]) for i in expected_pushes
                if i in run.pushed and (end_of(run.pushed_order[i]) < run.submitted_ms) == phase]  # fmt: skip
        print(f"    ends {label:<22}               {figures(some)}")
    committing = [run.pushed[i][0] - rows[i]["settled_at"] for i in expected_pushes if i in run.pushed and i in rows]
    print(f"  received - settled_at (the commit, the push) {figures(committing)}")
    twice = sum(1 for i in run.pushed if len(run.pushed[i]) > 1)
    print(f"  pushes missing {len(expected_pushes) - len(arrivals)}, received twice {twice}")
    settles, house = await journal(list(run.accepted))
    not_once = [i for i in run.accepted if settles[i] != 1]
    house_twice = [k for k, v in house.items() if v > 1]
    wrong = await balances_match(api, users, Decimal(args.funds), run, rows)
    print(f"exactly once: {len(run.accepted) - len(not_once)} of {len(run.accepted)} with one micro_settle row "
          f"({len(not_once)} not: {not_once[:5]}), house rows twice {len(house_twice)}, "
          f"users whose micro balance is off {wrong} of {len(users)}")  # fmt: skip
    sample = random.Random(0).sample(sorted(run.accepted), min(args.verify, len(run.accepted)))  # both shards
    if sample:
        with httpx.Client(base_url=str(api.base_url), timeout=30) as sync_api:
            checked = Counter(check_one(sync_api, i, 6)[0] for i in sample)
        print(f"verified with bench/verify_micro.py: {dict(checked)} of {len(sample)}")


async def main(args: argparse.Namespace) -> None:
    raise_fd_limit(args.ws_users + args.concurrency + 256)
    shards = await asyncio.to_thread(join_cluster)
    limits = httpx.Limits(max_connections=args.concurrency + 16, max_keepalive_connections=args.concurrency + 16)
    async with httpx.AsyncClient(base_url=f"{args.host}/api/", timeout=120, limits=limits) as api:
        symbols = await offered_pairs(api, args.pairs)
        pairs = list(symbols)
        offered = {d["seconds"] for d in data(await api.get("microtrade/seconds", params={"match_id": pairs[0]}))}
        if not set(args.durations) <= offered:
            raise SystemExit(f"durations {args.durations}: the pairs offer {sorted(offered)}")
        began = time.monotonic()
        limit = asyncio.Semaphore(16)

        async def one() -> User:
            async with limit:
                return await sign_up(api, Decimal(args.funds))

        users = await asyncio.gather(*(one() for _ in range(args.users)))
        print(f"{len(users)} users with {args.funds} USDT each in their micro account in "
              f"{time.monotonic() - began:.1f} s; pairs {pairs}")  # fmt: skip
        run = Run()
        ws_url = data(await api.get("default/push_address"))["url"]
        readies = [asyncio.Event() for _ in users[: args.ws_users]]
        listeners = [asyncio.create_task(listen(ws_url, u, run, r)) for u, r in zip(users, readies, strict=False)]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 30)
        await asyncio.gather(*(s.reset_stats.remote() for s in shards))
        fences = asyncio.create_task(sample_fences(list(symbols.values()), run))
        took = await submit_all(api, args, users, pairs, run)
        ordered = sorted(run.submit_ms)
        print(f"submitted {len(run.accepted)} of {args.contracts} in {took:.1f} s: {len(run.accepted) / took:.1f}/s "
              f"at concurrency {args.concurrency}; latency p50 {pct(ordered, 50):.0f} ms p99 {pct(ordered, 99):.0f} "
              f"ms; refused {dict(run.refused) or 0}")  # fmt: skip
        if not run.accepted:
            raise SystemExit("no contract was accepted")
        print(f"  {spread(run)}")
        killer = None
        if args.kill:
            ends = sorted(end_of(o) for o in run.accepted.values())
            killer = asyncio.create_task(kill_midway(shards, args.kill_shard, run, ends[len(ends) // 2]))
        rows = await wait_closed(api, users, run, args.grace)
        if killer is not None:
            await killer
        fences.cancel()
        await asyncio.sleep(2)  # the last pushes
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
        await report(api, args, users, run, rows, shards)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="http://127.0.0.1:8000")
    parser.add_argument("--contracts", type=int, default=10_000)
    parser.add_argument("--users", type=int, default=100)
    parser.add_argument("--ws-users", type=int, default=30, help="how many users listen for MICRO_CLOSED")
    parser.add_argument("--funds", default="1000", help="USDT each user moves to its micro account")
    parser.add_argument("--stake", default="1", help="USDT per contract")
    parser.add_argument("--durations", type=lambda s: [int(x) for x in s.split(",")], default=[300],
                        help="seconds, comma-separated: the earliest submitted get the longest")  # fmt: skip
    parser.add_argument("--pairs", type=lambda s: [int(x) for x in s.split(",")], default=[],
                        help="pair ids (default: every pair offering second contracts)")  # fmt: skip
    parser.add_argument("--concurrency", type=int, default=48, help="submissions in flight")
    parser.add_argument("--rate", type=float, default=0, help="submissions a second at most (0: as fast as it goes)")
    parser.add_argument("--grace", type=float, default=60, help="seconds to wait past the last end for the rest")
    parser.add_argument("--verify", type=int, default=20, help="how many contracts verify_micro.py checks")
    parser.add_argument("--kill", action="store_true", help="kill a MicroTimer shard when half have ended")
    parser.add_argument("--kill-shard", type=int, default=0)
    asyncio.run(main(parser.parse_args()))
