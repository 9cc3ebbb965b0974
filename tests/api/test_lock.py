"""Lock savings through the API (storage_currency/*): a member funds the financial account, locks one
lot of a product, and a Scheduler of the test's own moves through the days: each day's interest lands
in the lock once (the house pays it), the maturity returns principal and interest once, whatever the
runs repeat. Every movement is in the financial account's log; the sum of the users' financial
accounts and the earn house rows never moves. Every refusal is a translated message with its status."""

from __future__ import annotations

from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import httpx
import pytest

from serve.stack import Stack
from store.earn import lock
from store.earn.clock import day_text
from store.models import AccountLog, AccountType, EarnAccrual, HouseLedger, LockOrder, LockProduct
from tests.utils.earn import EarnScheduler, held, today
from tests.utils.users import Member, error, member, ok
from tests.utils.wallets import USDT, balance, fund, system_totals

FINANCIAL = int(AccountType.FINANCIAL)
SEVEN_DAYS = 1  # seeded: 7 days, 5 % a year, lots of 100 USDT
DAILY = Decimal("0.013698")  # 100 x 5 / 100 / 365, rounded down to USDT's 6 places


@pytest.fixture(autouse=True)
def _orm(db: None) -> None:
    """The ORM open in the test process (funding and white-box reads)."""


@pytest.fixture
async def clock(stack: Stack, db: None) -> AsyncIterator[EarnScheduler]:
    found = EarnScheduler(stack.settings)
    found.start()
    try:
        yield found
    finally:
        await found.stop()


@pytest.fixture
async def quota_product(db: None) -> AsyncIterator[LockProduct]:
    """A product of the test's own: a 3-day lot of 10 USDT at 36.5 % a year, one lot on sale."""
    product = await LockProduct.create(name="test quota lock", currency_id=USDT, limit_days=3,
                                       display_rate=Decimal("36.5"), limit_number=Decimal(10), quota_lots=1,
                                       sort=99)  # fmt: skip
    try:
        yield product
    finally:
        await LockProduct.filter(id=product.id).update(open=False)  # orders keep it; it leaves the shelf


async def saver(api: httpx.Client, amount: str = "1000") -> Member:
    m = member(api)
    await fund(m, "USDT", amount, AccountType.FINANCIAL)
    return m


def submit(api: httpx.Client, m: Member | None, product_id: Any, lang: str = "en") -> httpx.Response:
    headers = {**(m.auth if m else {}), "lang": lang}
    return api.post("storage_currency/submit_lock", json={"id": product_id}, headers=headers)


def get(api: httpx.Client, route: str, m: Member | None = None, **params: Any) -> httpx.Response:
    return api.get(f"storage_currency/{route}", params=params, headers=m.auth if m else {})


def sold(api: httpx.Client, product_id: int) -> int:
    return next(p for p in ok(get(api, "lock_list")) if p["id"] == product_id)["sold_lots"]


def mine(api: httpx.Client, m: Member) -> list[dict[str, Any]]:
    return ok(api.get("storage_currency/current_setting", headers=m.auth))


def find(api: httpx.Client, m: Member, order_id: int) -> dict[str, Any]:
    return next(o for o in mine(api, m) if o["id"] == order_id)


def records(api: httpx.Client, m: Member) -> list[dict[str, Any]]:
    return ok(api.get("account_log/financial", params={"currency_id": USDT}, headers=m.auth))["data"]


def lock_list(api: httpx.Client, limit: int) -> httpx.Response:
    return api.get("storage_currency/lock_list", params={"limit": limit})


async def test_the_list_is_public_with_the_seeded_products(api: httpx.Client) -> None:
    products = ok(lock_list(api, 30))
    seeded = {p["id"]: p for p in products}
    assert {1, 2, 3} <= set(seeded)
    assert {k: seeded[1][k] for k in ("name", "limit_days", "display_rate", "limit_number", "quota_lots", "open")} == {
        "name": "USDT 7-day lock", "limit_days": 7, "display_rate": "5", "limit_number": "100", "quota_lots": 0,
        "open": True}  # fmt: skip
    assert seeded[1]["currency"]["code"] == "USDT" and isinstance(seeded[1]["sold_lots"], int)
    # In their sort order, then by id (an operator's products, made by other tests too, take their places).
    keys = {r.id: (r.sort, r.id) for r in await LockProduct.filter(id__in=list(seeded))}
    assert [p["id"] for p in products] == sorted(seeded, key=keys.__getitem__)
    assert [i for i in (p["id"] for p in products) if i in (1, 2, 3)] == [1, 2, 3]
    assert len(ok(lock_list(api, 1))) == 1
    assert "Page size" in error(lock_list(api, 0), 400)


async def test_a_lot_is_locked_from_the_financial_account(api: httpx.Client) -> None:
    m = await saver(api)
    sold_before = sold(api, SEVEN_DAYS)
    response = submit(api, m, SEVEN_DAYS)
    order = ok(response)
    assert response.json()["msg"] == "Purchase successful"
    first = today() + 1
    assert order == {
        "id": order["id"], "product_id": SEVEN_DAYS, "name": "USDT 7-day lock", "currency_code": "USDT",
        "amount": "100", "display_rate": "5", "limit_days": 7, "start": day_text(first),
        "maturity": day_text(first + 6), "accrued": "0", "expected": str(DAILY * 7), "days_booked": 0, "status": 0,
        "created_at": order["created_at"],
    }  # fmt: skip
    assert balance(api, m, USDT, FINANCIAL) == (Decimal(900), Decimal(100))
    assert mine(api, m) == [order]
    assert sold(api, SEVEN_DAYS) == sold_before + 1
    (log,) = records(api, m)[:1]
    assert (log["log_type"], log["value"], log["lock_value"]) == ("lock_savings", "-100", "100")
    assert f"#{order['id']}" in log["memo"] and log["notes"] == "Lock savings"


async def test_refusals_are_translated_messages(api: httpx.Client, quota_product: LockProduct) -> None:
    m = await saver(api, "105")
    assert error(submit(api, None, SEVEN_DAYS), 401, 999)
    assert error(submit(api, m, 999_999), 404) == "Lock product not found"
    assert error(submit(api, m, "seven"), 400) == "ID is invalid"
    assert error(submit(api, m, None), 400) == "ID is invalid"
    assert error(submit(api, m, 2**40), 400) == "ID is invalid"
    assert error(submit(api, m, 2), 400) == "Insufficient balance"  # a lot of 500
    assert error(submit(api, m, 2, lang="hk"), 400) != "Insufficient balance"  # in the request's language
    ok(submit(api, m, quota_product.id))
    assert error(submit(api, m, quota_product.id), 409) == "This lock product is sold out"
    await LockProduct.filter(id=quota_product.id).update(open=False)
    assert error(submit(api, m, quota_product.id), 400) == "This lock product is not on sale"
    assert error(get(api, "current_setting"), 401, 999)
    assert balance(api, m, USDT, FINANCIAL) == (Decimal(95), Decimal(10))  # only the one lot moved


async def test_interest_lands_once_a_day_and_the_maturity_once(api: httpx.Client, clock: EarnScheduler) -> None:
    m, other = await saver(api), await saver(api)
    before, held_before = await system_totals(), await held([m.uid, other.uid])
    order = ok(submit(api, m, SEVEN_DAYS))
    ok(submit(api, other, SEVEN_DAYS))
    start = today()

    await clock.through(start)  # the buy day earns nothing
    assert find(api, m, order["id"])["days_booked"] == 0
    await clock.through(start + 3)
    three = find(api, m, order["id"])
    assert (three["days_booked"], three["accrued"], three["status"]) == (3, str(DAILY * 3), 0)
    assert balance(api, m, USDT, FINANCIAL) == (Decimal(900), 100 + DAILY * 3)  # interest waits in the lock
    await clock.through(start + 3)  # again, and a pass more: nothing repeats
    await clock.handle.run_due.remote()
    assert find(api, m, order["id"])["accrued"] == str(DAILY * 3)

    await clock.through(start + 10)  # past the maturity: the last days, then principal and interest
    ended = find(api, m, order["id"])
    assert (ended["days_booked"], ended["accrued"], ended["status"]) == (7, str(DAILY * 7), 1)
    assert balance(api, m, USDT, FINANCIAL) == (1000 + DAILY * 7, Decimal(0))
    await clock.through(start + 12)
    assert balance(api, m, USDT, FINANCIAL) == (1000 + DAILY * 7, Decimal(0))

    accruals = await EarnAccrual.filter(kind="lock", order_id=order["id"]).order_by("day").values_list("day", "amount")
    assert accruals == [(start + d, DAILY) for d in range(1, 8)]  # each day once, in order
    row = await LockOrder.get(id=order["id"])
    assert row.ended_at is not None and row.end_day == start + 7
    house = await HouseLedger.filter(ref__startswith=f"lk{order['id']}:", kind="earn_interest").values_list(
        "ref", "amount"
    )
    assert sorted(house) == sorted((f"lk{order['id']}:d{start + d}", -DAILY) for d in range(1, 8))
    logs = await AccountLog.filter(user_id=m.uid, log_type="lock_savings").order_by("id").values_list("ref", "amount",
                                                                                                       "lock_amount")  # fmt: skip
    oid = order["id"]
    assert logs == [(f"lk{oid}:lock", Decimal(-100), Decimal(100))] + [
        (f"lk{oid}:d{start + d}", Decimal(0), DAILY) for d in range(1, 8)
    ] + [(f"lk{oid}:end", 100 + DAILY * 7, -(100 + DAILY * 7))]  # fmt: skip
    notes = [r["notes"] for r in records(api, m)]
    assert notes.count("Lock savings") == 9  # the lock, seven days, the maturity
    assert await system_totals() == before  # the house paid exactly what the savers earned
    assert await held([m.uid, other.uid]) == held_before


async def test_a_day_the_scheduler_missed_is_booked_by_the_next_run(api: httpx.Client, clock: EarnScheduler) -> None:
    """An order bought on a day the Scheduler already went past still earns every day of its term."""
    m = await saver(api)
    start = today()
    await clock.through(start + 2)
    made = await lock.buy(uid=m.uid, product_id=SEVEN_DAYS, day=start - 3)  # bought three days ago
    await clock.through(start + 3)
    row = await LockOrder.get(id=made.id)
    assert (row.days_booked, row.accrued) == (6, DAILY * 6)  # start-2 .. start+3
    days = await EarnAccrual.filter(kind="lock", order_id=made.id).order_by("day").values_list("day", flat=True)
    assert days == list(range(start - 2, start + 4))


async def test_a_day_whose_interest_rounds_to_nothing_is_still_booked_once(api: httpx.Client) -> None:
    """A lot too small to earn a unit a day: each day is booked (at 0, with no journal or house row),
    and the maturity returns the principal; booking again changes nothing."""
    m = await saver(api, "1")
    product = await LockProduct.create(name="test tiny lock", currency_id=USDT, limit_days=2, display_rate=Decimal(1),
                                       limit_number=Decimal("0.01"), sort=99)  # fmt: skip
    try:
        made = await lock.buy(uid=m.uid, product_id=product.id, day=today() - 5)
    finally:
        await LockProduct.filter(id=product.id).update(open=False)
    assert await lock.settle(made.id, today(), 6) == (2, True)
    assert await lock.settle(made.id, today(), 6) == (0, False)
    row = await LockOrder.get(id=made.id)
    assert (row.status, row.days_booked, row.accrued) == (1, 2, 0)
    days = await EarnAccrual.filter(kind="lock", order_id=made.id).values_list("day", "amount")
    assert sorted(days) == [(made.start_day + 1, 0), (made.start_day + 2, 0)]
    refs = await AccountLog.filter(user_id=m.uid, log_type="lock_savings").values_list("ref", flat=True)
    assert sorted(refs) == [f"lk{made.id}:end", f"lk{made.id}:lock"]
    assert not await HouseLedger.filter(ref__startswith=f"lk{made.id}:").exists()
    assert balance(api, m, USDT, FINANCIAL) == (Decimal(1), Decimal(0))
