"""Deposits: a stable address per chain (USDT on ERC20 and TRC20), the chain list, and operator-reported
chain transfers credited once confirmed, exactly once, and never below the minimum."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import httpx
import pytest

from config.settings import Settings
from store.models import Currency
from tests.utils.cli import exchange, exchange_ok
from tests.utils.users import error, login, member, ok
from tests.utils.wallets import BTC, USDT, balance

XRP = 5


def wallets(api: httpx.Client, token: dict[str, str], currency_id: int) -> list[dict[str, Any]]:
    return ok(api.get("wallet/wallet", params={"currency_id": currency_id}, headers=token))


def test_usdt_offers_an_erc20_and_a_trc20_address_stable_per_user(api: httpx.Client) -> None:
    alice, bob = member(api), member(api)
    first = wallets(api, alice.auth, USDT)
    assert [w["chain_protocol"]["code"] for w in first] == ["ERC20", "TRC20"]
    erc20, trc20 = first
    assert erc20["address"].startswith("0x") and len(erc20["address"]) == 42 and erc20["memo"] == ""
    assert trc20["address"].startswith("T") and len(trc20["address"]) == 34
    assert erc20["token_address"] == "0xdAC17F958D2ee523a2206206994597C13D831ec7"
    assert wallets(api, alice.auth, USDT) == first
    other_session = {"Authorization": ok(login(api, alice.account))["token"]}
    assert wallets(api, other_session, USDT) == first
    assert {w["address"] for w in wallets(api, bob.auth, USDT)}.isdisjoint({erc20["address"], trc20["address"]})
    btc = wallets(api, alice.auth, BTC)
    assert len(btc) == 1 and btc[0]["address"].startswith("bc1q")


def test_memo_chains_share_an_address_and_tell_users_apart_by_memo(api: httpx.Client) -> None:
    alice, bob = member(api), member(api)
    (a,), (b,) = wallets(api, alice.auth, XRP), wallets(api, bob.auth, XRP)
    assert a["address"] == b["address"] and a["memo"] and b["memo"] and a["memo"] != b["memo"]


@pytest.fixture
async def closed_currency(db: None) -> AsyncIterator[int]:
    """ACB with deposits closed for the test."""
    await Currency.filter(code="ACB").update(open_recharge=False)
    try:
        yield (await Currency.get(code="ACB")).id
    finally:
        await Currency.filter(code="ACB").update(open_recharge=True)


def test_wallet_refusals(api: httpx.Client, closed_currency: int) -> None:
    user = member(api)
    assert error(api.get("wallet/wallet", params={"currency_id": 999}, headers=user.auth), 404) == "Currency not found"
    assert error(api.get("wallet/wallet", headers=user.auth), 400) == "Currency is required"
    assert error(api.get("wallet/wallet", params={"currency_id": "x"}, headers=user.auth), 400)
    assert error(api.get("wallet/wallet", params={"currency_id": USDT}), 401, 999)
    assert error(api.get("wallet/deposits"), 401, 999)
    response = api.get("wallet/wallet", params={"currency_id": closed_currency}, headers=user.auth)
    assert error(response, 400) == "Deposits of this currency are closed"


def test_currency_protocols_and_the_account_list_name_every_chain(api: httpx.Client) -> None:
    chains = {c["code"]: c for c in ok(api.get("block_chain/currency_protocols"))}
    usdt = chains["USDT"]["currency_protocols"]
    assert [(p["chain_protocol"]["code"], p["token_address"][:2]) for p in usdt] == [("ERC20", "0x"), ("TRC20", "TR")]
    assert chains["XRP"]["currency_protocols"][0]["uses_memo"] == 1
    user = member(api)
    groups = {g["account_code"]: g for g in ok(api.get("account/list", headers=user.auth))}
    account = next(a for a in groups["change_account"]["accounts"] if a["currency_id"] == USDT)
    assert [p["id"] for p in account["currency"]["currency_protocols"]] == [p["id"] for p in usdt]
    assert {t["account_code"] for t in account["currency"]["account_types"]} >= {"change_account", "legal_account"}


def test_a_chain_deposit_is_credited_once_confirmed_and_only_once(api: httpx.Client, settings: Settings) -> None:
    alice, mallory = member(api), member(api)
    trc20 = wallets(api, alice.auth, USDT)[1]["address"]
    tx = f"0x{uuid.uuid4().hex}"
    out = exchange_ok(settings, "chain-deposit", trc20, "150.25", "--confirmations", "0", "--tx", tx)
    assert "confirming" in out
    assert balance(api, alice, USDT) == (0, 0)
    pending = ok(api.get("wallet/deposits", headers=alice.auth))["data"][0]
    assert (pending["amount"], pending["status"], pending["tx_hash"]) == ("150.25", 0, tx)
    assert "credited" in exchange_ok(settings, "chain-deposit", trc20, "150.25", "--tx", tx)
    assert balance(api, alice, USDT) == (Decimal("150.25"), 0)
    exchange_ok(settings, "chain-deposit", trc20, "150.25", "--tx", tx, "--confirmations", "6")  # replayed
    assert balance(api, alice, USDT) == (Decimal("150.25"), 0)
    record = ok(api.get("account_log/change", headers=alice.auth))["data"][0]
    assert (record["value"], record["notes"], record["extra_data"]["tx_hash"]) == ("150.25", "Deposit", tx)
    done = ok(api.get("wallet/deposits", params={"currency_id": USDT}, headers=alice.auth))
    assert (done["total"], done["data"][0]["status"], done["data"][0]["confirmations"]) == (1, 1, 6)
    # Nobody else sees the deposit, and the same hash cannot be reused for another transfer.
    assert ok(api.get("wallet/deposits", headers=mallory.auth))["total"] == 0
    reused = exchange(settings, "chain-deposit", trc20, "999", "--tx", tx)
    assert reused.returncode == 1 and "another address or amount" in reused.stderr
    assert balance(api, alice, USDT) == (Decimal("150.25"), 0)


def test_a_deposit_below_the_minimum_is_recorded_not_credited(api: httpx.Client, settings: Settings) -> None:
    alice = member(api)
    erc20 = wallets(api, alice.auth, USDT)[0]["address"]
    assert "below the minimum" in exchange_ok(settings, "chain-deposit", erc20, "0.5")  # USDT minimum is 1
    assert balance(api, alice, USDT) == (0, 0)
    row = ok(api.get("wallet/deposits", headers=alice.auth))["data"][0]
    assert (row["amount"], row["status"], row["status_name"]) == ("0.5", 2, "Below the minimum, not credited")


def test_memo_deposits_and_operator_mistakes(api: httpx.Client, settings: Settings) -> None:
    alice = member(api)
    (xrp,) = wallets(api, alice.auth, XRP)
    exchange_ok(settings, "chain-deposit", xrp["address"], "25", "--memo", xrp["memo"])
    assert balance(api, alice, XRP) == (Decimal(25), 0)
    for args, expected in [
        ((xrp["address"], "25"), "no deposit address"),  # memo missing
        (("0xnotours", "1"), "no deposit address"),
        ((xrp["address"], "0", "--memo", xrp["memo"]), "positive"),
        ((xrp["address"], "abc", "--memo", xrp["memo"]), "not a number"),
    ]:
        done = exchange(settings, "chain-deposit", *args)
        assert done.returncode != 0 and expected in done.stdout + done.stderr, (args, done.stdout, done.stderr)
    assert balance(api, alice, XRP) == (Decimal(25), 0)


def test_deposits_above_the_currencys_max_amount_are_refused(api: httpx.Client, settings: Settings) -> None:
    alice = member(api)
    (btc,) = wallets(api, alice.auth, BTC)
    for args in (
        ("deposit", alice.account, "BTC", "100000.00000001"),  # BTC's max_amount is 100000
        ("deposit", alice.account, "BTC", "1e999999999"),
        ("chain-deposit", btc["address"], "100001"),
        ("chain-deposit", btc["address"], "9" * 100_000),
    ):
        done = exchange(settings, *args)
        assert done.returncode == 1 and "at most 100000 BTC" in done.stderr, (args[:3], done.stdout, done.stderr)
    assert ok(api.get("wallet/deposits", headers=alice.auth))["total"] == 0
    exchange_ok(settings, "deposit", alice.account, "BTC", "100000")
    assert balance(api, alice, BTC) == (Decimal(100000), 0)
    refused = api.post("dev/credit", json={"currency": "BTC", "amount": "100000.1"}, headers=alice.auth)
    assert error(refused, 400) == "The amount can be at most 100000"
    assert balance(api, alice, BTC) == (Decimal(100000), 0)


def test_an_operator_deposit_ref_reused_for_another_amount_is_refused(api: httpx.Client, settings: Settings) -> None:
    alice = member(api)
    ref = f"bank-transfer-{uuid.uuid4().hex}"
    exchange_ok(settings, "deposit", alice.account, "USDT", "25", "--ref", ref)
    exchange_ok(settings, "deposit", alice.account, "USDT", "25", "--ref", ref)  # the same credit again: a no-op
    reused = exchange(settings, "deposit", alice.account, "USDT", "26", "--ref", ref)
    assert reused.returncode == 1 and "already used for another credit" in reused.stderr, reused.stderr
    assert balance(api, alice, USDT) == (Decimal(25), 0)
