"""The console's products (issue 16, the products role): a products operator creates, edits, opens and
closes a lock-savings product, a mining product, a token sale and a listing project, and the public
earn and sales API shows each change at once; every field's bad value is refused with its own
translated message (a 4xx, never a 500), and each change leaves one audit row with what it was
before, what it became and why. A support operator is refused every products route."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import httpx
import pytest

from store.models import AuditLog, ListingProject, LockProduct, MiningProduct, TokenSale
from tests.api.test_admin import make_operator, token_of
from tests.utils.sales import financial_member, get, post
from tests.utils.users import error, ok

Auth = dict[str, str]


@pytest.fixture
async def auth(api: httpx.Client, db: None) -> Auth:
    op, secret = await make_operator("products")
    return token_of(api, op, secret)


def create(api: httpx.Client, auth: Auth, kind: str, values: dict[str, Any], reason: str = "") -> dict[str, Any]:
    return ok(post(api, "admin/products/create", json={"kind": kind, "values": values, "reason": reason},
                   headers=auth))  # fmt: skip


def change(api: httpx.Client, auth: Auth, action: str, kind: str, product_id: int, reason: str = "",
           **values: Any) -> httpx.Response:  # fmt: skip
    body: dict[str, Any] = {"kind": kind, "id": product_id, "reason": reason}
    return post(api, f"admin/products/{action}", json={**body, **({"values": values} if values else {})},
                headers=auth)  # fmt: skip


async def trail(kind: str, product_id: int) -> list[tuple[str, Any, Any, str]]:
    rows = await AuditLog.filter(target=f"{kind}:{product_id}").order_by("id")
    return [(r.action, r.before, r.after, r.reason) for r in rows]


LOCK = {"name": "Console lock", "currency": "usdt", "limit_days": 14, "display_rate": "6.5", "limit_number": "250"}
MINING = {"title": "Console pool", "rate_min": "0.2", "rate_max": "0.3", "zhouqi": "10", "mins": "50", "maxs": "5000"}
SALE = {"title": "Console sale", "huodong": "ACB", "rengou": "0.5", "total": "1000", "btime": "+1d", "etime": "+3d"}
LISTING = {"title": "Console listing", "bizhong": "MVBT", "price": "0.25", "total": "50000", "btime": "+1d",
           "etime": "+2d", "online": "+3d"}  # fmt: skip


async def test_a_lock_product_is_created_edited_closed_and_opened(api: httpx.Client, auth: Auth) -> None:
    made = create(api, auth, "lock", {**LOCK, "quota_lots": 3}, reason="a new term")
    pid = made["id"]
    assert made["values"] == {"name": "Console lock", "currency": "USDT", "limit_days": "14", "display_rate": "6.5",
                              "limit_number": "250", "quota_lots": "3", "open": "true", "sort": "0"}  # fmt: skip
    assert (made["kind"], made["state"], made["can_open"], made["can_close"], made["orders"]) == (
        "lock", "open", False, True, 0)  # fmt: skip
    listed = ok(get(api, "storage_currency/lock_list", params={"limit": 100}))
    assert {"name": "Console lock", "display_rate": "6.5", "open": True}.items() <= next(
        p for p in listed if p["id"] == pid).items()  # fmt: skip

    edited = ok(change(api, auth, "edit", "lock", pid, "rate up", display_rate="7.25", quota_lots=0))
    assert (edited["values"]["display_rate"], edited["values"]["quota_lots"]) == ("7.25", "0")
    saver = await financial_member(api)
    ok(change(api, auth, "close", "lock", pid, "paused"))
    refused = post(api, "storage_currency/submit_lock", json={"id": pid}, headers=saver.auth)
    assert error(refused, 400) == "This lock product is not on sale"
    reopened = ok(change(api, auth, "open", "lock", pid, "back"))
    assert (reopened["state"], reopened["can_open"]) == ("open", False)
    ok(post(api, "storage_currency/submit_lock", json={"id": pid}, headers=saver.auth))
    mine = ok(get(api, "storage_currency/current_setting", headers=saver.auth))
    assert mine[0]["display_rate"] == "7.25"  # the edited terms reach the next order

    created = {
        "name": "Console lock",
        "currency": "USDT",
        "limit_days": 14,
        "display_rate": "6.5",
        "limit_number": "250",
        "quota_lots": 3,
        "open": True,
        "sort": 0,
    }
    assert await trail("lock", pid) == [
        ("product.create", None, created, "a new term"),
        ("product.edit", {"display_rate": "6.5", "quota_lots": 3}, {"display_rate": "7.25", "quota_lots": 0},
         "rate up"),
        ("product.close", {"open": True}, {"open": False}, "paused"),
        ("product.open", {"open": False}, {"open": True}, "back"),
    ]  # fmt: skip
    rows = await AuditLog.filter(target=f"lock:{pid}")
    assert {(r.role, r.operator_id is not None) for r in rows} == {("products", True)}


async def test_a_mining_product_is_created_edited_closed_and_opened(api: httpx.Client, auth: Auth) -> None:
    made = create(api, auth, "mining", MINING)
    pid = made["id"]
    assert (made["values"]["penalty_rate"], made["values"]["status"], made["state"]) == ("0.4", "1", "open")
    public = ok(get(api, "mining/info", params={"id": pid}))
    assert (public["title"], public["shouyi"], public["status"]) == ("Console pool", "0.2-0.3", 1)
    ok(change(api, auth, "edit", "mining", pid, rate_max="0.45", title="Console pool II"))
    assert ok(get(api, "mining/info", params={"id": pid}))["shouyi"] == "0.2-0.45"
    closed = ok(change(api, auth, "close", "mining", pid, "ended early"))
    assert (closed["state"], closed["can_open"], closed["can_close"]) == ("ended", True, False)
    assert ok(get(api, "mining/info", params={"id": pid}))["status"] == 2
    miner = await financial_member(api)
    refused = post(api, "mining/buy", json={"id": pid, "nums": "100", "type": 1}, headers=miner.auth)
    assert error(refused, 400) == "This mining product is not open for subscription"
    ok(change(api, auth, "open", "mining", pid))
    assert ok(get(api, "mining/info", params={"id": pid}))["status"] == 1
    assert [a for a, *_ in await trail("mining", pid)] == ["product.create", "product.edit", "product.close",
                                                          "product.open"]  # fmt: skip
    assert (await trail("mining", pid))[2][1:3] == ({"status": 1}, {"status": 2})


async def test_a_token_sale_opens_early_keeps_its_terms_once_subscribed_and_closes(
    api: httpx.Client, auth: Auth
) -> None:
    made = create(api, auth, "sale", {**SALE, "per_user_max": "400"})
    sid = made["id"]
    assert (made["values"]["jieshou"], made["state"], made["can_open"], made["can_close"]) == (
        "USDT", "upcoming", True, True)  # fmt: skip
    assert ok(get(api, "shoufa/info", params={"id": sid}))["phase"] == "upcoming"
    buyer = await financial_member(api)
    assert error(post(api, "shoufa/buy", json={"id": sid, "nums": "10"}, headers=buyer.auth), 400) == (
        "This token sale has not started yet")  # fmt: skip

    opened = ok(change(api, auth, "open", "sale", sid, "launch now"))
    assert (opened["state"], opened["can_open"]) == ("open", False)
    assert ok(get(api, "shoufa/info", params={"id": sid}))["phase"] == "open"
    ok(post(api, "shoufa/buy", json={"id": sid, "nums": "10"}, headers=buyer.auth))
    for term in ({"rengou": "0.4"}, {"total": "2000"}, {"huodong": "MVBT"}):
        refused = change(api, auth, "edit", "sale", sid, **term)
        assert error(refused, 409) == f"This sale has orders: {next(iter(term))} can no longer change"
    renamed = ok(change(api, auth, "edit", "sale", sid, title="Console sale (round 1)", per_user_max="500"))
    assert (renamed["orders"], renamed["subscribed"], renamed["cishu"]) == (1, "10", 1)
    public = ok(get(api, "shoufa/info", params={"id": sid}))
    assert (public["title"], public["per_user_max"], public["rengou"]) == ("Console sale (round 1)", "500", "0.5")

    closed = ok(change(api, auth, "close", "sale", sid, "sold enough"))
    assert closed["state"] in ("ended", "allocated") and not closed["can_close"]
    assert ok(get(api, "shoufa/info", params={"id": sid}))["phase"] in ("closed", "allocated")
    assert error(change(api, auth, "open", "sale", sid), 409) == f"The sale {sid} has ended"
    actions = [(a, reason) for a, _, _, reason in await trail("sale", sid)]
    assert actions == [("product.create", ""), ("product.open", "launch now"), ("product.edit", ""),
                       ("product.close", "sold enough")]  # fmt: skip
    sale = await TokenSale.get(id=sid)
    etime = int(datetime.fromisoformat(made["values"]["etime"]).replace(tzinfo=UTC).timestamp() * 1000)
    assert (await trail("sale", sid))[3][1:3] == ({"etime": etime}, {"etime": sale.etime})


async def test_a_listing_opens_and_closes_and_its_times_are_checked(api: httpx.Client, auth: Auth) -> None:
    made = create(api, auth, "listing", {**LISTING, "shengyu": "20000", "lock_days": "3"})
    pid = made["id"]
    assert (made["values"]["shengyu"], made["values"]["lock_days"], made["state"]) == ("20000", "3", "upcoming")
    assert ok(get(api, "listing/info", params={"id": pid}))["status"] == 0
    ok(change(api, auth, "open", "listing", pid, "early start"))
    assert ok(get(api, "listing/info", params={"id": pid}))["status"] == 1
    refused = change(api, auth, "edit", "listing", pid, online="+1h")  # before its etime
    assert error(refused, 400) == "btime must be before etime, and online not before etime"
    ok(change(api, auth, "edit", "listing", pid, desc="<b>Round one</b>", price="0.3"))
    assert ok(get(api, "listing/info", params={"id": pid}))["price"] == "0.3"
    ok(change(api, auth, "close", "listing", pid, "ended by the project"))
    assert ok(get(api, "listing/info", params={"id": pid}))["status"] == 2
    assert error(change(api, auth, "close", "listing", pid), 409) == f"The listing {pid} has ended"
    assert (await ListingProject.get(id=pid)).price == Decimal("0.3")
    assert [a for a, *_ in await trail("listing", pid)] == ["product.create", "product.open", "product.edit",
                                                           "product.close"]  # fmt: skip


def number(field: str) -> str:
    return f"{field} takes a number >= 0 with at most 17 digits before the point and 18 after"


def not_time(field: str) -> str:
    return f"{field} is not a time: give now, +3d, -2h, 2026-12-01, 2026-12-01T08:00 (UTC) or ms"


BAD = [  # (kind, a field's bad value, the message)
    ("lock", {"name": ""}, "name takes text of 1 to 64 characters"),
    ("lock", {"name": "x" * 65}, "name takes text of 1 to 64 characters"),
    ("lock", {"currency": "NOPE"}, "currency: unknown currency 'NOPE'"),
    ("lock", {"currency": "BTC/USDT"}, "currency: unknown currency 'BTC/USDT'"),
    ("lock", {"limit_days": "1.5"}, "limit_days takes a whole number from 0 to 36500"),
    ("lock", {"limit_days": 36501}, "limit_days takes a whole number from 0 to 36500"),
    ("lock", {"limit_days": "0"}, "limit_days must be above 0"),
    ("lock", {"display_rate": "abc"}, number("display_rate")),
    ("lock", {"limit_number": "1e40"}, number("limit_number")),
    ("lock", {"limit_number": "0.0000000000000000001"}, number("limit_number")),
    ("lock", {"quota_lots": "-1"}, "quota_lots takes a whole number from 0 to 2147483647"),
    ("lock", {"open": "maybe"}, "open takes true or false"),
    ("lock", {"sort": "99999999999"}, "sort takes a whole number from 0 to 2147483647"),
    ("lock", {"colour": "red"}, "A lock product has no field 'colour'; its fields are name, currency, limit_days, "
                                "display_rate, limit_number, quota_lots, open, sort"),
    ("mining", {"rate_max": "-1"}, number("rate_max")),
    ("mining", {"rate_min": "0.5"}, "rate_min must be at most rate_max, and mins at most maxs"),
    ("mining", {"maxs": "10"}, "rate_min must be at most rate_max, and mins at most maxs"),
    ("mining", {"zhouqi": "0"}, "zhouqi must be above 0"),
    ("mining", {"status": "3"}, "status is 0 (not started), 1 (in progress) or 2 (ended)"),
    ("mining", {"penalty_rate": "NaN"}, number("penalty_rate")),
    ("mining", {"logo": "x" * 256}, "logo takes text of 0 to 255 characters"),
    ("sale", {"huodong": "USDT"}, "The token sold (huodong) and the accepted asset (jieshou) must differ"),
    ("sale", {"jieshou": "ACB"}, "The token sold (huodong) and the accepted asset (jieshou) must differ"),
    ("sale", {"rengou": "0"}, "rengou must be above 0"),
    ("sale", {"total": "Infinity"}, number("total")),
    ("sale", {"btime": "+4d"}, "btime must be before etime"),
    ("sale", {"etime": "tomorrow"}, not_time("etime")),
    ("sale", {"etime": "99999-01-01"}, not_time("etime")),
    ("sale", {"btime": "9999999999999999"}, not_time("btime")),
    ("sale", {"per_user_max": "1,5"}, number("per_user_max")),
    ("sale", {"desc": "a\x00b"}, "desc takes text of 0 to 20000 characters"),
    ("sale", {"min_amount": "0"}, "min_amount must be above 0"),
    ("sale", {"min_amount": "500.000001"}, "min_amount is more than one user may subscribe: 500 USDT at most"),
    ("sale", {"per_user_max": "1"}, "min_amount is more than one user may subscribe: 0.5 USDT at most"),
    ("listing", {"bizhong": "nope"}, "bizhong: unknown currency 'NOPE'"),
    ("listing", {"shengyu": "60000"}, "shengyu (tokens for applicants) can be at most total"),
    ("listing", {"online": "+1d"}, "btime must be before etime, and online not before etime"),
    ("listing", {"lock_days": "0"}, "lock_days must be above 0"),
    ("listing", {"price": "-0.1"}, number("price")),
    ("listing", {"min_amount": "0"}, "min_amount must be above 0"),
]  # fmt: skip
GOOD = {"lock": LOCK, "mining": MINING, "sale": SALE, "listing": LISTING}
MODELS = {"lock": LockProduct, "mining": MiningProduct, "sale": TokenSale, "listing": ListingProject}


async def test_every_bad_field_is_refused_with_what_it_takes(api: httpx.Client, auth: Auth) -> None:
    before = {kind: await model.all().count() for kind, model in MODELS.items()}
    for kind, bad, message in BAD:
        answer = post(api, "admin/products/create", json={"kind": kind, "values": {**GOOD[kind], **bad}}, headers=auth)
        assert error(answer, 400) == message, (kind, bad)
    assert {kind: await model.all().count() for kind, model in MODELS.items()} == before  # nothing was made
    # The same rules on an edit: one product of each kind, each bad value refused, the row unchanged.
    for kind, values in GOOD.items():
        made = create(api, auth, kind, values)
        for bad_kind, bad, message in BAD:
            if bad_kind == kind:
                assert error(change(api, auth, "edit", kind, made["id"], **bad), 400) == message, (kind, bad)
        listed = ok(get(api, "admin/products", params={"kind": kind}, headers=auth))
        assert next(p for p in listed if p["id"] == made["id"])["values"] == made["values"]
        assert [a for a, *_ in await trail(kind, made["id"])] == ["product.create"]  # a refusal writes no row


async def test_missing_fields_unknown_products_and_malformed_bodies(api: httpx.Client, auth: Auth) -> None:
    missing = post(api, "admin/products/create", json={"kind": "lock", "values": {"name": "x"}}, headers=auth)
    assert error(missing, 400) == "A lock product needs currency, limit_days, display_rate, limit_number"
    assert error(change(api, auth, "edit", "sale", 999_999, title="x"), 404) == "There is no sale product 999999"
    assert error(change(api, auth, "open", "mining", 999_999), 404) == "There is no mining product 999999"
    for body in ({"kind": "bond", "values": {"name": "x"}}, {"kind": "lock", "values": {"limit_days": 1.5}},
                 {"kind": "lock", "values": ["name=x"]}, {"kind": "lock"}):  # fmt: skip
        assert error(post(api, "admin/products/create", json=body, headers=auth), 400)
    assert error(post(api, "admin/products/edit", json={"kind": "lock", "id": 1, "values": {}}, headers=auth), 400)
    assert error(post(api, "admin/products/open", json={"kind": "lock", "id": 0}, headers=auth), 400)
    assert error(get(api, "admin/products", params={"kind": "bond"}, headers=auth), 400)
    translated = post(api, "admin/products/create", json={"kind": "sale", "values": {**SALE, "rengou": "0"}},
                      headers={**auth, "lang": "hk"})  # fmt: skip
    assert error(translated, 400) == "rengou 必須大於 0"
    every = ok(get(api, "admin/products", headers=auth))
    assert {p["kind"] for p in every} == {"lock", "mining", "sale", "listing"}
    kinds = {k["kind"]: k["fields"] for k in ok(get(api, "admin/products/kinds", headers=auth))}
    assert list(kinds) == ["lock", "mining", "sale", "listing"]
    assert {"name": "rengou", "type": "amount", "required": True, "fixed": True, "max": None} in kinds["sale"]
    assert {"name": "name", "type": "text", "required": True, "fixed": False, "max": 64} in kinds["lock"]


async def test_a_support_operator_is_refused_every_products_route(api: httpx.Client, db: None) -> None:
    op, secret = await make_operator("support")
    support = token_of(api, op, secret)
    count = await LockProduct.all().count()
    assert error(get(api, "admin/products", headers=support), 403) == "Your role does not allow this"
    assert error(get(api, "admin/products/kinds", headers=support), 403)
    assert error(post(api, "admin/products/create", json={"kind": "lock", "values": LOCK}, headers=support), 403)
    for action in ("edit", "open", "close"):
        body = {"kind": "lock", "id": 1, "values": {"name": "x"}}
        assert error(post(api, f"admin/products/{action}", json=body, headers=support), 403)
    assert await LockProduct.all().count() == count


async def test_the_minimum_subscription_and_application_are_the_consoles_to_set(api: httpx.Client, auth: Auth) -> None:
    """A sale's and a listing's min_amount (1 USDT by default) is a field of the console's form; it is
    not fixed by orders (it bounds later ones only) and the public API refuses below it at once."""
    kinds = {k["kind"]: k["fields"] for k in ok(get(api, "admin/products/kinds", headers=auth))}
    for kind in ("sale", "listing"):
        assert {"name": "min_amount", "type": "amount", "required": False, "fixed": False, "max": None} in kinds[kind]
    made = create(api, auth, "sale", {**SALE, "btime": "-1h"})
    sid = made["id"]
    assert made["values"]["min_amount"] == "1"
    buyer = await financial_member(api)
    ok(post(api, "shoufa/buy", json={"id": sid, "nums": "10"}, headers=buyer.auth))  # 5 USDT
    edited = ok(change(api, auth, "edit", "sale", sid, "a higher floor", min_amount="20"))
    assert edited["values"]["min_amount"] == "20" and edited["orders"] == 1
    public = ok(get(api, "shoufa/info", params={"id": sid}))
    assert (public["min_amount"], public["min_nums"]) == ("20", "40")
    refused = post(api, "shoufa/buy", json={"id": sid, "nums": "10"}, headers=buyer.auth)
    assert error(refused, 400) == "The minimum subscription is 20 USDT: at least 40 ACB at this price"
    assert (await trail("sale", sid))[-1] == ("product.edit", {"min_amount": "1"}, {"min_amount": "20"},
                                              "a higher floor")  # fmt: skip

    project = create(api, auth, "listing", {**LISTING, "btime": "-1h", "min_amount": "5"})
    assert project["values"]["min_amount"] == "5"
    refused = post(api, "listing/buy", json={"id": project["id"], "nums": "4.99"}, headers=buyer.auth)
    assert error(refused, 400) == "The minimum application is 5 USDT"
    ok(post(api, "listing/buy", json={"id": project["id"], "nums": "5"}, headers=buyer.auth))
