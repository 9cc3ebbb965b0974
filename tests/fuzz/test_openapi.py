"""Schemathesis against the running app's /api/openapi.json: no operation answers 5xx, and answers
match the schema (content type and body), for a visitor, for a logged-in member, and (the console's
operations) for an operator holding every role.

Examples are bounded (``EXAMPLES`` per operation) so the suite stays fast, and derandomized so a
failure reproduces. Every operation runs; the test reports all the failing ones at once.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import httpx
import pyotp
import pytest
import ray
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from actors.names import lever_name, micro_name
from actors.pair.directory import pair_actor
from serve.security import hash_password
from serve.stack import Stack
from store.admin import operators
from store.earn.products import KINDS
from store.models import Currency, CurrencyMatch, News, Operator, SiteSetting, User
from store.times import now_ms
from tests.utils.users import member

EXAMPLES = 8
# What the issue asks: no 5xx, and every answer is one the document lists, in its content type and
# shape. (Schemathesis' "schema-valid data is accepted" check is left out: a well-formed request
# for an order that does not exist is rightly refused.)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# Logging out would end the member's session half-way; the session tests cover it.
SKIP = ("/api/user/logout",)
# The operator's own session and password: the session tests cover them.
CONSOLE_SKIP = ("/api/admin/logout", "/api/admin/password")
OPERATOR_PASSWORD = "Fuzzing-operator-1"
PAIR_FIELDS = ("open_change", "sell_disabled", "maker_fee", "taker_fee", "max_price", "max_quantity", "min_notional",
               "price_band", "max_open_orders", "open_lever", "lever_share_num", "lever_fee_rate", "lever_point_rate",
               "lever_overnight_rate", "lever_max_exposure", "lever_multiples", "lever_shares", "lever_max_hands",
               "open_microtrade", "micro_seconds", "micro_fee_rate", "micro_max_exposure")  # fmt: skip
CURRENCY_FIELDS = ("open_recharge", "open_draw", "draw_rate", "draw_min", "draw_max", "recharge_min", "confirmations",
                   "micro_numbers", "micro_min", "micro_max", "micro_max_open")  # fmt: skip


@pytest.fixture(scope="module")
def openapi(stack: Stack) -> schemathesis.BaseSchema:
    base = f"http://{stack.settings.http_host}:{stack.settings.http_port}"
    schema = schemathesis.openapi.from_url(f"{base}/api/openapi.json")
    schema.config.base_url = base  # type: ignore[union-attr]
    return schema


def _fuzz(
    openapi: schemathesis.BaseSchema,
    headers: dict[str, str],
    skip: tuple[str, ...] = SKIP,
    answered: set[str] | None = None,
) -> list[str]:
    """Every operation's failures (empty: none); ``answered`` collects the operations that answered 200."""
    failures = []
    operations = [result.ok() for result in openapi.get_all_operations()]
    assert len(operations) > 20
    for operation in operations:
        if operation.path in skip:
            continue

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))  # fmt: skip
        def run(case: schemathesis.Case) -> None:
            response = case.call_and_validate(headers=headers, checks=CHECKS, timeout=30)
            if answered is not None and response.status_code == 200:
                answered.add(f"{case.method} {case.path}")

        try:
            run()
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # schemathesis raises a group: collect every failing operation
            failures.append(f"{operation.method.upper()} {operation.path}: {str(exc)[:800]}")
    return failures


def test_no_operation_fails_or_breaks_its_schema_for_a_visitor(openapi: schemathesis.BaseSchema) -> None:
    assert _fuzz(openapi, {}) == []


def test_no_operation_fails_or_breaks_its_schema_for_a_member(
    openapi: schemathesis.BaseSchema, api: httpx.Client
) -> None:
    assert _fuzz(openapi, {"Authorization": member(api).token}) == []


@pytest.fixture
async def console_state_restored(stack: Stack, db: None) -> AsyncIterator[None]:
    """The shared state a fuzzed console may change (pairs' switches, fees, bounds, lever and second-contract
    terms, currencies, site settings, notices, frozen users, earn products) put back afterwards, the running
    pairs, lever shards and timers included, for the tests after this one."""
    pairs = await CurrencyMatch.all().values("id", *PAIR_FIELDS)
    currencies = await Currency.all().values("id", *CURRENCY_FIELDS)
    site = await SiteSetting.all().values("key", "value")
    news = await News.all().values()
    products = {kind.model: await kind.model.all().values() for kind in KINDS.values()}
    yield
    for model, rows in products.items():
        await model.exclude(id__in=[r["id"] for r in rows]).delete()
        for row in rows:
            await model.filter(id=row.pop("id")).update(**{k: v for k, v in row.items() if k != "created_at"})
    for row in pairs:
        await CurrencyMatch.filter(id=row.pop("id")).update(**row)
    for row in currencies:
        await Currency.filter(id=row.pop("id")).update(**row)
    await SiteSetting.exclude(key__in=[r["key"] for r in site]).delete()  # a threshold lowered for the first time
    for row in site:
        await SiteSetting.filter(key=row["key"]).update(value=row["value"])
    await News.exclude(id__in=[n["id"] for n in news]).delete()
    for row in news:
        if not await News.exists(id=row["id"]):
            await News.create(**row)
        else:
            await News.filter(id=row["id"]).update(**{k: v for k, v in row.items() if k != "id"})
    await User.all().update(login_frozen=False, withdraw_frozen=False)
    await asyncio.gather(*(pair_actor(symbol).reload_config.remote() for _, symbol in stack.pairs))
    shards = [lever_name(i) for i in range(stack.settings.lever_shards)]
    shards += [micro_name(i) for i in range(stack.settings.micro_shards)]
    await asyncio.gather(*(ray.get_actor(name).reload_terms.remote() for name in shards))  # the terms, at once


async def test_no_console_operation_fails_or_breaks_its_schema_for_an_operator_of_every_role(
    openapi: schemathesis.BaseSchema, api: httpx.Client, console_state_restored: None
) -> None:
    secret = operators.new_secret()
    row = await Operator.create(email=f"fuzz-{uuid.uuid4().hex[:8]}@back.office", totp_secret=secret,
                                password_hash=await hash_password(OPERATOR_PASSWORD), roles=list(operators.ROLES),
                                password_is_temporary=False, created_ms=now_ms())  # fmt: skip
    answer = await asyncio.to_thread(api.post, "admin/login", json={
        "email": row.email, "password": OPERATOR_PASSWORD, "otp": pyotp.TOTP(secret).now()})  # fmt: skip
    token = answer.json()["data"]["token"]
    console = openapi.include(path_regex="^/api/admin/")
    answered: set[str] = set()
    failures = await asyncio.to_thread(_fuzz, console, {"Authorization": token}, CONSOLE_SKIP, answered)
    assert failures == []
    # the calls got past the session and role checks: every reading screen answered
    assert {
        "GET /api/admin/dashboard",
        "GET /api/admin/pairs",
        "GET /api/admin/withdrawals",
        "GET /api/admin/users",
        "GET /api/admin/audit",
        "GET /api/admin/conservation",
        "GET /api/admin/p2p/appeals",
        "GET /api/admin/products",
    } <= answered, answered
