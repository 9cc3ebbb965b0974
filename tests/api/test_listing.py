"""Listing applications through the API: the public list (with the user's application count and
financial USDT) and detail, applying with USDT, every refusal, the records page, and the project's
life run by a Scheduler's sweeps whose clock the tests move: at the end the remaining tokens are
allocated pro rata to the USDT applied and the USDT won goes to the house; on the online date the
tokens won are credited; at 7 days the rest of each lock returns. Each step happens once, and the
system's totals, house rows included, never change."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import httpx

from serve.i18n import translate
from store.earn import SALE_ISSUE, SALE_PROCEEDS, listing
from store.models import AccountLog, HouseLedger, ListingApplication, ListingProject
from tests.utils.sales import (
    DAY_MS,
    FINANCIAL,
    HOUR_MS,
    Sweeper,
    financial_member,
    get,
    make_project,
    post,
    totals,
)
from tests.utils.users import Member, error, ok
from tests.utils.wallets import USDT, balance

MVBT = 16


def apply(api: httpx.Client, m: Member, project_id: int, nums: Any) -> httpx.Response:
    return post(api, "listing/buy", json={"id": project_id, "nums": nums}, headers=m.auth)


def orders(api: httpx.Client, m: Member, page: int = 1) -> dict[str, Any]:
    return ok(get(api, "listing/orders", params={"page": page}, headers=m.auth))


async def test_the_list_and_the_detail_are_public_with_every_field(api: httpx.Client, db: None) -> None:
    project = await make_project(price="0.5", total="20000", shengyu="10000")
    found = ok(get(api, "listing/info", params={"id": project.id}))
    assert found == {
        "id": project.id, "title": project.title, "desc": "a listing for tests", "status": 1, "bizhong": "MVBT",
        "total": "20000", "shengyu": "10000", "radio": "0", "price": "0.5", "applied": "0", "btime": project.btime,
        "etime": project.etime, "online": project.online, "lock_days": 7, "min_amount": "1", "allocated_at": None,
        "money": "0",
    }  # fmt: skip
    listed = ok(get(api, "listing/index"))
    assert listed["nums"] == 0 and {1, 2, 3, project.id} <= {p["id"] for p in listed["list"]}
    seeded = {p["id"]: p["status"] for p in listed["list"]}
    assert (seeded[1], seeded[2], seeded[3]) == (1, 0, 2)  # in progress, upcoming, ended

    alice = await financial_member(api, "1000")
    ok(apply(api, alice, project.id, "250"))  # 250 USDT
    mine = ok(get(api, "listing/index", headers=alice.auth))
    assert mine["nums"] == 1
    (row,) = [p for p in mine["list"] if p["id"] == project.id]
    assert (row["money"], row["applied"], row["radio"]) == ("750", "250", "5")  # 250 of 5000 USDT of room
    assert ok(get(api, "listing/info", params={"id": project.id}, headers=alice.auth))["money"] == "750"

    assert error(get(api, "listing/info", params={"id": 999_999}), 404) == "Listing project not found"
    for bad in ({}, {"id": 0}, {"id": "x"}, {"id": 2**40}):
        assert error(get(api, "listing/info", params=bad), 400)


async def test_an_application_locks_its_usdt_for_seven_days(api: httpx.Client, db: None) -> None:
    project = await make_project()
    alice = await financial_member(api, "1000")
    found = ok(apply(api, alice, project.id, "400.25"))
    assert abs(found["release_ms"] - found["times"] - 7 * DAY_MS) < 5000  # the earn clock's now vs the row's time
    assert {k: found[k] for k in ("project_id", "bizhong", "total", "nums", "won_usdt", "status", "released",
                                   "credited", "online")} == {
        "project_id": project.id, "bizhong": "MVBT", "total": "400.25", "nums": "0", "won_usdt": "0", "status": 0,
        "released": False, "credited": False, "online": project.online}  # fmt: skip
    assert balance(api, alice, USDT, FINANCIAL) == (Decimal("599.75"), Decimal("400.25"))
    log = await AccountLog.get(user_id=alice.uid, log_type="listing")
    assert (log.amount, log.lock_amount) == (Decimal("-400.25"), Decimal("400.25"))
    assert orders(api, alice) == {"list": [found], "total": 1, "page": 1}
    response = apply(api, alice, project.id, 100)
    assert response.json()["msg"] == "Purchase successful"


async def test_refusals_are_clear_and_lock_nothing(api: httpx.Client, db: None) -> None:
    project = await make_project()
    alice = await financial_member(api, "100")
    for nums in ("0", 0, "-5", -1, "", None, "abc", True):
        assert error(apply(api, alice, project.id, nums), 400) == "No funds: enter an amount of USDT above 0", nums
    assert error(apply(api, alice, project.id, "100.0000001"), 400) == "The amount can have at most 6 decimal places"
    assert error(apply(api, alice, project.id, "100.000001"), 400) == "Insufficient balance"
    assert error(apply(api, alice, project.id, "2000000000"), 400) == "The amount can be at most 1000000000"
    later = await make_project(starts_in_ms=HOUR_MS, ends_in_ms=2 * HOUR_MS)
    assert error(apply(api, alice, later.id, "1"), 400) == "Applications for this listing have not opened yet"
    ended = await make_project(starts_in_ms=-2 * HOUR_MS, ends_in_ms=-HOUR_MS)
    assert error(apply(api, alice, ended.id, "1"), 409) == "Applications for this listing have closed"
    assert error(apply(api, alice, 999_999, "1"), 404) == "Listing project not found"
    for body in ({}, {"id": "x", "nums": "1"}, {"id": 0, "nums": "1"}, {"nums": "1"}):
        assert error(post(api, "listing/buy", json=body, headers=alice.auth), 400)
    assert error(post(api, "listing/buy", json={"id": project.id, "nums": "1"}), 401, 999)
    assert error(get(api, "listing/orders"), 401, 999)
    for page in ("0", "x", "-1"):
        assert error(get(api, "listing/orders", params={"page": page}, headers=alice.auth), 400)
    assert balance(api, alice, USDT, FINANCIAL) == (Decimal(100), 0)
    assert await ListingApplication.filter(user_id=alice.uid).count() == 0


async def test_the_records_page_ten_at_a_time_newest_first(api: httpx.Client, db: None) -> None:
    project = await make_project()
    alice = await financial_member(api, "100")
    for n in range(12):
        ok(apply(api, alice, project.id, str(n + 1)))
    first, second = orders(api, alice, 1), orders(api, alice, 2)
    assert (first["total"], first["page"], len(first["list"]), len(second["list"])) == (12, 2, 10, 2)
    assert [r["total"] for r in first["list"]][:2] == ["12", "11"] and second["list"][-1]["total"] == "1"
    assert orders(api, alice, 3)["list"] == []


async def test_a_project_is_allocated_credited_on_its_online_date_and_released_at_seven_days(
    api: httpx.Client, sweep: Sweeper
) -> None:
    """10000 MVBT left at 0.5 USDT (5000 USDT of room); alice applies 4000 and bob 6000 USDT: each wins
    half (4000 and 6000 MVBT for 2000 and 3000 USDT). Online in 3 days, locks of 7 days."""
    project = await make_project(price="0.5", shengyu="10000", ends_in_ms=HOUR_MS, online_in_ms=3 * DAY_MS)
    alice, bob = await financial_member(api), await financial_member(api)
    before = await totals()
    applied = {alice.uid: ok(apply(api, alice, project.id, "4000")), bob.uid: ok(apply(api, bob, project.id, "6000"))}
    created = min(a["times"] for a in applied.values())

    await sweep.at(project.etime - 60_000)
    assert (await ListingProject.get(id=project.id)).allocated_at is None
    await sweep.at(project.etime + 1000)  # the end: allocated, the USDT won to the house
    expect = {alice.uid: ("4000", "2000", 1), bob.uid: ("6000", "3000", 1)}
    for m in (alice, bob):
        (row,) = orders(api, m)["list"]
        assert (row["nums"], row["won_usdt"], row["status"], row["released"], row["credited"]) == (
            *expect[m.uid], False, False)  # fmt: skip
    assert balance(api, alice, USDT, FINANCIAL) == (Decimal(6000), Decimal(2000))  # 2000 still locked
    assert balance(api, bob, USDT, FINANCIAL) == (Decimal(4000), Decimal(3000))
    assert ok(get(api, "listing/info", params={"id": project.id}))["status"] == 2
    assert await totals() == before

    await sweep.at(project.online - 60_000)
    assert balance(api, alice, MVBT, FINANCIAL) == (0, 0)
    await sweep.at(project.online + 1000)  # the online date: the tokens won arrive
    assert balance(api, alice, MVBT, FINANCIAL) == (Decimal(4000), 0)
    assert balance(api, bob, MVBT, FINANCIAL) == (Decimal(6000), 0)
    assert all(r["credited"] for m in (alice, bob) for r in orders(api, m)["list"])
    assert await totals() == before

    await sweep.at(created + 7 * DAY_MS - 60_000)  # a minute before the 7 days: still locked
    assert balance(api, alice, USDT, FINANCIAL) == (Decimal(6000), Decimal(2000))
    await sweep.at(max(a["release_ms"] for a in applied.values()) + 1000)  # 7 days: the rest returns
    assert balance(api, alice, USDT, FINANCIAL) == (Decimal(8000), 0)
    assert balance(api, bob, USDT, FINANCIAL) == (Decimal(7000), 0)
    assert all(r["released"] for m in (alice, bob) for r in orders(api, m)["list"])

    house = {kind: sum(await HouseLedger.filter(kind=kind, ref__startswith="ls").filter(
        position_id__in=[a["id"] for a in applied.values()]).values_list("amount", flat=True), Decimal(0))
        for kind in (SALE_PROCEEDS, SALE_ISSUE)}  # fmt: skip
    assert house == {SALE_PROCEEDS: Decimal(5000), SALE_ISSUE: Decimal(-10000)}
    assert await totals() == before

    # Each step happened once: the sweeps again, and each step called again, change nothing.
    await sweep.at(created + 30 * DAY_MS)
    project = await ListingProject.get(id=project.id).prefetch_related("bizhong")
    usdt = await listing.usdt()
    assert not await listing.allocate(project.id, created + 30 * DAY_MS)
    for app in await ListingApplication.filter(project_id=project.id):
        assert not await listing.decide(app, project, usdt.id)
        assert not await listing.release(app, project, usdt.id)
        if app.status == listing.WON:
            assert not await listing.credit(app, project)
    assert await totals() == before


async def test_an_undersubscribed_project_gives_all_that_was_applied_for(api: httpx.Client, sweep: Sweeper) -> None:
    project = await make_project(price="0.3", shengyu="10000", online_in_ms=2 * HOUR_MS)
    alice = await financial_member(api, "100")
    before = await totals()
    ok(apply(api, alice, project.id, "1"))  # 3.33333 MVBT (the step is 0.00001 MVBT, 3 micro-USDT)
    await sweep.at(project.online + 1)
    (row,) = orders(api, alice)["list"]
    assert (row["nums"], row["won_usdt"], row["status"], row["credited"]) == ("3.33333", "0.999999", 1, True)
    assert balance(api, alice, MVBT, FINANCIAL) == (Decimal("3.33333"), 0)
    assert balance(api, alice, USDT, FINANCIAL) == (Decimal("99"), Decimal("0.000001"))  # until the 7 days
    assert await totals() == before


async def test_a_share_below_one_step_wins_nothing_and_all_of_it_returns(api: httpx.Client, sweep: Sweeper) -> None:
    """1 MVBT left at 0.5 USDT; alice applies 10000 USDT and carol 1 micro-USDT (one step, 0.000002
    MVBT; the project takes that little): carol's share, 1 x 0.000002 / 20000.000002 MVBT, is below a
    step: she wins nothing."""
    project = await make_project(price="0.5", shengyu="1", online_in_ms=2 * HOUR_MS, min_amount="0.000001")
    alice, carol = await financial_member(api), await financial_member(api)
    before = await totals()
    ok(apply(api, alice, project.id, "10000"))
    applied = ok(apply(api, carol, project.id, "0.000001"))
    await sweep.at(project.online + 1)
    (row,) = orders(api, carol)["list"]
    assert (row["nums"], row["won_usdt"], row["status"], row["credited"], row["released"]) == ("0", "0", 2, False,
                                                                                                False)  # fmt: skip
    assert orders(api, alice)["list"][0]["nums"] == "0.999998"  # 1 x 20000 / 20000.000002, down to the step
    await sweep.at(applied["release_ms"] + 1)
    assert balance(api, carol, USDT, FINANCIAL) == (Decimal(10000), 0)
    assert balance(api, carol, MVBT, FINANCIAL) == (0, 0)
    assert orders(api, carol)["list"][0]["released"]
    assert await totals() == before


async def test_an_application_below_the_projects_minimum_is_refused_naming_it(api: httpx.Client, db: None) -> None:
    """A project takes applications of at least its ``min_amount`` USDT (1 unless the operator sets
    another), as a sale does: a micro-USDT one was accepted."""
    project = await make_project()
    alice = await financial_member(api, "100")
    assert ok(get(api, "listing/info", params={"id": project.id}))["min_amount"] == "1"
    for nums in ("0.000001", "0.999999"):
        assert error(apply(api, alice, project.id, nums), 400) == "The minimum application is 1 USDT", nums
    for lang in ("hk", "jp", "gm", "fr"):
        refused = post(api, "listing/buy", json={"id": project.id, "nums": "0.5"}, headers={**alice.auth, "lang": lang})
        assert error(refused, 400) == translate("The minimum application is {min} {currency}", lang, min="1",
                                                currency="USDT")  # fmt: skip
    assert balance(api, alice, USDT, FINANCIAL) == (100, 0)
    ok(apply(api, alice, project.id, "1"))
    await ListingProject.filter(id=project.id).update(min_amount=Decimal(25))
    assert error(apply(api, alice, project.id, "24.99"), 400) == "The minimum application is 25 USDT"
    ok(apply(api, alice, project.id, "25"))
    assert await ListingApplication.filter(user_id=alice.uid).count() == 2
