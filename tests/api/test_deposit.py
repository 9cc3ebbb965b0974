"""Deposits: a stable derived address per chain family (USDT on ERC20 and TRC20), a clear refusal on chains
with no adapter, the chain list, and operator-reported chain transfers credited once confirmed, exactly
once, and never below the minimum."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import httpx
import pytest

from config.settings import Settings
from store.chain.keys import deposit_keys
from store.models import Currency
from tests.utils.cli import exchange, exchange_ok
from tests.utils.users import error, login, member, ok
from tests.utils.wallets import BTC, USDT, balance

ETH, LTC, XRP, TRX = 3, 4, 5, 9


def wallets(api: httpx.Client, token: dict[str, str], currency_id: int) -> list[dict[str, Any]]:
    return ok(api.get("wallet/wallet", params={"currency_id": currency_id}, headers=token))


def test_usdt_offers_an_erc20_and_a_trc20_address_stable_per_user(api: httpx.Client, settings: Settings) -> None:
    alice, bob = member(api), member(api)
    first = wallets(api, alice.auth, USDT)
    assert [w["chain_protocol"]["code"] for w in first] == ["ERC20", "TRC20"]
    erc20, trc20 = first
    # Derived from the test keys' xpubs (store/chain/keys.py), checksummed, at alice's stored index.
    evm, tron = deposit_keys(settings).account("EVM"), deposit_keys(settings).account("TRON")
    assert erc20["address"] in {evm.address(i) for i in range(200)} and erc20["memo"] == ""
    assert erc20["address"] != erc20["address"].lower()  # EIP-55 mixed case
    assert trc20["address"] in {tron.address(i) for i in range(200)}
    assert erc20["token_address"] == "0xdAC17F958D2ee523a2206206994597C13D831ec7"
    assert wallets(api, alice.auth, USDT) == first
    other_session = {"Authorization": ok(login(api, alice.account))["token"]}
    assert wallets(api, other_session, USDT) == first
    assert {w["address"] for w in wallets(api, bob.auth, USDT)}.isdisjoint({erc20["address"], trc20["address"]})
    # ETH moves on the same chain as USDT on ERC20: the same address; TRX likewise on TRON.
    assert [w["address"] for w in wallets(api, alice.auth, ETH)] == [erc20["address"]]
    assert [w["address"] for w in wallets(api, alice.auth, TRX)] == [trc20["address"]]
    btc = wallets(api, alice.auth, BTC)
    assert len(btc) == 1 and btc[0]["address"].startswith("bcrt1q")  # regtest outside production
    (ltc,) = wallets(api, alice.auth, LTC)
    assert ltc["address"].startswith("rltc1q")  # what litecoind -regtest accepts


@pytest.mark.parametrize(("code", "currency_id"), [("XRP", XRP), ("EOS", 6), ("ADA", 11), ("DOT", 12), ("FIL", 14)])
def test_chains_without_an_adapter_get_a_clear_refusal_not_an_address(
    api: httpx.Client, code: str, currency_id: int
) -> None:
    user = member(api)
    refused = api.get("wallet/wallet", params={"currency_id": currency_id}, headers=user.auth)
    assert error(refused, 400) == f"Deposits of {code} are not supported yet: its chain cannot be received here"
    french = api.get("wallet/wallet", params={"currency_id": currency_id}, headers={**user.auth, "lang": "fr"})
    assert (
        error(french, 400)
        == f"Les dépôts de {code} ne sont pas encore pris en charge : sa blockchain ne peut pas être reçue ici"
    )
    listed = {c["code"]: c for c in ok(api.get("block_chain/currency_protocols"))}[code]
    assert (listed["open_recharge"], listed["open_draw"]) == (0, 0)


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


def test_operator_mistakes_and_an_address_shared_by_two_currencies(api: httpx.Client, settings: Settings) -> None:
    alice = member(api)
    trc20 = wallets(api, alice.auth, USDT)[1]["address"]
    exchange_ok(settings, "chain-deposit", trc20, "25")
    assert balance(api, alice, USDT) == (Decimal(25), 0)
    for args, expected in [
        ((trc20, "25", "--memo", "10000001"), "no deposit address"),  # no memo on TRON
        (("0xnotours", "1"), "no deposit address"),
        ((trc20, "1", "--currency", "BTC"), "no deposit address"),
        ((trc20, "0"), "positive"),
        ((trc20, "abc"), "not a number"),
    ]:
        done = exchange(settings, "chain-deposit", *args)
        assert done.returncode != 0 and expected in done.stdout + done.stderr, (args, done.stdout, done.stderr)
    # Once alice also has her TRX address (the same TRON address), a transfer must say which coin came.
    assert [w["address"] for w in wallets(api, alice.auth, TRX)] == [trc20]
    ambiguous = exchange(settings, "chain-deposit", trc20, "30")
    assert ambiguous.returncode == 1 and "receives TRX, USDT" in ambiguous.stderr, ambiguous.stderr
    exchange_ok(settings, "chain-deposit", trc20, "30", "--currency", "trx")
    assert balance(api, alice, TRX) == (Decimal(30), 0)
    assert balance(api, alice, USDT) == (Decimal(25), 0)


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
