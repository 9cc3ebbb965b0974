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

``--direct`` stakes each contract on its shard over Ray (``MicroTimer.submit``, the call the API
makes once it has checked the format, with ids reserved from the same allocator) instead of through
the API: on two shared cores the API's requests cost more CPU than the shards, so the settlement
figures of a run through the API measure the API as much as the timers. ``--direct --rate 167
--durations 120`` is the issue's shape: 10,000 open at once, then ending over 60 s with nothing
being submitted.

``--walk 0.002`` keeps the market maker walking every pair's price 0.2 % up and down while it runs
(``bench/mark_walker.py``), so marks tick several times a second as a live market's do; without it the
marks are ``make run``'s idle maker's, which can stand still for tens of seconds, and every contract
accepted on a pair meanwhile shares one entry tick and ends in the same millisecond (the report prints
how many end together).

Measured, for every contract (``microtrade/lists`` of each user once all have ended):

- settlement lag: ``settled_at - end_at`` (the row's stamp, taken as the settling pass starts its
  commit), split by whether submissions were still running, and the shards' own figure
  (``MicroTimer.status()``: commit done - end, since ``reset_stats()`` at the start; a killed shard
  forgets its figures);
- where the time goes: the pairs' ``tick_fence`` round trip (sampled twice a second), arrival -
  ``settled_at`` (the commit and the push), and each shard's settling commits (``status()``: how
  many contracts each took, its transaction and its pushes);
- MICRO_CLOSED delivery: arrival at the owner's socket - ``end_at`` (this machine's clock);
- exactly once: every contract closed, one ``micro_settle`` journal row and at most one house row per
  kind each (read from the database with ``store``), no push twice, and each user's micro balance is
  what was funded, less the stakes, plus the payouts;
- a sample checked with ``bench/verify_micro.py`` (``--verify``).

``--kill`` kills MicroTimer ``--kill-shard`` (``ray.kill(no_restart=False)``: Ray starts it again and it
settles the overdue contracts from their own end times) when half the contracts have ended, and
reports how many settled more than 5 s after their end.

    .venv/bin/python bench/micro_bench.py [--host http://127.0.0.1:8000] [--contracts 10000] [--users 100]
        [--ws-users 30] [--durations 300] [--concurrency 48] [--rate 0] [--stake 1] [--direct] [--kill]
        [--walk 0.002]

Run it with the environment of the ``make run`` it measures (the same ``var/`` or DATABASE_URL): it
joins that Ray (``var/ray-address``) for the shards' status and the kill, and reads the database.
Prints figures; asserts nothing about time. The users it made stay, with their contracts closed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
import uuid
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402
from harness import raise_fd_limit  # noqa: E402
from mark_walker import walk_marks  # noqa: E402
from measure import pct  # noqa: E402
from micro_checks import USDT, Run, data, end_of, report, spread  # noqa: E402
from micro_shards import join_cluster, kill, sample_fences, shard_status, wait_restarted  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from actors.commands import Stake  # noqa: E402
from config.settings import get_settings  # noqa: E402
from tests.utils.users import Member as User  # noqa: E402

PASSWORD = "MicroBench123"
CHANGE, MICRO = 1, 4  # account types
OPEN, CLOSED = 1, 3
PER_PAGE = 50


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


async def price_decimals(api: httpx.AsyncClient, symbols: list[str]) -> dict[str, int]:
    groups = data(await api.get("market/currency_matches"))
    return {m["symbol"]: m["price_decimals"] for g in groups for m in g["matches"] if m["symbol"] in symbols}


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


# -- the run ---------------------------------------------------------------------------------------------


def terms(i: int, n: int, users: list[User], pairs: list[int], durations: list[int], stake: str) -> dict[str, Any]:
    """Contract ``i`` of ``n``: round-robin users and pairs, up and down in turn on each pair, the
    longest durations first."""
    pair = pairs[i % len(pairs)]
    return {"match_id": pair, "currency_id": USDT, "type": 1 + (i // len(pairs)) % 2, "lx": 1,
            "seconds": durations[i * len(durations) // n], "number": stake}  # fmt: skip


async def first_ids(count: int) -> int:
    """Reserve ``count`` contract ids from the exchange's own allocator (``store.ids``, kind micro), as
    the API would one by one; answers the first."""
    from store.db import close_db, init_db
    from store.ids import MICRO, reserve

    await init_db(get_settings())
    try:
        return await reserve(MICRO, count)
    finally:
        await close_db()


async def submit_all(api: httpx.AsyncClient, args: argparse.Namespace, users: list[User], pairs: list[int],
                     run: Run, shards: list[Any]) -> float:  # fmt: skip
    """Submit every contract (through the API, or with ``--direct`` to its shard); answers the seconds
    it took."""
    durations = sorted(args.durations, reverse=True)
    n, queue = args.contracts, iter(range(args.contracts))
    first_id = await first_ids(n) if args.direct else 0
    began = time.monotonic()

    async def through_api(i: int, user: User) -> tuple[str, dict[str, Any] | None]:
        answer = await api.post("microtrade/submit", json=terms(i, n, users, pairs, durations, args.stake),
                                headers=user.auth)  # fmt: skip
        body = answer.json()
        return ("", body["data"]) if body.get("code") == 1 else (f"{answer.status_code} {body.get('msg')}", None)

    async def to_shard(i: int, user: User) -> tuple[str, dict[str, Any] | None]:
        order_id = first_id + i  # what MicroTimer.submit is given by the API after its format checks
        try:
            wire = terms(i, n, users, pairs, durations, args.stake)
            stake = Stake(pair_id=wire["match_id"], currency_id=wire["currency_id"], side=wire["type"],
                          lx=wire["lx"], seconds=wire["seconds"], number=Decimal(wire["number"]))  # fmt: skip
            placed = await shards[order_id % len(shards)].submit.remote(user.uid, order_id, stake)
        except Exception as exc:  # a DomainError inside Ray's error: the contract was refused
            return str(getattr(exc, "cause", None) or type(exc).__name__), None
        return "", placed

    place = to_shard if args.direct else through_api

    async def worker() -> None:
        for i in queue:
            if args.rate:
                await asyncio.sleep(max(0.0, began + i / args.rate - time.monotonic()))
            user = users[i % len(users)]
            sent = time.monotonic()
            try:
                refusal, placed = await place(i, user)
            except (httpx.HTTPError, ValueError) as exc:
                run.refused[type(exc).__name__] += 1
                continue
            run.submit_ms.append((time.monotonic() - sent) * 1000)
            if placed is not None:
                run.accepted[placed["id"]] = placed
                run.owner[placed["id"]] = user
            else:
                run.refused[refusal] += 1

    await asyncio.gather(*(worker() for _ in range(args.concurrency)))
    run.submitted_ms = time.time() * 1000
    return time.monotonic() - began


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
        walks: Counter[str] = Counter()
        walker = None
        if args.walk:
            decimals = await price_decimals(api, list(symbols.values()))
            walker = asyncio.create_task(walk_marks(decimals, Decimal(args.walk), walks))
            await asyncio.sleep(2)  # the first steps of the walks are under way
        took = await submit_all(api, args, users, pairs, run, shards)
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
        if walker is not None:
            walker.cancel()
            await asyncio.gather(walker, return_exceptions=True)
            print(f"  marks walked by the market maker (--walk {args.walk}): {dict(walks)}")
        await asyncio.sleep(2)  # the last pushes
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
        await report(api, args, users, run, rows, await asyncio.to_thread(shard_status, shards))


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
    parser.add_argument("--direct", action="store_true",
                        help="stake on the MicroTimers over Ray (what the API calls), not through the API")  # fmt: skip
    parser.add_argument("--rate", type=float, default=0, help="submissions a second at most (0: as fast as it goes)")
    parser.add_argument("--grace", type=float, default=60, help="seconds to wait past the last end for the rest")
    parser.add_argument("--verify", type=int, default=20, help="how many contracts verify_micro.py checks")
    parser.add_argument("--kill", action="store_true", help="kill a MicroTimer shard when half have ended")
    parser.add_argument("--kill-shard", type=int, default=0)
    parser.add_argument(
        "--walk",
        default="",
        help="keep the market maker walking each pair's price this "
        "fraction up and down (0.002: 0.2 %%): marks tick as a live market's (mark_walker.py)",
    )
    asyncio.run(main(parser.parse_args()))
