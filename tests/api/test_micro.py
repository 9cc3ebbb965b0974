"""Second contracts through the API, end to end, on LTC/USDT whose mark only these tests move: a member
moves USDT to the micro account, buys up and down over a short duration, the market moves (or not),
and each contract settles from the pair's ticks: a win pays stake x (1 + ratio), a loss nothing, a tie
and a window with no tick refund. Every outcome is pushed (MICRO_CLOSED), journaled, mirrored in the
house ledger, and provable from the public tick log (microtrade/proof). Every refusal reaches the
user as a translated message with its status."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from actors.micro.actor import OFFERS_TTL_MS
from serve.i18n import translate
from serve.stack import Stack
from store.micro import FEE, PNL
from store.models import AccountLog, AccountType, Currency, CurrencyMatch, HouseLedger, MicroOrder, SiteSetting
from tests.utils.prices import live_mark, mark_to, move_mark, wait_for
from tests.utils.push import next_of
from tests.utils.users import Member, error, member, ok
from tests.utils.wallets import USDT, balance, fund, system_totals

LTC_USDT, ETH_BTC, BTC = 3, 16, 2
MICRO_KINDS = (PNL, FEE)  # the house's rows of second contracts (other products number their orders alike)
MICRO = 4
UP, DOWN = 1, 2
SHORT = 5  # seconds: the duration these tests add to the pair
TERMS_AGE_S = OFFERS_TTL_MS / 1000 + 0.2  # a MicroTimer sees an operator's change of the terms within this


@pytest.fixture(scope="module")
async def ltc(api: httpx.Client, db: None) -> AsyncIterator[tuple[Member, Member]]:
    """LTC/USDT offers 5-second contracts for this module, and two traders move its mark."""
    pair = await CurrencyMatch.get(id=LTC_USDT)
    saved = pair.micro_seconds
    await CurrencyMatch.filter(id=LTC_USDT).update(micro_seconds=f"{SHORT}:80,{saved}")
    seller, buyer = member(api), member(api)
    await fund(seller, "LTC", "100000")
    await fund(buyer, "USDT", "100000000")
    mark = live_mark(api, LTC_USDT)
    await asyncio.to_thread(mark_to, api, seller, buyer, LTC_USDT, Decimal(mark["price"] if mark else 85))
    try:
        yield seller, buyer
    finally:
        await CurrencyMatch.filter(id=LTC_USDT).update(micro_seconds=saved)


async def staker(api: httpx.Client, amount: str = "1000") -> Member:
    m = member(api)
    await fund(m, "USDT", amount, AccountType.MICRO)
    return m


def order(kind: int = UP, number: str = "100", seconds: int = SHORT, **extra: Any) -> dict[str, Any]:
    return {"match_id": LTC_USDT, "currency_id": USDT, "type": kind, "lx": 1, "seconds": seconds, "number": number,
            **extra}  # fmt: skip


def submit(api: httpx.Client, m: Member, body: dict[str, Any], lang: str = "en") -> httpx.Response:
    """microtrade/submit; a duration added a moment ago reaches the timers within a second."""
    deadline = time.monotonic() + 3
    while True:
        response = api.post("microtrade/submit", json=body, headers={**m.auth, "lang": lang})
        if response.json().get("msg", "").startswith("This pair offers the durations") and time.monotonic() < deadline:
            time.sleep(0.2)
            continue
        return response


def get(api: httpx.Client, route: str, m: Member | None = None, **params: Any) -> httpx.Response:
    return api.get(f"microtrade/{route}", params=params, headers=m.auth if m else {})


def lists(api: httpx.Client, m: Member, **params: Any) -> dict[str, Any]:
    return ok(get(api, "lists", m, **params))


def closed(api: httpx.Client, m: Member, order_id: int) -> dict[str, Any] | None:
    rows = lists(api, m, status=3, match_id=LTC_USDT)["data"]
    return next((r for r in rows if r["id"] == order_id), None)


def settle_wait(api: httpx.Client, m: Member, order_id: int) -> dict[str, Any]:
    return wait_for(lambda: closed(api, m, order_id), f"contract {order_id} to settle", timeout=20)


def price_now(api: httpx.Client) -> Decimal:
    mark = live_mark(api, LTC_USDT)
    return Decimal(mark["price"]) if mark else Decimal("85")


def entered(api: httpx.Client, m: Member, order_id: int) -> dict[str, Any]:
    def check() -> dict[str, Any] | None:
        rows = lists(api, m, status=1)["data"]
        return next((r for r in rows if r["id"] == order_id and r["open_price"]), None)

    return wait_for(check, f"contract {order_id}'s entry tick")


def proof(api: httpx.Client, order_id: int) -> dict[str, Any]:
    return ok(get(api, "proof", id=order_id))


async def test_up_wins_down_loses_and_both_are_proved(
    api: httpx.Client, stack: Stack, ltc: tuple[Member, Member]
) -> None:
    seller, buyer = ltc
    up, down = await staker(api), await staker(api)
    before = await system_totals()
    url = f"ws://{stack.settings.http_host}:{stack.settings.ws_port}/ws"
    async with connect(url) as ws:
        await ws.send(json.dumps({"type": "login", "token": up.token}))
        await ws.send(json.dumps({"type": "sub", "params": "MICRO_CLOSED"}))
        assert (await next_of(ws, "sub"))["code"] == 1
        start = price_now(api)
        placed = ok(submit(api, up, order(UP, "100")))
        against = ok(submit(api, down, order(DOWN, "50")))
        assert (placed["status"], placed["outcome"], placed["remain_milli_seconds"]) == (1, None, SHORT * 1000)
        assert placed["profit_ratio"] == "80" and placed["type_name"] == "Up"
        assert balance(api, up, USDT, MICRO) == (Decimal(900), Decimal(100))  # the stake is held
        await asyncio.to_thread(mark_to, api, seller, buyer, LTC_USDT, start + Decimal("0.5"))  # the entry
        first = entered(api, up, placed["id"])
        assert 0 < first["remain_milli_seconds"] <= SHORT * 1000 and first["entry_at"] > placed["accepted_at"]
        await asyncio.to_thread(mark_to, api, seller, buyer, LTC_USDT, start + Decimal("1.5"))  # up within 5 s
        pushed = (await next_of(ws, "micro_closed", wait=20))["order"]
    won = settle_wait(api, up, placed["id"])
    lost = settle_wait(api, down, against["id"])
    assert pushed["id"] == placed["id"] and pushed["outcome"] == "win"
    assert (won["outcome"], won["payout"], won["fact_profits"], won["outcome_name"]) == ("win", "180", "80", "Won")
    assert (lost["outcome"], lost["payout"], lost["fact_profits"]) == ("loss", "0", "-50")
    assert Decimal(won["end_price"]) > Decimal(won["open_price"])
    assert balance(api, up, USDT, MICRO) == (Decimal(1080), Decimal(0))
    assert balance(api, down, USDT, MICRO) == (Decimal(950), Decimal(0))
    house = dict(
        await HouseLedger.filter(kind__in=MICRO_KINDS, position_id__in=[placed["id"], against["id"]]).values_list(
            "ref", "amount"
        )
    )
    assert house == {f"m{placed['id']}:micro_pnl": Decimal(-80), f"m{against['id']}:micro_pnl": Decimal(50)}
    assert await system_totals() == before  # the house's side mirrors the players'
    logs = await AccountLog.filter(user_id=up.uid, account_type=AccountType.MICRO).values_list("log_type", flat=True)
    assert sorted(logs) == ["deposit", "micro_settle", "micro_stake"]
    for row in (won, lost):
        checked = proof(api, row["id"])
        assert checked["chained"] and checked["verdict"]["matches"]
        assert all(t["rule"] in ("impact", "thin", "mid") and t["version"] == 2 for t in checked["ticks"])
        assert checked["verdict"]["entry_tick_id"] == row["entry_tick_id"] == checked["ticks"][0]["id"]
        assert checked["anchor"]["seq"] + 1 == checked["ticks"][0]["seq"]  # no tick between acceptance and entry
        assert checked["anchor"]["time"] <= row["accepted_at"] < checked["ticks"][0]["time"]
        assert any(t["id"] == row["exit_tick_id"] and t["time"] <= row["end_at"] for t in checked["ticks"])


async def test_a_still_market_ties_and_no_tick_voids(api: httpx.Client, ltc: tuple[Member, Member]) -> None:
    seller, buyer = ltc
    tie, void = await staker(api), await staker(api)
    nothing = ok(submit(api, void, order(UP, "10")))  # the market does not move for 5 s: no entry
    await asyncio.sleep(SHORT + 0.3)
    even = ok(submit(api, tie, order(DOWN, "20")))
    await asyncio.to_thread(move_mark, api, seller, buyer, LTC_USDT, "1")  # one tick: the entry, and the exit
    voided, tied = settle_wait(api, void, nothing["id"]), settle_wait(api, tie, even["id"])
    assert (voided["outcome"], voided["payout"], voided["open_price"], voided["entry_tick_id"]) == (
        "void",
        "10",
        None,
        None,
    )
    assert (tied["outcome"], tied["payout"], tied["entry_tick_id"]) == ("tie", "20", tied["exit_tick_id"])
    assert balance(api, void, USDT, MICRO) == balance(api, tie, USDT, MICRO) == (Decimal(1000), Decimal(0))
    assert not await HouseLedger.filter(kind__in=MICRO_KINDS, position_id__in=[nothing["id"], even["id"]]).exists()
    assert proof(api, nothing["id"])["verdict"]["outcome"] == "void" and proof(api, even["id"])["verdict"]["matches"]


async def test_the_lists_page_and_count_down(api: httpx.Client, ltc: tuple[Member, Member]) -> None:
    m = await staker(api, "5000")
    ids = [ok(submit(api, m, order(UP, "10", seconds=60)))["id"] for _ in range(12)]
    first = lists(api, m, status=1, page=1)
    second = lists(api, m, status=1, page=2, match_id=LTC_USDT)
    assert (first["total"], first["per_page"], first["last_page"]) == (12, 10, 2)
    assert [r["id"] for r in first["data"] + second["data"]] == sorted(ids, reverse=True)
    assert all(0 < r["remain_milli_seconds"] <= 60_000 for r in first["data"])
    assert lists(api, m, status=3)["total"] == 0
    other = lists(api, m, status=1, match_id=1)
    assert other["total"] == 0


async def test_the_currencies_and_durations_on_offer(api: httpx.Client, ltc: tuple[Member, Member]) -> None:
    m = await staker(api, "123.5")
    (usdt,) = ok(get(api, "payable_currencies", m))
    assert (usdt["id"], usdt["code"], usdt["micro_account"]["balance"]) == (USDT, "USDT", "123.5")
    assert [n["number"] for n in usdt["micro_numbers"]] == ["10", "50", "100", "500", "1000"]
    durations = ok(get(api, "seconds", match_id=LTC_USDT))
    assert durations[:2] == [{"seconds": SHORT, "profit_ratio": "80"}, {"seconds": 30, "profit_ratio": "80"}]
    assert ok(get(api, "seconds"))[0] == {"seconds": 30, "profit_ratio": "80"}  # BTC/USDT's
    assert error(get(api, "seconds", match_id=ETH_BTC), 400)


REFUSALS = [
    ({"number": "0"}, "Please enter a quantity"),
    ({"number": "-5"}, "Please enter a quantity"),
    ({"number": ""}, "Please enter a quantity"),
    ({"number": "abc"}, "Please enter a quantity"),
    ({"number": "0.5"}, "The amount must be between 1 and 10000"),
    ({"number": "10001"}, "The amount can be at most 10000"),
    ({"number": "1.0000001"}, "The amount can have at most 6 decimal places"),
    ({"number": "70", "lx": 2}, "Please choose one of the amounts 10, 50, 100, 500, 1000"),
    ({"seconds": 31}, "This pair offers the durations 5, 30, 60, 120, 300 seconds"),
    ({"match_id": ETH_BTC}, "Second contracts are not offered on this pair"),
    ({"currency_id": BTC}, "This currency cannot be staked"),
    ({"currency_id": 999}, "This currency cannot be staked"),
    ({"number": "5000"}, "Insufficient balance"),
]


@pytest.mark.parametrize(("change", "message"), REFUSALS)
async def test_refusals_are_clear_and_hold_nothing(
    api: httpx.Client, ltc: tuple[Member, Member], change: dict[str, Any], message: str
) -> None:
    m = await staker(api)
    assert error(submit(api, m, order(**change)), 400) == message
    assert balance(api, m, USDT, MICRO) == (Decimal(1000), Decimal(0))
    assert not await MicroOrder.filter(user_id=m.uid).exists()


async def test_refusals_in_the_requested_language(api: httpx.Client, ltc: tuple[Member, Member]) -> None:
    m = await staker(api)
    for lang in ("fr", "gm", "jp", "hk"):
        text = error(submit(api, m, order(number="0.5"), lang=lang), 400)
        assert text == translate("The amount must be between {min} and {max}", lang, min="1", max="10000")
        assert text != "The amount must be between 1 and 10000"


async def test_bad_shapes_and_logins(api: httpx.Client, ltc: tuple[Member, Member]) -> None:
    m = await staker(api)
    for bad in ({"type": 3}, {"lx": 0}, {"seconds": 0}, {"match_id": "x"}, {"number": True}):
        response = submit(api, m, order(**bad))
        assert response.status_code == 400 and response.json()["code"] == 0
    stranger = Member(account="", password="", token="not-a-token", uid=0)
    assert submit(api, stranger, order()).json()["code"] == 999
    assert get(api, "lists").json()["code"] == 999
    assert get(api, "payable_currencies").json()["code"] == 999
    assert error(get(api, "lists", m, status=2), 400)
    assert error(get(api, "proof", id=987654321987), 404) == "Contract not found"
    assert error(get(api, "proof", id="x"), 400)


async def test_the_caps_refuse_and_the_switch_turns_it_off(api: httpx.Client, ltc: tuple[Member, Member]) -> None:
    m = await staker(api, "5000")
    usdt = await Currency.get(id=USDT)
    await Currency.filter(id=USDT).update(micro_max_open=Decimal(150))
    try:
        await asyncio.sleep(TERMS_AGE_S)
        ok(submit(api, m, order(number="100", seconds=30)))
        message = "Your contracts in progress can hold at most 150 USDT; wait for some to end"
        assert error(submit(api, m, order(number="100", seconds=30)), 400) == message
    finally:
        await Currency.filter(id=USDT).update(micro_max_open=usdt.micro_max_open)
    await CurrencyMatch.filter(id=LTC_USDT).update(micro_max_exposure=Decimal(100))
    try:
        await asyncio.sleep(TERMS_AGE_S)
        other = await staker(api, "5000")
        refused = [submit(api, other, order(UP, "500", seconds=120)) for _ in range(2)]
        # Each of the 2 shards takes up to 100 / 2 = 50 of worst-case loss: 500 up at 90 % is 450.
        assert [r.json()["msg"] for r in refused] == [
            "This pair cannot take more contracts of this duration now, please try later"
        ] * 2
    finally:
        await CurrencyMatch.filter(id=LTC_USDT).update(micro_max_exposure=Decimal(100_000))
    await SiteSetting.update_or_create(key="micro_open", defaults={"value": "0"})
    try:
        response = submit(api, m, order())
        assert (response.status_code, response.json()["msg"]) == (403, "Second contracts are not offered here")
    finally:
        await SiteSetting.filter(key="micro_open").update(value="1")
    assert balance(api, m, USDT, MICRO) == (Decimal(4900), Decimal(100))
