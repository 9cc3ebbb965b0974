"""The console's currencies (issue 16): a markets operator closes USDT withdrawals and alice's next
withdrawal is refused, then opens them with a lower fee and a higher minimum and her next one pays
the new fee; new preset stakes and a lower cap on open stakes reach the second-contract timers at
once (no restart, no wait). Every bad value is refused with what to fix and changes nothing; every
change is in the audit trail with its reason; a support operator is refused."""

from __future__ import annotations

from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import httpx
import pytest
import ray

from actors.names import micro_name
from config.settings import Settings
from serve.i18n import translate
from store.models import AccountType, AuditLog, Currency
from tests.api.test_admin import make_operator, token_of
from tests.api.test_withdraw import draw, set_deal_password
from tests.utils.sales import get, post
from tests.utils.users import error, member, ok
from tests.utils.wallets import USDT, balance, fund

ETH_USDT = 2
MICRO = 4
FIELDS = ("open_recharge", "open_draw", "draw_rate", "draw_min", "draw_max", "recharge_min", "confirmations",
          "micro_numbers", "micro_min", "micro_max", "micro_max_open")  # fmt: skip


@pytest.fixture
async def usdt(settings: Settings, db: None) -> AsyncIterator[Currency]:
    """USDT as seeded, put back afterwards (the second-contract timers told at once)."""
    saved = await Currency.get(id=USDT)
    try:
        yield saved
    finally:
        await Currency.filter(id=USDT).update(**{k: getattr(saved, k) for k in FIELDS})
        for i in range(settings.micro_shards):
            await ray.get_actor(micro_name(i)).reload_terms.remote()


async def markets_operator(api: httpx.Client) -> tuple[str, dict[str, str]]:
    op, secret = await make_operator("markets")
    return op.email, token_of(api, op, secret)


def update(api: httpx.Client, auth: dict[str, str], lang: str = "en", **body: Any) -> httpx.Response:
    return post(api, "admin/currencies/update", json={"id": USDT, **body}, headers={**auth, "lang": lang})


async def test_withdrawals_follow_the_console_at_once(api: httpx.Client, settings: Settings, usdt: Currency) -> None:
    email, auth = await markets_operator(api)
    alice = member(api)
    await fund(alice, "USDT", "1000")
    set_deal_password(api, settings, alice)
    listed = {c["code"]: c for c in ok(get(api, "admin/currencies", headers=auth))}
    assert (listed["USDT"]["open_draw"], listed["USDT"]["draw_rate"], listed["USDT"]["draw_min"]) == (
        True,
        "0.01",
        "10",
    )
    assert (listed["USDT"]["micro_numbers"], listed["USDT"]["stake"], listed["BTC"]["micro_numbers"]) == (
        "10,50,100,500,1000", True, "",
    )  # fmt: skip

    closed = ok(update(api, auth, open_draw=False, reason="wallet maintenance"))
    assert (closed["code"], closed["open_draw"], closed["applied_live"]) == ("USDT", False, True)
    assert error(draw(api, alice, "100"), 400) == "Withdrawals of this currency are closed"
    assert balance(api, alice, USDT) == (Decimal(1000), Decimal(0))

    opened = ok(update(api, auth, open_draw=True, draw_rate="0.002", draw_min="50", reason="fee cut"))
    assert (opened["open_draw"], opened["draw_rate"], opened["draw_min"]) == (True, "0.002", "50")
    assert error(draw(api, alice, "40"), 400) == "The minimum withdrawal is 50"
    data = ok(draw(api, alice, "100"))
    assert (data["number"], data["fee"], data["real_number"]) == ("100", "0.2", "99.8")  # 0.2 %, not the seeded 1 %
    assert balance(api, alice, USDT) == (Decimal(900), Decimal(100))

    rows = await AuditLog.filter(operator=email, action__startswith="currency.").order_by("id")
    assert [(r.action, r.target, r.role, r.before, r.after, r.reason) for r in rows] == [
        ("currency.update", "currency:USDT", "markets", {"open_draw": True}, {"open_draw": False}, "wallet maintenance"),
        ("currency.update", "currency:USDT", "markets", {"open_draw": False, "draw_rate": "0.01", "draw_min": "10"},
         {"open_draw": True, "draw_rate": "0.002", "draw_min": "50"}, "fee cut"),
    ]  # fmt: skip


def stake(api: httpx.Client, m: Any, number: str, lx: int = 1) -> httpx.Response:
    body = {"match_id": ETH_USDT, "currency_id": USDT, "type": 1, "lx": lx, "seconds": 30, "number": number}
    return post(api, "microtrade/submit", json=body, headers=m.auth)


async def test_stakes_reach_the_second_contract_timers_at_once(api: httpx.Client, usdt: Currency) -> None:
    _, auth = await markets_operator(api)
    bob = member(api)
    await fund(bob, "USDT", "5000", AccountType.MICRO)
    assert error(stake(api, bob, "250", lx=2), 400) == "Please choose one of the amounts 10, 50, 100, 500, 1000"

    changed = ok(update(api, auth, micro_numbers="10, 50,100,250,500,1000", micro_max="2000", reason="new tier"))
    assert (changed["micro_numbers"], changed["micro_max"], changed["applied_live"]) == (
        "10,50,100,250,500,1000", "2000", True,
    )  # fmt: skip
    (offered,) = ok(get(api, "microtrade/payable_currencies", headers=bob.auth))
    assert [n["number"] for n in offered["micro_numbers"]] == ["10", "50", "100", "250", "500", "1000"]
    assert offered["max_number"] == "2000"
    placed = ok(stake(api, bob, "250", lx=2))  # the new preset, at once: no wait for the timers' refresh
    assert (placed["number"], placed["status"]) == ("250", 1)
    assert error(stake(api, bob, "2500"), 400) == "The amount can be at most 2000"

    ok(update(api, auth, micro_max_open="300", reason="cap open stakes"))
    message = "Your contracts in progress can hold at most 300 USDT; wait for some to end"
    assert error(stake(api, bob, "100"), 400) == message  # 250 + 100 > 300, refused by the timer at once
    ok(stake(api, bob, "50"))
    assert balance(api, bob, USDT, MICRO) == (Decimal(4700), Decimal(300))


BAD = [  # (change, message; None: a shape the schema refuses, any message)
    ({"draw_rate": "0.2"}, "draw_rate must be a number from 0 to 0.1"),
    ({"draw_rate": "-0.01"}, "draw_rate must be a number from 0 to 0.1"),
    ({"draw_rate": "1e-3"}, "draw_rate must be a number from 0 to 0.1"),
    ({"draw_rate": "NaN"}, "draw_rate must be a number from 0 to 0.1"),
    ({"draw_rate": ""}, "draw_rate must be a number from 0 to 0.1"),
    ({"draw_rate": 0.002}, None),  # a JSON number: money travels as a decimal string
    ({"draw_min": "0.0000001"}, "draw_min can have at most 6 decimal places"),
    ({"draw_min": "200000"}, "draw_min cannot be above draw_max"),
    ({"draw_max": "5"}, "draw_min cannot be above draw_max"),
    ({"recharge_min": "-1"}, "recharge_min must be a number from 0 to 1000000000000000"),
    ({"recharge_min": "1" + "0" * 16}, "recharge_min must be a number from 0 to 1000000000000000"),
    ({"micro_min": "0"}, "micro_min must be a number above 0 and at most 1000000000000000"),
    ({"micro_min": "20000"}, "micro_min cannot be above micro_max"),
    ({"micro_max_open": "0.5"}, "micro_min cannot be above micro_max_open"),
    ({"micro_max": "500"}, "micro_numbers must be empty or list up to 12 different amounts from 1 to 500, separated "
                           "by commas, with at most 6 decimal places"),  # the preset 1000 would be out of bounds
    ({"micro_numbers": "10,10"}, "micro_numbers must be empty or list up to 12 different amounts from 1 to 10000, "
                                 "separated by commas, with at most 6 decimal places"),
    ({"micro_numbers": "10,abc"}, "micro_numbers must be empty or list up to 12 different amounts from 1 to 10000, "
                                  "separated by commas, with at most 6 decimal places"),
    ({"micro_numbers": "0.5"}, "micro_numbers must be empty or list up to 12 different amounts from 1 to 10000, "
                               "separated by commas, with at most 6 decimal places"),
    ({"micro_numbers": "10.1234567"}, "micro_numbers must be empty or list up to 12 different amounts from 1 to "
                                      "10000, separated by commas, with at most 6 decimal places"),
    ({"confirmations": 0}, None),
    ({"confirmations": 1001}, None),
    ({"confirmations": "many"}, None),
    ({"open_draw": "maybe"}, None),
    ({}, "Nothing to change: give at least one setting"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "message"), BAD)
async def test_bad_values_are_refused_with_what_to_fix_and_change_nothing(
    api: httpx.Client, usdt: Currency, change: dict[str, Any], message: str | None
) -> None:
    email, auth = await markets_operator(api)
    text = error(update(api, auth, **change), 400)
    if message is not None:
        assert text == message
    assert {k: getattr(await Currency.get(id=USDT), k) for k in FIELDS} == {k: getattr(usdt, k) for k in FIELDS}
    assert not await AuditLog.filter(operator=email, action__startswith="currency.").exists()


async def test_refusals_are_translated_and_unknown_currencies_not_found(api: httpx.Client, usdt: Currency) -> None:
    _, auth = await markets_operator(api)
    text = error(update(api, auth, lang="hk", draw_min="200000"), 400)
    assert text == translate("{low} cannot be above {high}", "hk", low="draw_min", high="draw_max") != (
        "draw_min cannot be above draw_max"
    )  # fmt: skip
    assert error(update(api, auth, id=999999, open_draw=True), 404) == "Not found"


async def test_a_support_operator_cannot_read_or_change_currencies(api: httpx.Client, usdt: Currency) -> None:
    op, secret = await make_operator("support")
    auth = token_of(api, op, secret)
    assert error(get(api, "admin/currencies", headers=auth), 403) == "Your role does not allow this"
    assert error(update(api, auth, open_draw=False, reason="not mine"), 403) == "Your role does not allow this"
    assert (await Currency.get(id=USDT)).open_draw is True
