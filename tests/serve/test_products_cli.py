"""`exchange products`, run as an operator would against the session's database: every kind created,
listed, edited, opened and closed; refusals said plainly; an edit reaching later orders only; and a
sale's (and a listing's) allocation recomputed from its stored rows, matching, or caught when a
stored row was altered."""

from __future__ import annotations

import re
import time
import uuid
from decimal import Decimal

import pytest

from config.settings import Settings
from store import users
from store.earn import listing, sales
from store.earn import lock as lock_savings
from store.earn.clock import day_of
from store.errors import DomainError, ErrorCode
from store.ledger import credit
from store.models import (
    AccountType,
    AuditLog,
    Currency,
    ListingProject,
    LockOrder,
    LockProduct,
    MiningProduct,
    SaleSubscription,
    TokenSale,
)
from tests.utils.cli import exchange, exchange_ok


async def _user(usdt: str = "100000") -> int:
    account = f"products-{uuid.uuid4().hex[:10]}@example.com"
    user = await users.create_user(kind="email", account=account, password_hash="x", area=None, parent=None)
    await credit(user_id=user.id, currency=await Currency.get(code="USDT"), account_type=AccountType.FINANCIAL,
                 amount=Decimal(usdt), log_type="deposit", ref=f"test:{uuid.uuid4().hex}")  # fmt: skip
    return user.id


def _created(out: str) -> int:
    """The id in ``created <kind> <id>``."""
    return int(out.splitlines()[0].split()[-1])


def _refused(settings: Settings, *args: str) -> str:
    done = exchange(settings, "products", *args)
    assert done.returncode != 0, (args, done.stdout)
    assert "Traceback" not in done.stderr, done.stderr
    return done.stderr


async def test_every_kind_is_created_listed_edited_opened_and_closed(settings: Settings, db: None) -> None:
    lock_id = _created(exchange_ok(settings, "products", "create", "lock", "name=CLI lock", "currency=usdt",
                                   "limit_days=14", "display_rate=6.5", "limit_number=250"))  # fmt: skip
    mining_id = _created(exchange_ok(settings, "products", "create", "mining", "title=CLI pool", "rate_min=0.2",
                                     "rate_max=0.3", "zhouqi=10", "mins=50", "maxs=5000"))  # fmt: skip
    sale_id = _created(exchange_ok(settings, "products", "create", "sale", "title=CLI sale", "huodong=ACB",
                                   "rengou=0.05", "total=100000", "per_user_max=5000", "btime=+1d", "etime=+3d"))  # fmt: skip
    listing_id = _created(exchange_ok(settings, "products", "create", "listing", "title=CLI listing",
                                      "bizhong=MVBT", "price=0.25", "total=50000", "shengyu=20000",
                                      "btime=2030-01-01", "etime=2030-01-08T12:00", "online=2030-01-20"))  # fmt: skip

    lock = await LockProduct.get(id=lock_id)
    assert (lock.name, lock.limit_days, lock.display_rate, lock.limit_number, lock.open) == (
        "CLI lock", 14, Decimal("6.5"), Decimal(250), True)  # fmt: skip
    mining = await MiningProduct.get(id=mining_id)
    assert (mining.zhouqi, mining.penalty_rate, mining.status) == (10, Decimal("0.4"), 1)  # the defaults
    sale = await TokenSale.get(id=sale_id).prefetch_related("jieshou")
    assert sale.jieshou.code == "USDT" and sale.etime - sale.btime == 2 * 86_400_000
    project = await ListingProject.get(id=listing_id)
    assert (project.lock_days, project.status) == (7, 0)
    assert project.etime - project.btime == 7 * 86_400_000 + 12 * 3_600_000

    listed = exchange_ok(settings, "products", "list")
    for heading in ("# lock", "# mining", "# sale", "# listing"):
        assert heading in listed
    assert f"{lock_id}\tCLI lock\tUSDT\t14 d\t6.5 %/year\tlot 250\tquota -\topen" in listed
    assert f"{sale_id}\tCLI sale\t100000 ACB at 0.05 USDT\tasked 0 by 0\t" in listed
    assert "\tupcoming" in exchange_ok(settings, "products", "list", "listing")

    out = exchange_ok(settings, "products", "edit", "lock", str(lock_id), "display_rate=7", "quota_lots=10")
    assert "later orders take the new terms" in out and "7 %/year" in out
    assert (await LockProduct.get(id=lock_id)).quota_lots == 10
    exchange_ok(settings, "products", "edit", "sale", str(sale_id), "rengou=0.04", "title=CLI sale 2")
    assert (await TokenSale.get(id=sale_id)).rengou == Decimal("0.04")

    assert "closed to new locks" in exchange_ok(settings, "products", "close", "lock", str(lock_id))
    assert not (await LockProduct.get(id=lock_id)).open
    exchange_ok(settings, "products", "open", "lock", str(lock_id))
    assert (await LockProduct.get(id=lock_id)).open
    exchange_ok(settings, "products", "close", "mining", str(mining_id))
    assert (await MiningProduct.get(id=mining_id)).status == 2
    before = time.time() * 1000
    assert "open from now" in exchange_ok(settings, "products", "open", "sale", str(sale_id))
    assert before <= (await TokenSale.get(id=sale_id)).btime <= time.time() * 1000
    assert "ended now" in exchange_ok(settings, "products", "close", "listing", str(listing_id))
    assert "has ended" in _refused(settings, "close", "listing", str(listing_id))


async def test_refusals_say_what_is_wrong(settings: Settings, db: None) -> None:
    for args, expected in [
        (("create", "bond", "title=x"), "unknown product kind"),
        (("create", "lock", "name=x"), "needs currency, limit_days, display_rate, limit_number"),
        (("create", "lock", "name", "currency=USDT"), "is not key=value"),
        (("create", "lock", "colour=red"), "no field 'colour'"),
        (("create", "lock", "name=x", "currency=NOPE", "limit_days=1", "display_rate=1", "limit_number=1"),
         "unknown currency"),
        (("create", "lock", "name=x", "currency=USDT", "limit_days=1.5", "display_rate=1", "limit_number=1"),
         "whole number"),
        (("create", "lock", "name=x", "currency=USDT", "limit_days=0", "display_rate=1", "limit_number=1"),
         "limit_days must be above 0"),
        (("create", "mining", "title=x", "rate_min=1", "rate_max=-1", "zhouqi=1", "mins=1", "maxs=2"), ">= 0"),
        (("create", "sale", "title=x", "huodong=ACB", "rengou=abc", "total=1", "btime=now", "etime=+1d"),
         "takes a number"),
        (("create", "sale", "title=x", "huodong=USDT", "rengou=1", "total=1", "btime=now", "etime=+1d"), "must differ"),
        (("create", "sale", "title=x", "huodong=ACB", "rengou=1", "total=1", "btime=+1d", "etime=now"),
         "btime must be before etime"),
        (("create", "sale", "title=x", "huodong=ACB", "rengou=1", "total=1", "btime=tomorrow", "etime=+1d"),
         "is not a time"),
        (("create", "listing", "title=x", "bizhong=MVBT", "price=1", "total=10", "shengyu=20", "btime=now",
          "etime=+1d", "online=+2d"), "at most total"),
        (("create", "listing", "title=x", "bizhong=MVBT", "price=1", "total=10", "btime=now", "etime=+2d",
          "online=+1d"), "online not before etime"),
        (("edit", "lock", "999999", "name=x"), "no lock product 999999"),
        (("open", "sale", "999999"), "no sale product 999999"),
        (("orders", "mining", "999999"), "no mining product 999999"),
        (("allocation", "999999"), "no sale 999999"),
        (("allocation", "999999", "--listing"), "no listing 999999"),
    ]:  # fmt: skip
        assert expected in _refused(settings, *args), args
    assert "unknown product kind" in _refused(settings, "list", "bonds")


async def test_an_edit_reaches_later_orders_only(settings: Settings, db: None) -> None:
    product_id = _created(exchange_ok(settings, "products", "create", "lock", "name=Edit lock", "currency=USDT",
                                      "limit_days=30", "display_rate=5", "limit_number=100"))  # fmt: skip
    uid, today = await _user(), day_of(int(time.time() * 1000))
    first = await lock_savings.buy(uid=uid, product_id=product_id, day=today)
    exchange_ok(settings, "products", "edit", "lock", str(product_id), "display_rate=9", "limit_days=60")
    second = await lock_savings.buy(uid=uid, product_id=product_id, day=today)
    first, second = await LockOrder.get(id=first.id), await LockOrder.get(id=second.id)
    assert (first.display_rate, first.limit_days, first.end_day) == (Decimal(5), 30, today + 30)
    assert (second.display_rate, second.limit_days, second.end_day) == (Decimal(9), 60, today + 60)
    assert f"{first.id}\t" in exchange_ok(settings, "products", "orders", "lock", str(product_id))


async def test_a_sale_with_subscriptions_keeps_its_price_and_supply(settings: Settings, db: None) -> None:
    sale_id = _created(exchange_ok(settings, "products", "create", "sale", "title=Fixed", "huodong=ACB",
                                   "rengou=0.5", "total=1000", "btime=-1h", "etime=+1h"))  # fmt: skip
    uid = await _user()
    await sales.subscribe(uid, await sales.get_sale(sale_id), Decimal(10), int(time.time() * 1000))
    for term in ("rengou=0.4", "total=2000", "huodong=MVBT"):
        assert "has orders" in _refused(settings, "edit", "sale", str(sale_id), term)
    exchange_ok(settings, "products", "edit", "sale", str(sale_id), "title=Renamed", "etime=+2h")
    out = exchange_ok(settings, "products", "orders", "sale", str(sale_id))
    assert "asked 10 at 0.5\tlocked 5\tallocated 0" in out


async def test_the_allocation_is_recomputed_from_the_stored_subscriptions(settings: Settings, db: None) -> None:
    """1000 ACB at 0.5 USDT, 1000 + 600 + 401 asked: closed and settled, the stored allocation matches
    the rule's on the stored rows; altered, it does not (exit 1)."""
    sale_id = _created(exchange_ok(settings, "products", "create", "sale", "title=Recomputed", "huodong=ACB",
                                   "rengou=0.5", "total=1000", "btime=-1h", "etime=+1h"))  # fmt: skip
    sale, now = await sales.get_sale(sale_id), int(time.time() * 1000)
    for nums in ("1000", "600", "401"):
        await sales.subscribe(await _user(), sale, Decimal(nums), now)
    before = exchange_ok(settings, "products", "allocation", str(sale_id))
    assert "not allocated yet" in before and "2001 asked by 3 subscriptions" in before

    assert await sales.close(sale_id, sale.etime)
    sale = await sales.get_sale(sale_id)
    for sub in await SaleSubscription.filter(sale_id=sale_id):
        await sales.settle(sub, sale)  # (or the session scheduler's sweep does it first: once either way)
    assert set(await SaleSubscription.filter(sale_id=sale_id).values_list("status", flat=True)) == {1}
    out = exchange_ok(settings, "products", "allocation", str(sale_id))
    assert out.splitlines()[-1] == "recomputed from the stored rows: matches"
    assert "issued 999.999998 ACB, dust 0.000002 ACB" in out
    assert "\t200.3998\t100.1999\t100.3001\t1\t200.3998\t100.1999\t100.3001" in out  # 401 asked

    sub = await SaleSubscription.filter(sale_id=sale_id).order_by("id").first()
    assert sub is not None
    await SaleSubscription.filter(id=sub.id).update(allocated=sub.allocated + 1)
    done = exchange(settings, "products", "allocation", str(sale_id))
    assert done.returncode == 1 and done.stdout.splitlines()[-1] == "recomputed from the stored rows: DOES NOT match"


async def test_a_listing_allocation_is_recomputed_too(settings: Settings, db: None) -> None:
    project_id = _created(exchange_ok(settings, "products", "create", "listing", "title=Recomputed listing",
                                      "bizhong=MVBT", "price=0.5", "total=10000", "btime=-1h", "etime=+1h",
                                      "online=+2h"))  # fmt: skip
    project, now = await listing.get_project(project_id), int(time.time() * 1000)
    for nums in ("4000", "6000", "10000"):
        await listing.apply(await _user(), project, Decimal(nums), now)
    assert await listing.allocate(project_id, project.etime)
    out = exchange_ok(settings, "products", "allocation", str(project_id), "--listing")
    assert "20000 USDT applied by 3 applications" in out and "won 10000 of 10000 MVBT" in out
    assert out.splitlines()[-1] == "recomputed from the stored rows: matches"
    assert re.search(r"\t10000\t5000\t2500\t[01]\t5000\t2500\n", out)  # decided (1) by a sweep, if one ran


async def test_each_change_writes_the_consoles_audit_row(settings: Settings, db: None) -> None:
    lock_id = _created(exchange_ok(settings, "products", "create", "lock", "name=Audited lock", "currency=USDT",
                                   "limit_days=7", "display_rate=4", "limit_number=100", "--operator", "alice",
                                   "--reason", "a new term"))  # fmt: skip
    exchange_ok(settings, "products", "edit", "lock", str(lock_id), "display_rate=4.5", "--operator", "alice")
    exchange_ok(settings, "products", "close", "lock", str(lock_id), "--reason", "paused", "--operator", "bob")
    _refused(settings, "edit", "lock", str(lock_id), "limit_days=0", "--operator", "alice")  # refused: no row
    rows = await AuditLog.filter(target=f"lock:{lock_id}").order_by("id")
    assert [(r.operator, r.role, r.action, r.before, r.after, r.reason) for r in rows] == [
        ("alice", "cli", "product.create", None, {"name": "Audited lock", "currency": "USDT", "limit_days": 7,
         "display_rate": "4", "limit_number": "100", "quota_lots": 0, "open": True, "sort": 0}, "a new term"),
        ("alice", "cli", "product.edit", {"display_rate": "4"}, {"display_rate": "4.5"}, ""),
        ("bob", "cli", "product.close", {"open": True}, {"open": False}, "paused"),
    ]  # fmt: skip
    assert all(r.address.startswith("cli@") for r in rows)


async def test_a_sales_minimum_subscription_is_set_and_edited(settings: Settings, db: None) -> None:
    """min_amount: 1 by default (in USDT, what every sale here accepts); a sale accepting another asset
    must be given its own; editable after subscriptions, for later ones."""
    sale_id = _created(exchange_ok(settings, "products", "create", "sale", "title=Floor", "huodong=ACB",
                                   "rengou=0.5", "total=1000", "btime=-1h", "etime=+1h"))  # fmt: skip
    assert (await TokenSale.get(id=sale_id)).min_amount == 1
    uid, now = await _user(), int(time.time() * 1000)
    await sales.subscribe(uid, await sales.get_sale(sale_id), Decimal(10), now)  # 5 USDT
    exchange_ok(settings, "products", "edit", "sale", str(sale_id), "min_amount=20")
    assert (await TokenSale.get(id=sale_id)).min_amount == 20
    with pytest.raises(DomainError) as refused:
        await sales.subscribe(uid, await sales.get_sale(sale_id), Decimal(10), now)
    assert (refused.value.code, refused.value.params) == (
        ErrorCode.SALE_BELOW_MIN, {"min": "20", "currency": "USDT", "nums": "40", "token": "ACB"})  # fmt: skip
    assert "min_amount must be above 0" in _refused(settings, "edit", "sale", str(sale_id), "min_amount=0")
    assert "A sale product needs min_amount" in _refused(settings, "create", "sale", "title=x", "huodong=ACB",
                                                         "jieshou=MVBT", "rengou=1", "total=10", "btime=now",
                                                         "etime=+1d")  # fmt: skip
    other = _created(exchange_ok(settings, "products", "create", "sale", "title=In MVBT", "huodong=ACB",
                                 "jieshou=MVBT", "rengou=2", "total=10", "min_amount=4", "btime=now",
                                 "etime=+1d"))  # fmt: skip
    assert (await TokenSale.get(id=other)).min_amount == 4
    project = _created(exchange_ok(settings, "products", "create", "listing", "title=Floor listing", "bizhong=MVBT",
                                   "price=0.5", "total=100", "btime=now", "etime=+1d", "online=+2d",
                                   "min_amount=10"))  # fmt: skip
    assert (await ListingProject.get(id=project)).min_amount == 10
