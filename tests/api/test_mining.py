"""Mining through the API (mining/*): a member funds the financial account, puts principal into a
product, and a Scheduler of the test's own moves through the days: every day pays the product's
published rate of that day (one rate per product and day, the same for every holder) into the balance
once, the cycle's end returns the principal once; a cancel returns it less penalty_rate % x remaining
days x principal (the spec's 3 days on 1000 at 0.4 % gives 12), which the house keeps. Every movement
is in the financial account's log; the users' financial accounts and the earn house rows always sum to
what was funded. Every refusal is a translated message with its status."""

from __future__ import annotations

from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import httpx
import pytest

from serve.stack import Stack
from store.earn import mining
from store.earn.clock import day_text
from store.models import AccountLog, AccountType, EarnAccrual, HouseLedger, MiningOrder, MiningProduct, MiningRate
from tests.utils.earn import EarnScheduler, held, today
from tests.utils.users import Member, error, member, ok
from tests.utils.wallets import USDT, balance, fund, system_totals

FINANCIAL = int(AccountType.FINANCIAL)
ACB = 15
POOL = 1  # seeded: 0.3-0.4 % a day for 5 days, 100 to 100000, penalty 0.4 % a remaining day
NOT_STARTED = 3
D = Decimal


@pytest.fixture(autouse=True)
def _orm(db: None) -> None:
    """The ORM open in the test process (funding and white-box reads)."""


@pytest.fixture
async def clock(stack: Stack) -> AsyncIterator[EarnScheduler]:
    found = EarnScheduler(stack.settings)
    found.start()
    try:
        yield found
    finally:
        await found.stop()


@pytest.fixture
async def own_pool() -> AsyncIterator[MiningProduct]:
    """A product of the test's own (its range may change): 0.3-0.4 % for 5 days."""
    product = await MiningProduct.create(title="test pool", rate_min=D("0.3"), rate_max=D("0.4"), zhouqi=5,
                                         mins=D(10), maxs=D(10_000), sort=99)  # fmt: skip
    try:
        yield product
    finally:
        await MiningProduct.filter(id=product.id).update(status=mining.ENDED)


async def miner(api: httpx.Client, usdt: str = "5000", acb: str = "0") -> Member:
    m = member(api)
    await fund(m, "USDT", usdt, AccountType.FINANCIAL)
    if D(acb):
        await fund(m, "ACB", acb, AccountType.FINANCIAL)
    return m


def get(api: httpx.Client, route: str, m: Member | None = None, **params: Any) -> httpx.Response:
    return api.get(f"mining/{route}", params=params, headers=m.auth if m else {})


def post(api: httpx.Client, route: str, m: Member | None, body: dict[str, Any], lang: str = "en") -> httpx.Response:
    return api.post(f"mining/{route}", json=body, headers={**(m.auth if m else {}), "lang": lang})


def buy(api: httpx.Client, m: Member | None, nums: Any = "1000", type_: int = 1, product: int = POOL) -> httpx.Response:
    return post(api, "buy", m, {"id": product, "nums": nums, "type": type_})


def orders(api: httpx.Client, m: Member, type_: int = 0, page: int = 1) -> dict[str, Any]:
    return ok(get(api, "orders", m, type=type_, page=page))


def find(api: httpx.Client, m: Member, order_id: int) -> dict[str, Any]:
    for type_ in (0, 1):
        for row in orders(api, m, type_)["list"]:
            if row["id"] == order_id:
                return row
    raise AssertionError(f"order {order_id} not listed")


def records(api: httpx.Client, m: Member) -> list[dict[str, Any]]:
    return ok(api.get("account_log/financial", params={"currency_id": USDT}, headers=m.auth))["data"]


async def rates(product_id: int, days: range) -> list[Decimal]:
    found = dict(await MiningRate.filter(product_id=product_id, day__in=list(days)).values_list("day", "rate"))
    return [found[d] for d in days]  # type: ignore[index]


def paid(nums: Decimal, day_rates: list[Decimal]) -> Decimal:
    return sum((mining.day_yield(nums, r, 6) for r in day_rates), D(0))


def test_the_products_and_the_summary_are_public(api: httpx.Client) -> None:
    index = ok(get(api, "index"))
    assert index["info"] == {"total": "0", "today": "0", "shouyi": "0", "nums": 0}
    products = {p["id"]: p for p in index["list"]}
    assert products[POOL] == {
        "id": POOL, "title": "Smart mining pool", "logo": "", "shouyi": "0.3-0.4", "rate_min": "0.3", "rate_max": "0.4",
        "zhouqi": 5, "mins": "100", "maxs": "100000", "penalty_rate": "0.4", "status": 1, "yuji": "1.75",
    }  # fmt: skip
    assert products[NOT_STARTED]["status"] == 0
    info = ok(get(api, "info", id=POOL))
    assert (info["money"], info["acb"], info["mvbt"], info["shouyi"]) == ("0", "0", "0", "0.3-0.4")
    assert info["rate_today"] is None or D("0.3") <= D(info["rate_today"]) <= D("0.4")
    assert error(get(api, "info", id=999_999), 404) == "Mining product not found"
    assert error(get(api, "info", id="pool"), 400) == "ID is invalid"


async def test_a_buy_holds_the_principal_in_the_financial_account(api: httpx.Client) -> None:
    m = await miner(api, "5000", "1000")
    response = buy(api, m, "1000")
    order = ok(response)
    assert response.json()["msg"] == "Purchase successful"
    assert order == {
        "id": order["id"], "product_id": POOL, "title": "Smart mining pool", "shouyi": "0.3-0.4", "zhouqi": 5,
        "times": order["times"], "type": 1, "currency_code": "USDT", "nums": "1000", "days": 0, "total": "0",
        "penalty_rate": "0.4", "penalty": "0", "returned": "0", "status": 0, "start_date": day_text(today() + 1),
        "end_date": day_text(today() + 5),
    }  # fmt: skip
    assert balance(api, m, USDT, FINANCIAL) == (D(4000), D(1000))
    in_acb = ok(buy(api, m, "500", type_=2))
    assert (in_acb["currency_code"], in_acb["type"]) == ("ACB", 2)
    assert balance(api, m, ACB, FINANCIAL) == (D(500), D(500))
    info = ok(get(api, "info", m, id=POOL))
    assert (info["money"], info["acb"], info["mvbt"]) == ("4000", "500", "0")
    summary = ok(get(api, "index", m))["info"]
    assert (summary["today"], summary["shouyi"], summary["nums"]) == ("0", "0", 2)
    assert 1000 < D(summary["total"]) < 1500  # 1000 USDT and 500 ACB, valued in USDT
    listed = orders(api, m)
    assert [o["id"] for o in listed["list"]] == [in_acb["id"], order["id"]] and listed["page"] == 1
    assert listed["info"] == summary and orders(api, m, 1)["list"] == []
    logs = records(api, m)
    assert (logs[0]["log_type"], logs[0]["value"], logs[0]["lock_value"], logs[0]["notes"]) == (
        "mining", "-1000", "1000", "Mining")  # fmt: skip


async def test_refusals_are_translated_messages_with_the_number(api: httpx.Client) -> None:
    m, other = await miner(api, "5000"), await miner(api, "5000")
    assert error(buy(api, None), 401, 999)
    assert error(buy(api, m, "99.99"), 400) == "The minimum amount is 100"
    assert error(buy(api, m, "100001"), 400) == "The maximum amount is 100000"
    assert error(buy(api, m, "6000"), 400) == "Insufficient balance"
    assert error(buy(api, m, "6000", product=2), 400) == "Insufficient balance"
    assert error(buy(api, m, "6000"), 400) != error(post(api, "buy", m, {"id": POOL, "nums": "6000"}, "hk"), 400)
    for nums in ("", None, "abc", "-5", "0", True):
        assert error(buy(api, m, nums), 400) == "Please enter the amount", nums
    assert error(buy(api, m, [1]), 400).endswith("is invalid")
    assert error(buy(api, m, "100.1234567"), 400) == "The amount can have at most 6 decimal places"
    assert error(buy(api, m, "1" + "0" * 40), 400) == "The maximum amount is 100000"
    assert error(buy(api, m, "1000", type_=4), 400) == "Please choose USDT, ACB or MVBT"
    assert error(buy(api, m, "1000", type_=3), 400) == "Insufficient balance"  # MVBT: none held
    assert error(buy(api, m, "1000", product=NOT_STARTED), 400) == "This mining product is not open for subscription"
    assert error(buy(api, m, "1000", product=999_999), 404) == "Mining product not found"
    assert error(post(api, "buy", m, {"nums": "1000"}), 400) == "ID is required"
    assert balance(api, m, USDT, FINANCIAL) == (D(5000), D(0))  # nothing moved
    order = ok(buy(api, m, "1000"))
    assert error(post(api, "cancel", other, {"id": order["id"]}), 404) == "Mining order not found"
    assert error(post(api, "cancel", m, {"id": 2**62}), 404) == "Mining order not found"
    assert error(post(api, "cancel", m, {"id": "x"}), 400) == "ID is invalid"
    assert error(post(api, "cancel", None, {"id": order["id"]}), 401, 999)
    assert error(get(api, "orders", m, type=2), 400)
    assert error(get(api, "orders", m, page=0), 400)
    assert error(get(api, "orders"), 401, 999)


async def test_the_spec_example_three_days_left_on_1000_cost_12(api: httpx.Client, clock: EarnScheduler) -> None:
    m = await miner(api, "5000")
    before, held_before = await system_totals(), await held([m.uid])
    order = ok(buy(api, m, "1000"))
    start = today()
    await clock.through(start + 2)  # two days paid, three left
    two = find(api, m, order["id"])
    day_rates = await rates(POOL, range(start + 1, start + 3))
    earned = paid(D(1000), day_rates)
    assert (two["days"], D(two["total"]), two["status"]) == (2, earned, 0)
    assert all(D("0.3") <= r <= D("0.4") for r in day_rates)
    assert balance(api, m, USDT, FINANCIAL) == (4000 + earned, D(1000))  # yields paid daily, principal held

    response = post(api, "cancel", m, {"id": order["id"]})
    assert ok(response) == {"id": order["id"], "penalty": "12", "returned": "988", "status": 2}
    assert response.json()["msg"] == "Cancelled"
    assert balance(api, m, USDT, FINANCIAL) == (4988 + earned, D(0))
    ended = find(api, m, order["id"])
    assert (ended["status"], ended["penalty"], ended["days"]) == (2, "12", 2)
    assert order["id"] in [o["id"] for o in orders(api, m, 1)["list"]]
    assert order["id"] not in [o["id"] for o in orders(api, m, 0)["list"]]
    assert error(post(api, "cancel", m, {"id": order["id"]}), 409) == "This mining order has already ended"

    await clock.through(start + 8)  # a cancelled order earns no more
    assert D(find(api, m, order["id"])["total"]) == earned
    assert await EarnAccrual.filter(kind="mining", order_id=order["id"]).count() == 2
    house = dict(await HouseLedger.filter(ref__startswith=f"mn{order['id']}:")
                 .values_list("ref", "amount"))  # fmt: skip
    oid = order["id"]
    assert house == {f"mn{oid}:d{start + 1}": -mining.day_yield(D(1000), day_rates[0], 6),
                     f"mn{oid}:d{start + 2}": -mining.day_yield(D(1000), day_rates[1], 6),
                     f"mn{oid}:cancel": D(12)}  # fmt: skip
    assert await system_totals() == before
    assert await held([m.uid]) == held_before


async def test_yields_land_once_a_day_and_the_principal_at_the_cycle_end(
    api: httpx.Client, clock: EarnScheduler
) -> None:
    a, b = await miner(api, "5000"), await miner(api, "5000")
    before, held_before = await system_totals(), await held([a.uid, b.uid])
    first, second = ok(buy(api, a, "1000")), ok(buy(api, b, "2500"))
    start = today()
    await clock.through(start + 3)
    await clock.through(start + 3)  # again, and one more pass: nothing repeats
    await clock.handle.run_due.remote()
    assert (find(api, a, first["id"])["days"], find(api, b, second["id"])["days"]) == (3, 3)
    await clock.through(start + 7)
    day_rates = await rates(POOL, range(start + 1, start + 6))
    assert day_rates == [mining.derived_rate(POOL, d, D("0.3"), D("0.4")) for d in range(start + 1, start + 6)]
    for m, order, nums in ((a, first, D(1000)), (b, second, D(2500))):
        done = find(api, m, order["id"])
        assert (done["status"], done["days"], D(done["total"]), done["returned"]) == (1, 5, paid(nums, day_rates),
                                                                                      str(nums))  # fmt: skip
        assert balance(api, m, USDT, FINANCIAL) == (5000 + paid(nums, day_rates), D(0))
        accruals = (
            await EarnAccrual.filter(kind="mining", order_id=order["id"]).order_by("day").values_list("day", "rate")
        )
        assert accruals == list(zip(range(start + 1, start + 6), day_rates, strict=True))  # the same rate for both
    oid = first["id"]
    logs = await AccountLog.filter(user_id=a.uid, log_type="mining").order_by("id").values_list("ref", "amount",
                                                                                                 "lock_amount")  # fmt: skip
    assert logs == [(f"mn{oid}:buy", D(-1000), D(1000))] + [
        (f"mn{oid}:d{d}", mining.day_yield(D(1000), r, 6), D(0)) for d, r in zip(range(start + 1, start + 6), day_rates,
                                                                                strict=True)
    ] + [(f"mn{oid}:end", D(1000), D(-1000))]  # fmt: skip
    await clock.through(start + 9)
    assert balance(api, a, USDT, FINANCIAL) == (5000 + paid(D(1000), day_rates), D(0))
    info = ok(get(api, "info", a, id=POOL))
    assert info["rate_today"] == str(mining.derived_rate(POOL, start, D("0.3"), D("0.4")).normalize())
    assert await system_totals() == before
    assert await held([a.uid, b.uid]) == held_before


async def test_orders_are_paged_six_at_a_time(api: httpx.Client) -> None:
    m = await miner(api, "700")
    made = [ok(buy(api, m, "100"))["id"] for _ in range(7)]
    page_one, page_two = orders(api, m, 0, 1), orders(api, m, 0, 2)
    assert [o["id"] for o in page_one["list"]] == made[::-1][:6]
    assert [o["id"] for o in page_two["list"]] == made[:1]
    assert (page_one["page"], page_one["total"], page_one["info"]["nums"], page_one["info"]["total"]) == (
        2,
        7,
        7,
        "700",
    )
    assert orders(api, m, 0, 3)["list"] == []


async def test_a_cancel_first_pays_the_days_already_over(api: httpx.Client) -> None:
    """An order whose days the Scheduler has not booked yet (bought three days ago): the cancel pays
    the two days that are over, then charges the three left."""
    m = await miner(api, "5000")
    made = await mining.buy(uid=m.uid, product_id=POOL, type_=1, nums=D(1000), day=today() - 3)
    assert ok(post(api, "cancel", m, {"id": made.id})) == {"id": made.id, "penalty": "12", "returned": "988",
                                                           "status": 2}  # fmt: skip
    row = await MiningOrder.get(id=made.id)
    day_rates = await rates(POOL, range(today() - 2, today()))
    assert (row.days_booked, row.earned) == (2, paid(D(1000), day_rates))
    assert balance(api, m, USDT, FINANCIAL) == (4988 + row.earned, D(0))


async def test_a_published_rate_never_changes_and_orders_keep_their_range(
    api: httpx.Client, clock: EarnScheduler, own_pool: MiningProduct
) -> None:
    m = await miner(api, "5000")
    order = ok(buy(api, m, "1000", product=own_pool.id))
    start = today()
    await clock.through(start + 1)
    (kept,) = await rates(own_pool.id, range(start + 1, start + 2))
    assert D("0.3") <= kept <= D("0.4")
    await MiningProduct.filter(id=own_pool.id).update(rate_min=D("0.5"), rate_max=D("0.6"))  # an operator's edit
    await clock.through(start + 3)
    assert await rates(own_pool.id, range(start + 1, start + 2)) == [kept]  # stored before: never changes
    later = await rates(own_pool.id, range(start + 3, start + 4))
    assert D("0.5") <= later[0] <= D("0.6")  # published from the new range ...
    accrued = (
        await EarnAccrual.filter(kind="mining", order_id=order["id"]).order_by("day").values_list("rate", flat=True)
    )
    assert accrued[0] == kept and accrued[2] == D("0.4")  # ... but the order earns within its own terms
    assert ok(buy(api, m, "1000", product=own_pool.id))["shouyi"] == "0.5-0.6"  # a new order takes the new terms
