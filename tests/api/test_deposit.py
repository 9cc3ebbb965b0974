"""Deposits: a stable derived address per chain family (USDT on ERC20 and TRC20), a clear refusal on chains
with no adapter, the chain list, and real transfers on the dev EVM chain, found by its watcher, credited
once confirmed, exactly once, never below the minimum nor above the maximum."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import httpx
import pytest
from eth_account import Account

from config.settings import Settings
from store import deposits
from store.chain.keys import deposit_keys
from store.chain.watch import Watcher
from store.chain_rpc.devnet.clients import DevEvmNode
from store.models import ChainBlock, ChainDeposit, Currency
from tests.utils.chains import Deposit
from tests.utils.cli import exchange, exchange_ok
from tests.utils.sales import get, post
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
    # The withdrawal fee and bounds are public (the fee page), the same figures account/list gives a member.
    draw = ("draw_rate", "draw_min", "draw_max")
    assert tuple(chains["USDT"][k] for k in draw) == ("0.01", "10", "100000")
    user = member(api)
    groups = {g["account_code"]: g for g in ok(api.get("account/list", headers=user.auth))}
    account = next(a for a in groups["change_account"]["accounts"] if a["currency_id"] == USDT)
    assert [p["id"] for p in account["currency"]["currency_protocols"]] == [p["id"] for p in usdt]
    assert {k: account["currency"][k] for k in draw} == {k: chains["USDT"][k] for k in draw}
    assert {t["account_code"] for t in account["currency"]["account_types"]} >= {"change_account", "legal_account"}


async def test_a_chain_deposit_is_credited_once_confirmed_and_only_once(
    api: httpx.Client,
    settings: Settings,
    evm: DevEvmNode,
    evm_watcher: Watcher,
    deposit_evm: Deposit,
    confirmations_of: Any,
) -> None:
    await confirmations_of("USDT", 2)  # so the deposit is seen confirming before its credit
    alice, mallory = member(api), member(api)
    erc20 = wallets(api, alice.auth, USDT)[0]["address"]
    tx = await deposit_evm(erc20, "150.25", "USDT")  # mined: one confirmation
    assert balance(api, alice, USDT) == (0, 0)
    pending = ok(get(api, "wallet/deposits", headers=alice.auth))["data"][0]
    assert (pending["amount"], pending["status"], pending["tx_hash"]) == ("150.25", 0, tx)
    await evm.mine()
    await evm_watcher.catch_up()
    assert balance(api, alice, USDT) == (Decimal("150.25"), 0)
    await evm.mine(4)
    await ChainBlock.filter(chain="ERC20", height__gte=await _height(tx)).delete()
    await evm_watcher.catch_up()  # scanned again from the deposit's block: replayed, not credited twice
    assert balance(api, alice, USDT) == (Decimal("150.25"), 0)
    record = ok(get(api, "account_log/change", headers=alice.auth))["data"][0]
    assert (record["value"], record["notes"], record["extra_data"]["tx_hash"]) == ("150.25", "Deposit", tx)
    done = ok(get(api, "wallet/deposits", params={"currency_id": USDT}, headers=alice.auth))
    assert (done["total"], done["data"][0]["status"], done["data"][0]["confirmations"]) == (1, 1, 6)
    # Nobody else sees the deposit, and the same transfer cannot be recorded for another amount.
    assert ok(get(api, "wallet/deposits", headers=mallory.auth))["total"] == 0
    row = await _deposit(tx)
    reused = deposits.Transfer("ERC20", tx, row.output_index, row.address, Decimal(999), "USDT")
    with pytest.raises(ValueError, match="another address or amount"):
        await deposits.report(reused, 6)
    assert balance(api, alice, USDT) == (Decimal("150.25"), 0)


async def _deposit(tx: str) -> ChainDeposit:
    return await ChainDeposit.get(tx_hash=tx)


async def _height(tx: str) -> int:
    """The height of the block the deposit was mined in."""
    height = (await _deposit(tx)).block_height
    assert height is not None
    return height


async def test_a_deposit_below_the_minimum_is_recorded_not_credited(api: httpx.Client, deposit_evm: Deposit) -> None:
    alice = member(api)
    erc20 = wallets(api, alice.auth, USDT)[0]["address"]
    await deposit_evm(erc20, "0.5", "USDT")  # USDT minimum is 1
    assert balance(api, alice, USDT) == (0, 0)
    row = ok(get(api, "wallet/deposits", headers=alice.auth))["data"][0]
    assert (row["amount"], row["status"], row["status_name"]) == ("0.5", 2, "Below the minimum, not credited")


async def test_transfers_that_are_no_deposit_and_an_address_shared_by_two_currencies(
    api: httpx.Client, evm: DevEvmNode, deposit_evm: Deposit
) -> None:
    alice = member(api)
    erc20 = wallets(api, alice.auth, USDT)[0]["address"]
    await deposit_evm(erc20, "25", "USDT")
    assert balance(api, alice, USDT) == (Decimal(25), 0)
    stranger = Account.create().address  # no deposit address: the chain moves it, nobody is credited
    before = await ChainDeposit.all().count()
    await deposit_evm(stranger, "30", "USDT")
    assert await ChainDeposit.all().count() == before
    for transfer, expected in [
        (deposits.Transfer("ERC20", "0x01", 0, erc20, Decimal(1), "USDT", memo="10000001"), "no deposit address"),
        (deposits.Transfer("ERC20", "0x02", 0, "0xnotours", Decimal(1), "USDT"), "no deposit address"),
        (deposits.Transfer("ERC20", "0x03", 0, erc20, Decimal(1), "BTC"), "no deposit address"),
    ]:
        with pytest.raises(LookupError, match=expected):
            await deposits.report(transfer, 1)
    # Once alice also has her ETH address (the same EVM address), the chain says which coin came: the
    # token's contract, or the transaction's own value.
    assert [w["address"] for w in wallets(api, alice.auth, ETH)] == [erc20]
    with pytest.raises(ValueError, match="receives ETH, USDT"):
        await deposits.report(deposits.Transfer("ERC20", "0x04", 0, erc20, Decimal(1)), 1)
    await deposit_evm(erc20, "0.3", "ETH")
    assert balance(api, alice, ETH) == (Decimal("0.3"), 0)
    assert balance(api, alice, USDT) == (Decimal(25), 0)


@pytest.fixture
async def usdt_max_amount(db: None) -> AsyncIterator[Decimal]:
    """USDT's max_amount lowered to 100 for the test (the dev chain's faucet holds less than the real one)."""
    before = (await Currency.get(code="USDT")).max_amount
    await Currency.filter(code="USDT").update(max_amount=Decimal(100))
    try:
        yield Decimal(100)
    finally:
        await Currency.filter(code="USDT").update(max_amount=before)


async def test_deposits_above_the_currencys_max_amount_are_refused(
    api: httpx.Client, settings: Settings, deposit_evm: Deposit, usdt_max_amount: Decimal
) -> None:
    alice = member(api)
    for args in (
        ("deposit", alice.account, "BTC", "100000.00000001"),  # BTC's max_amount is 100000
        ("deposit", alice.account, "BTC", "1e999999999"),
    ):
        done = exchange(settings, *args)
        assert done.returncode == 1 and "at most 100000 BTC" in done.stderr, (args[:3], done.stdout, done.stderr)
    # A chain cannot be refused: a transfer above the most one movement may carry is held, not credited.
    erc20 = wallets(api, alice.auth, USDT)[0]["address"]
    await deposit_evm(erc20, "100.000001", "USDT")
    held = ok(get(api, "wallet/deposits", headers=alice.auth))["data"]
    assert [(d["amount"], d["status"], d["status_name"]) for d in held] == [
        ("100.000001", 4, "Above the maximum, held for review")
    ]
    assert balance(api, alice, USDT) == (0, 0)
    exchange_ok(settings, "deposit", alice.account, "BTC", "100000")
    assert balance(api, alice, BTC) == (Decimal(100000), 0)
    refused = post(api, "dev/credit", json={"currency": "BTC", "amount": "100000.1"}, headers=alice.auth)
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
