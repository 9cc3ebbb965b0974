"""What ``bench/micro_bench.py`` saw, and its checks: the figures it prints, that every contract settled
exactly once (the journal, the house rows, the users' balances) and a sample verified from the public
API. Prints; asserts nothing about time."""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import httpx
from measure import pct
from verify_micro import check_one

from config.settings import get_settings
from tests.utils.users import Member as User

USDT = 1
LATE_MS = 5000  # the bound with a shard killed


def figures(values: list[float], unit: str = " ms") -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    return (f"p50 {pct(ordered, 50):8.1f}{unit}   p99 {pct(ordered, 99):8.1f}{unit}   max {ordered[-1]:8.1f}{unit}"
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


def end_of(order: dict[str, Any]) -> int:
    """A contract's end: its entry's time + the duration once the entry tick came, else (not come yet,
    or void: no tick came in time) its acceptance + the duration."""
    return order["end_at"] or order["accepted_at"] + order["seconds"] * 1000


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


async def report(api: httpx.AsyncClient, args: argparse.Namespace, users: list[User], run: Run,
                 rows: dict[int, dict[str, Any]], statuses: list[dict[str, Any]]) -> None:  # fmt: skip
    ours = [rows[i] for i in run.accepted if i in rows]
    lags = [r["settled_at"] - end_of(r) for r in ours if r["settled_at"] is not None]
    outcomes = Counter(r["outcome"] for r in ours)
    print(f"closed {len(ours)} of {len(run.accepted)}: {dict(outcomes)}")
    ending = Counter((r["match_id"], end_of(r)) for r in ours)  # contracts that share an entry tick end together
    print(f"  contracts ending in the same millisecond on a pair, seen from each contract   "
          f"{figures([ending[(r['match_id'], end_of(r))] for r in ours], unit='')}")  # fmt: skip
    print(f"  settlement lag, settled_at - end (rows)    {figures(lags)}")
    for label, phase in (("while submitting", True), ("after the last submit", False)):
        some = [r["settled_at"] - end_of(r) for r in ours
                if r["settled_at"] is not None and (end_of(r) < run.submitted_ms) == phase]  # fmt: skip
        print(f"    ends {label:<22}               {figures(some)}")
    late = [x for x in lags if x > LATE_MS]
    print(f"  settled more than {LATE_MS / 1000:.0f} s after the end: {len(late)}")
    print(f"  tick_fence round trip (sampled all along)   {figures(run.fence_ms)}")
    for status in statuses:
        print(f"  micro:{status['index']} durable - end (status)    p50 {status['lag_p50_ms']} ms   "
              f"p99 {status['lag_p99_ms']} ms   max {status['lag_max_ms']} ms   (n {status['settled']}; "
              f"{status['open']} open)")  # fmt: skip
        if status.get("commits"):
            size, commit, push = (status[k] for k in ("commit_size", "commit_ms", "push_ms"))
            print(f"    {status['commits']} commits: contracts p50 {size['p50']} max {size['max']}; transaction p50 "
                  f"{commit['p50']:.0f} p99 {commit['p99']:.0f} max {commit['max']:.0f} ms; pushes p50 "
                  f"{push['p50']:.1f} p99 {push['p99']:.1f} ms")  # fmt: skip
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
