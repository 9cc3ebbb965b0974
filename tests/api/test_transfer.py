"""Transfers between a user's accounts, BTC/ETH conversion, the records pages and the transfer log."""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal
from typing import Any

import httpx
import pytest

from config.settings import Settings
from serve.stack import Stack
from store.cache import connect_redis
from store.models import AccountLog, AccountType, Currency
from store.money import money
from tests.utils.prices import age_mark, held_mark, live_mark, mark_traders, move_mark, wait_for
from tests.utils.users import Member, error, member, ok
from tests.utils.wallets import BTC, ETH, LTC, USDT, balance, fund, system_totals

CHANGE, LEGAL, LEVER, MICRO = 1, 2, 3, 4
BTC_USDT, ETH_USDT = 1, 2
STALE = "Prices are updating, please try again"


def transfer(api: httpx.Client, m: Member, amount: Any, source: Any = "change_account", target: Any = "legal_account",
             currency_id: int = USDT) -> httpx.Response:  # fmt: skip
    body = {"currency_id": currency_id, "balance": amount, "from": source, "to": target}
    return api.post("account/transfer", json=body, headers=m.auth)


def convert(api: httpx.Client, m: Member, number: Any, currency_id: int = BTC, lang: str = "en") -> httpx.Response:
    body = {"currency_id": currency_id, "number": number}
    return api.post("account/convert", json=body, headers={**m.auth, "lang": lang})


@pytest.fixture
async def alice(api: httpx.Client, db: None) -> Member:
    user = member(api)
    await fund(user, "USDT", "1000")
    await fund(user, "BTC", "1")
    await fund(user, "ETH", "2")
    return user


@pytest.fixture
async def traders(api: httpx.Client, db: None) -> tuple[Member, Member]:
    return await mark_traders(api)


@pytest.fixture
def marks_live(api: httpx.Client, traders: tuple[Member, Member]) -> dict[int, dict[str, Any]]:
    """BTC/USDT's and ETH/USDT's marks, fresh (traded into being when a pair has none yet)."""
    found = {}
    for pair_id, number in ((BTC_USDT, "0.001"), (ETH_USDT, "0.01")):
        mark = live_mark(api, pair_id)
        found[pair_id] = mark if mark and mark["fresh"] else move_mark(api, *traders, pair_id, number)
    return found


def paid(number: str, mark: dict[str, Any], spread: Decimal) -> tuple[Decimal, Decimal]:
    """(rate, USDT) a conversion of ``number`` pays at ``mark``: mark × (1 − spread), rounded down."""
    rate = Decimal(mark["price"]) * (1 - spread)
    return rate, (Decimal(number) * rate).quantize(Decimal("0.000001"), rounding=ROUND_DOWN)


# --- account/transfer ------------------------------------------------------------------------------


def test_alice_moves_usdt_from_her_trade_account_to_her_legal_account(api: httpx.Client, alice: Member) -> None:
    response = transfer(api, alice, "250.5")
    assert ok(response) == {"currency_id": USDT, "balance": "250.5", "from": "change_account", "to": "legal_account"}
    assert response.json()["msg"] == "Transferred"
    assert balance(api, alice, USDT, CHANGE) == (Decimal("749.5"), 0)
    assert balance(api, alice, USDT, LEGAL) == (Decimal("250.5"), 0)
    # and back, naming the accounts by number
    ok(transfer(api, alice, 50, LEGAL, CHANGE))
    assert balance(api, alice, USDT, LEGAL) == (Decimal("200.5"), 0)
    ok(transfer(api, alice, "0.5", "legal", "lever"))
    groups = {g["account_code"]: g for g in ok(api.get("account/list", headers=alice.auth))}
    lever_usdt = next(a for a in groups["lever_account"]["accounts"] if a["currency_id"] == USDT)
    assert lever_usdt["balance"] == "0.5"


def test_records_show_both_legs_and_the_transfer_log_one_row(api: httpx.Client, alice: Member) -> None:
    ok(transfer(api, alice, "100"))
    change = ok(api.get("account_log/change", params={"currency_id": USDT}, headers=alice.auth))
    legal = ok(api.get("account_log/legal", headers=alice.auth))
    out, into = change["data"][0], legal["data"][0]
    assert (out["value"], out["log_type"], out["notes"]) == ("-100", "transfer", "Transfer")
    assert out["extra_data"] == {"from": "change_account", "to": "legal_account"}
    assert (into["value"], into["currency"]["code"], into["balance_after"]) == ("100", "USDT", "100")
    assert change["per_page"] == 15 and [r["log_type"] for r in change["data"]] == ["transfer", "deposit"]
    log = ok(api.get("account/transfer_log", headers=alice.auth))
    assert log["total"] == 1 and log["data"][0]["value"] == "100"
    assert log["data"][0]["extra_data"]["to"] == "legal_account"
    assert ok(api.get("account/transfer_log", params={"currency_id": BTC}, headers=alice.auth))["total"] == 0
    translated = ok(api.get("account_log/legal", headers={**alice.auth, "lang": "hk"}))["data"][0]["notes"]
    assert translated and translated != "Transfer"


def test_records_are_paged_by_15_and_filtered_by_currency(api: httpx.Client, alice: Member) -> None:
    for _ in range(16):
        ok(transfer(api, alice, "1"))
    first = ok(api.get("account_log/legal", headers=alice.auth))
    assert (first["total"], first["per_page"], first["last_page"], len(first["data"])) == (16, 15, 2, 15)
    second = ok(api.get("account_log/legal", params={"page": 2}, headers=alice.auth))
    assert len(second["data"]) == 1 and second["current_page"] == 2
    assert ok(api.get("account_log/legal", params={"currency_id": BTC}, headers=alice.auth))["total"] == 0
    assert ok(api.get("account/transfer_log", params={"page": 2}, headers=alice.auth))["data"][0]["value"] == "1"
    assert ok(api.get("account_log/micro", headers=alice.auth))["total"] == 0
    assert ok(api.get("account_log/financial", headers=alice.auth))["total"] == 0
    assert error(api.get("account_log/savings", headers=alice.auth), 400)
    assert error(api.get("account_log/legal", params={"page": 0}, headers=alice.auth), 400)
    assert error(api.get("account_log/legal", params={"currency_id": "x"}, headers=alice.auth), 400)


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        ("", "Please enter the transfer amount"),
        (None, "Please enter the transfer amount"),
        ("0", "Please enter the transfer amount"),
        ("-5", "Please enter the transfer amount"),
        ("abc", "Please enter the transfer amount"),
        ("NaN", "Please enter the transfer amount"),
        ("1e40", "The amount can be at most 1000000000"),  # USDT's max_amount
        ("1000000000.000001", "The amount can be at most 1000000000"),
        ("1e999999999", "The amount can be at most 1000000000"),
        ("9" * 100_000, "Please enter the transfer amount"),
        ("Infinity", "Please enter the transfer amount"),
        ("-0", "Please enter the transfer amount"),
        ("1_000", "Please enter the transfer amount"),
        ("1.0000001", "The amount can have at most 6 decimal places"),
    ],
)
def test_transfer_amount_rules(api: httpx.Client, alice: Member, amount: Any, message: str) -> None:
    assert error(transfer(api, alice, amount), 400) == message
    assert balance(api, alice, USDT) == (Decimal(1000), 0)


def test_transfer_refusals_leave_every_balance_untouched(api: httpx.Client, alice: Member) -> None:
    assert error(transfer(api, alice, "1000.01"), 400) == "Insufficient balance"
    assert error(transfer(api, alice, "1", "legal", "change"), 400) == "Insufficient balance"
    assert error(transfer(api, alice, "1", "change", "change_account"), 400) == "Choose two different accounts"
    assert error(transfer(api, alice, "1", "savings"), 400) == "Please choose an account"
    assert error(transfer(api, alice, "1", 9), 400) == "Please choose an account"
    assert error(transfer(api, alice, "1", None), 400) == "Please choose an account"
    body = {"currency_id": USDT, "balance": "1", "from": "change"}
    assert error(api.post("account/transfer", json=body, headers=alice.auth), 400) == "Please choose an account"
    assert error(transfer(api, alice, "1", currency_id=999), 404) == "Currency not found"
    assert error(transfer(api, alice, "1", currency_id=2**40), 400)
    assert error(transfer(api, alice, "1", currency_id=0), 400)
    assert balance(api, alice, USDT) == (Decimal(1000), 0)
    assert balance(api, alice, USDT, LEGAL) == (0, 0)


async def test_transfer_only_between_accounts_the_currency_allows(api: httpx.Client, alice: Member) -> None:
    await fund(alice, "ACB", "10")
    acb = await Currency.get(code="ACB")
    original = acb.account_types
    await Currency.filter(id=acb.id).update(account_types="1,4")
    try:
        message = error(transfer(api, alice, "1", "change", "legal", currency_id=acb.id), 400)
        assert message == "This account cannot hold that currency"
        ok(transfer(api, alice, "1", "change", "micro", currency_id=acb.id))
    finally:
        await Currency.filter(id=acb.id).update(account_types=original)


def test_transfer_needs_login(api: httpx.Client) -> None:
    body = {"currency_id": USDT, "balance": "1", "from": 1, "to": 2}
    assert error(api.post("account/transfer", json=body), 401, 999)
    assert error(api.get("account_log/change"), 401, 999)
    assert error(api.get("account/transfer_log"), 401, 999)
    assert error(api.post("account/convert", json={"currency_id": BTC, "number": "1"}), 401, 999)


def test_one_user_cannot_see_or_move_another_users_funds(api: httpx.Client, alice: Member) -> None:
    mallory = member(api)
    ok(transfer(api, alice, "10"))
    # Every route acts on the session's user: a user id in the body is ignored.
    body = {"currency_id": USDT, "balance": "10", "from": 1, "to": 2, "user_id": alice.uid, "uid": alice.uid}
    assert error(api.post("account/transfer", json=body, headers=mallory.auth), 400) == "Insufficient balance"
    convert_body = {"currency_id": BTC, "number": "0.1", "user_id": alice.uid}
    assert error(api.post("account/convert", json=convert_body, headers=mallory.auth), 400) == "Insufficient balance"
    for path in ("account_log/change", "account_log/legal", "account/transfer_log"):
        assert ok(api.get(path, params={"user_id": alice.uid}, headers=mallory.auth))["total"] == 0, path
    assert balance(api, alice, USDT) == (Decimal(990), 0)
    assert balance(api, alice, BTC) == (Decimal(1), 0)


# --- account/convert -------------------------------------------------------------------------------


def test_alice_converts_btc_and_eth_into_usdt_at_the_live_mark_less_the_spread(
    api: httpx.Client, alice: Member, marks_live: dict[int, dict[str, Any]], settings: Settings
) -> None:
    btc_mark, eth_mark = marks_live[BTC_USDT], marks_live[ETH_USDT]
    rate, usdt = paid("0.25", btc_mark, settings.convert_spread)
    response = convert(api, alice, "0.25")
    assert ok(response) == {
        "currency_id": BTC, "number": "0.25", "price": money(rate), "mark": btc_mark["price"],
        "spread": money(settings.convert_spread), "tick_id": btc_mark["id"], "usdt": money(usdt),
    }  # fmt: skip
    assert response.json()["msg"] == "Converted"
    assert balance(api, alice, BTC) == (Decimal("0.75"), 0)
    assert balance(api, alice, USDT) == (1000 + usdt, 0)
    _, dust = paid("0.00000001", eth_mark, settings.convert_spread)
    assert dust > 0  # about 3500 × 1e-8 = 0.000035 USDT
    ok(convert(api, alice, "0.00000001", ETH))
    assert balance(api, alice, USDT) == (1000 + usdt + dust, 0)
    record = ok(api.get("account_log/change", params={"currency_id": BTC}, headers=alice.auth))["data"][0]
    assert (record["value"], record["notes"], record["extra_data"]) == ("-0.25", "Conversion", {
        "from": "BTC", "to": "USDT", "price": money(rate), "mark": btc_mark["price"],
        "spread": money(settings.convert_spread), "tick_id": btc_mark["id"],
    })  # fmt: skip


def test_convert_pays_the_new_mark_after_trades_move_it(
    api: httpx.Client, alice: Member, traders: tuple[Member, Member], settings: Settings
) -> None:
    """Defect 2: the price followed a frozen seed, so buying below it on the book and converting minted
    USDT. Each conversion now pays the mark in force, less the spread, and records that mark's tick."""
    spent = Decimal(0)
    for _ in range(2):
        mark = move_mark(api, *traders, BTC_USDT, "0.001")
        rate, usdt = paid("0.1", mark, settings.convert_spread)
        answer = ok(convert(api, alice, "0.1"))
        assert (answer["mark"], answer["tick_id"], answer["usdt"]) == (mark["price"], mark["id"], money(usdt))
        assert Decimal(answer["price"]) == rate < Decimal(mark["price"])
        spent += usdt
        rows = ok(api.get("account_log/change", params={"currency_id": USDT}, headers=alice.auth))["data"]
        assert (rows[0]["value"], rows[0]["extra_data"]["tick_id"]) == (money(usdt), mark["id"])
    assert balance(api, alice, USDT) == (1000 + spent, 0)
    assert balance(api, alice, BTC) == (Decimal("0.8"), 0)


async def test_a_stale_or_missing_mark_refuses_convert_and_moves_nothing(
    stack: Stack, api: httpx.Client, alice: Member, marks_live: dict[int, dict[str, Any]]
) -> None:
    redis = connect_redis(stack.settings)
    try:
        async with held_mark(redis, "BTC/USDT") as mark:
            await age_mark(redis, mark, stack.settings.mark_stale_seconds + 1)
            assert error(convert(api, alice, "0.5"), 503) == STALE
            assert error(convert(api, alice, "0.5", lang="fr"), 503) not in ("", STALE)
            await redis.delete(f"ex:mark:{mark.symbol}")  # gone: the pair never ticked, or its key expired
            assert error(convert(api, alice, "0.5"), 503) == STALE
        assert balance(api, alice, BTC) == (Decimal(1), 0)
        assert balance(api, alice, USDT) == (Decimal(1000), 0)
        assert await AccountLog.filter(user_id=alice.uid, log_type="convert").count() == 0
        # the resumed pair confirms its mark again, and convert works again
        wait_for(lambda: (live_mark(api, BTC_USDT) or {}).get("fresh"), "BTC/USDT's mark to be fresh again")
        ok(convert(api, alice, "0.5"))
    finally:
        await redis.aclose()


async def test_convert_is_bounded_by_the_currencys_max_amount(
    api: httpx.Client, alice: Member, marks_live: dict[int, dict[str, Any]], settings: Settings
) -> None:
    btc, usdt = await Currency.get(code="BTC"), await Currency.get(code="USDT")
    await Currency.filter(id=btc.id).update(max_amount=Decimal("0.5"))
    try:
        assert error(convert(api, alice, "0.50000001"), 400) == "The amount can be at most 0.5"
        assert error(convert(api, alice, "1e999999999"), 400) == "The amount can be at most 0.5"
    finally:
        await Currency.filter(id=btc.id).update(max_amount=btc.max_amount)
    # what the USDT side may take bounds it too, told in the currency converted
    await Currency.filter(id=usdt.id).update(max_amount=Decimal(1000))
    try:
        rate, _ = paid("1", marks_live[BTC_USDT], settings.convert_spread)
        most = (Decimal(1000) / rate).quantize(Decimal("0.00000001"), rounding=ROUND_DOWN)
        assert error(convert(api, alice, "0.5"), 400) == f"The amount can be at most {money(most)}"
    finally:
        await Currency.filter(id=usdt.id).update(max_amount=usdt.max_amount)
    assert balance(api, alice, BTC) == (Decimal(1), 0)


def test_convert_rules(api: httpx.Client, alice: Member, marks_live: dict[int, dict[str, Any]]) -> None:
    assert error(convert(api, alice, "1", USDT), 400) == "Only BTC and ETH can be converted"
    assert error(convert(api, alice, "1", LTC), 400) == "Only BTC and ETH can be converted"
    assert error(convert(api, alice, ""), 400) == "Please enter a quantity"
    assert error(convert(api, alice, "-1"), 400) == "Please enter a quantity"
    assert error(convert(api, alice, "0.000000001"), 400) == "The amount can have at most 8 decimal places"
    assert error(convert(api, alice, "1.5"), 400) == "Insufficient balance"
    assert error(convert(api, alice, "1", 999), 404) == "Currency not found"
    assert balance(api, alice, BTC) == (Decimal(1), 0)
    assert balance(api, alice, USDT) == (Decimal(1000), 0)


# --- conservation ----------------------------------------------------------------------------------


async def test_conservation_across_transfers_and_conversions(
    api: httpx.Client, marks_live: dict[int, dict[str, Any]], settings: Settings
) -> None:
    """Transfers move nothing in or out of the system; a conversion moves exactly its two legs."""
    before = await system_totals()
    bob = member(api)
    await fund(bob, "USDT", "500")
    await fund(bob, "BTC", "0.5")
    ok(transfer(api, bob, "123.456789"))
    ok(transfer(api, bob, "0.1", "change", "lever", BTC))
    ok(transfer(api, bob, "23.456789", "legal", "micro"))
    ok(convert(api, bob, "0.2"))
    error(transfer(api, bob, "99999"), 400)
    after = await system_totals()
    converted = await AccountLog.filter(user_id=bob.uid, log_type="convert").values_list("currency_id", "amount")
    expected = {USDT: Decimal(500), BTC: Decimal("0.5")}
    for currency_id, amount in converted:
        expected[currency_id] += amount  # the house gave USDT and took BTC
    _, usdt = paid("0.2", marks_live[BTC_USDT], settings.convert_spread)
    assert expected == {USDT: 500 + usdt, BTC: Decimal("0.3")}
    for currency_id, delta in expected.items():
        assert after[currency_id] - before.get(currency_id, Decimal(0)) == delta
    for currency_id in (set(before) | set(after)) - set(expected):
        assert after.get(currency_id, 0) == before.get(currency_id, 0), currency_id
    assert sum([balance(api, bob, USDT, t)[0] for t in (CHANGE, LEGAL, MICRO)], Decimal(0)) == 500 + usdt
    assert await AccountLog.filter(user_id=bob.uid, account_type=AccountType.LEVER).count() == 1


def test_amounts_sent_as_json_numbers_are_read_by_their_digits(
    api: httpx.Client, alice: Member, marks_live: dict[int, dict[str, Any]]
) -> None:
    ok(transfer(api, alice, 0.1))
    ok(transfer(api, alice, 0.2))
    assert balance(api, alice, USDT, LEGAL) == (Decimal("0.3"), 0)  # not 0.30000000000000004
    assert error(transfer(api, alice, 1e-7), 400) == "The amount can have at most 6 decimal places"
    assert error(transfer(api, alice, True), 400)
    ok(convert(api, alice, 0.5))
    assert balance(api, alice, BTC) == (Decimal("0.5"), 0)


@pytest.mark.parametrize("number", ["1e309", "-1e309", "1e999999999", "9" * 5000, "1.5e-400", "NaN"])
def test_absurd_json_numbers_get_a_clear_error_not_a_500(api: httpx.Client, alice: Member, number: str) -> None:
    body = f'{{"currency_id": {USDT}, "balance": {number}, "from": 1, "to": 2}}'
    answer = api.post("account/transfer", content=body, headers={**alice.auth, "content-type": "application/json"})
    assert answer.status_code == 400 and answer.json()["code"] == 0, answer.text
    assert balance(api, alice, USDT) == (Decimal(1000), 0)


async def test_a_currencys_max_amount_bounds_a_transfer(api: httpx.Client, alice: Member) -> None:
    btc = await Currency.get(code="BTC")
    original = btc.max_amount
    await Currency.filter(id=btc.id).update(max_amount=Decimal("0.5"))
    try:
        assert error(transfer(api, alice, "0.50000001", currency_id=BTC), 400) == "The amount can be at most 0.5"
        ok(transfer(api, alice, "0.5", currency_id=BTC))
    finally:
        await Currency.filter(id=btc.id).update(max_amount=original)


def test_account_detail_and_list_show_only_the_session_users_accounts(api: httpx.Client, alice: Member) -> None:
    mallory = member(api)
    mine = ok(api.get("account/detail", params={"currency_id": USDT}, headers=alice.auth))
    theirs = api.get("account/detail", params={"currency_id": USDT, "id": mine["id"], "user_id": alice.uid},
                     headers=mallory.auth)  # fmt: skip
    assert (ok(theirs)["user_id"], ok(theirs)["balance"]) == (mallory.uid, "0")
    for group in ok(api.get("account/list", params={"user_id": alice.uid}, headers=mallory.auth)):
        assert all(a["balance"] == "0" and a["user_id"] == mallory.uid for a in group["accounts"])
