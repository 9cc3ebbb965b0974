"""Withdrawals: the deal password, limits and fee, the lock through the wallet shard, the operator's
approve and reject, the state in records; binding withdrawal addresses; and conservation end to end."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import httpx
import pytest

from config.settings import Settings
from store import withdrawals
from store.chain.watch import Watcher
from store.chain_rpc.devnet.clients import DevEvmNode
from store.models import AccountLog, Currency, Withdrawal
from tests.utils.chains import Deposit
from tests.utils.cli import exchange, exchange_ok
from tests.utils.sales import get, post
from tests.utils.users import Member, end_security_cooldown, error, fresh_code, member, ok
from tests.utils.wallets import BTC, ETH, USDT, balance, fund, system_totals

TRON = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"
BTC_ADDR = "bcrt1q3yjelee5s4f8mcp8m5eenjrj5wt0x47xadm7tk"  # the regtest encoding tests and development run on
ETH_ADDR = "0x52908400098527886E0F7030069857D2E4169EE7"
DEAL = "Deal1234"
XRP = 5
ETH_USDT = 2


def set_deal_password(api: httpx.Client, settings: Settings, user: Member) -> None:
    """Set the deal password, then let the withdrawal cool-off after it pass (its own tests are in
    tests/api/test_security_changes.py)."""
    code = fresh_code(api, settings, user.account, 3, token=user.token)
    body = {"password": DEAL, "auth_code": code, "login_password": user.password}
    ok(api.post("user/amend_pay_password", json=body, headers=user.auth))
    end_security_cooldown(settings, user.uid)


def draw(api: httpx.Client, user: Member, number: Any = "100", **change: Any) -> httpx.Response:
    body = {"currency_id": USDT, "number": number, "address": TRON, "pay_password": DEAL, "memo": "",
            "currency_protocol_id": 2, **change}  # fmt: skip
    return api.post("account/draw", json=body, headers=user.auth)


@pytest.fixture
async def alice(api: httpx.Client, settings: Settings, db: None) -> Member:
    user = member(api)
    await fund(user, "USDT", "1000")
    set_deal_password(api, settings, user)
    return user


def request_id(out: str, withdrawal_id: int) -> bool:
    return any(line.split("\t")[0] == str(withdrawal_id) for line in out.splitlines())


def test_alice_withdraws_and_the_operator_approves(api: httpx.Client, settings: Settings, alice: Member) -> None:
    response = draw(api, alice, "100")
    data = ok(response)
    assert response.json()["msg"] == "Withdrawal requested"
    assert (data["number"], data["fee"], data["real_number"], data["status"]) == ("100", "1", "99", 1)
    assert (data["status_name"], data["chain_protocol"]["code"], data["address"]) == ("Under review", "TRC20", TRON)
    assert balance(api, alice, USDT) == (Decimal(900), Decimal(100))
    listed = ok(api.get("account/withdrawals", headers=alice.auth))
    assert listed["total"] == 1 and listed["data"][0]["id"] == data["id"]
    record = ok(api.get("account_log/change", headers=alice.auth))["data"][0]
    assert (record["value"], record["lock_value"], record["notes"]) == ("-100", "100", "Withdrawal requested")

    assert request_id(exchange_ok(settings, "withdrawals"), data["id"])
    assert "approved: the Signer sends 99" in exchange_ok(settings, "withdrawal", "approve", str(data["id"]))
    # Approved: still locked until its transaction is final on the chain (tests/chain/test_sends.py
    # follows it there); no TRC20 node runs here, so no transaction yet.
    assert balance(api, alice, USDT) == (Decimal(900), Decimal(100))
    state = ok(api.get("account/withdrawals", headers=alice.auth))["data"][0]
    assert (state["status"], state["status_name"], state["txid"]) == (4, "Sending", "")
    # Approving again changes nothing; rejecting an approved request is refused.
    exchange_ok(settings, "withdrawal", "approve", str(data["id"]))
    late = exchange(settings, "withdrawal", "reject", str(data["id"]))
    assert late.returncode == 1 and "already been decided" in late.stderr
    assert balance(api, alice, USDT) == (Decimal(900), Decimal(100))
    assert not request_id(exchange_ok(settings, "withdrawals"), data["id"])
    assert request_id(exchange_ok(settings, "withdrawals", "--status", "approved"), data["id"])


def test_a_rejected_withdrawal_returns_the_funds(api: httpx.Client, settings: Settings, alice: Member) -> None:
    data = ok(draw(api, alice, "10.5"))
    assert data["fee"] == "0.105"
    assert "rejected: returned 10.5" in exchange_ok(settings, "withdrawal", "reject", str(data["id"]))
    assert balance(api, alice, USDT) == (Decimal(1000), 0)
    state = ok(api.get("account/withdrawals", params={"currency_id": USDT}, headers=alice.auth))["data"][0]
    assert (state["status"], state["status_name"]) == (3, "Rejected")
    assert ok(api.get("account_log/change", headers=alice.auth))["data"][0]["notes"] == (
        "Withdrawal rejected, funds returned"
    )
    late = exchange(settings, "withdrawal", "approve", str(data["id"]))
    assert late.returncode == 1 and "already been decided" in late.stderr
    assert exchange(settings, "withdrawal", "approve", "99999999").returncode == 1
    assert balance(api, alice, USDT) == (Decimal(1000), 0)


@pytest.mark.parametrize(
    ("change", "status", "message"),
    [
        ({"address": "", "number": "", "pay_password": ""}, 400, "Please enter the withdrawal address"),
        ({"number": "", "pay_password": ""}, 400, "Please enter the withdrawal amount"),
        ({"pay_password": ""}, 400, "Please enter the trade password"),
        ({"number": "abc"}, 400, "Please enter the withdrawal amount"),
        ({"number": "-1"}, 400, "Please enter the withdrawal amount"),
        ({"number": "9.99"}, 400, "The minimum withdrawal is 10"),
        ({"number": "100000.01"}, 400, "The maximum withdrawal is 100000"),
        ({"number": "10.0000001"}, 400, "The amount can have at most 6 decimal places"),
        ({"number": "1e999999999"}, 400, "The amount can be at most 1000000000"),
        ({"number": "9" * 100_000}, 400, "Please enter the withdrawal amount"),
        ({"number": "Infinity"}, 400, "Please enter the withdrawal amount"),
        ({"number": "1000.01"}, 400, "Insufficient balance"),
        ({"address": ETH_ADDR}, 400, "Please enter a valid address for this chain"),
        ({"address": "T" + "0" * 33}, 400, "Please enter a valid address for this chain"),
        ({"currency_protocol_id": None}, 400, "Please choose a chain this currency supports"),
        ({"currency_protocol_id": 3}, 400, "Please choose a chain this currency supports"),
        ({"pay_password": "Wrong999"}, 400, "The trade password is incorrect"),
        ({"currency_id": 999}, 404, "Currency not found"),
        ({"currency_id": 0}, 400, None),
        ({"memo": "bad;memo"}, 400, "Please enter a valid address for this chain"),
    ],
)
def test_withdraw_rules(
    api: httpx.Client, alice: Member, change: dict[str, Any], status: int, message: str | None
) -> None:
    refused = error(draw(api, alice, **change), status)
    assert message is None or refused == message
    assert balance(api, alice, USDT) == (Decimal(1000), 0)
    assert ok(api.get("account/withdrawals", headers=alice.auth))["total"] == 0


@pytest.fixture
async def xrp_withdrawals_open(db: None) -> AsyncIterator[None]:
    """XRP (a memo chain) open for withdrawals for the test; it has no adapter yet, so it is closed."""
    await Currency.filter(id=XRP).update(open_draw=True)
    try:
        yield
    finally:
        await Currency.filter(id=XRP).update(open_draw=False)


def test_withdraw_on_erc20_and_a_closed_chain(api: httpx.Client, alice: Member) -> None:
    ok(draw(api, alice, "20", address=ETH_ADDR, currency_protocol_id=1))
    assert balance(api, alice, USDT) == (Decimal(980), Decimal(20))
    xrp = {"currency_id": XRP, "number": "30", "address": "rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY", "pay_password": DEAL}
    assert (
        error(api.post("account/draw", json=xrp, headers=alice.auth), 400) == "Withdrawals of this currency are closed"
    )


def test_a_memo_chain_withdrawal_needs_the_memo(api: httpx.Client, alice: Member, xrp_withdrawals_open: None) -> None:
    memo_less = {"currency_id": XRP, "number": "30", "address": "rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY",
                 "pay_password": DEAL}  # fmt: skip
    assert error(api.post("account/draw", json=memo_less, headers=alice.auth), 400) == "Please enter the memo"
    # With its memo it is still refused: no adapter can send on XRP, whatever the console opened.
    with_memo = {**memo_less, "memo": "10000001"}
    assert (
        error(api.post("account/draw", json=with_memo, headers=alice.auth), 400)
        == "Withdrawals of this currency are closed"
    )
    assert balance(api, alice, XRP) == (Decimal(0), Decimal(0))


async def test_withdraw_needs_a_deal_password_and_an_open_currency(api: httpx.Client, db: None) -> None:
    bob = member(api)
    await fund(bob, "USDT", "100")
    await fund(bob, "ACB", "100")
    assert error(draw(api, bob, "10"), 400) == "Please set a deal password first"
    acb = await Currency.get(code="ACB")
    assert error(draw(api, bob, "10", currency_id=acb.id, address=ETH_ADDR), 400) == (
        "Withdrawals of this currency are closed"
    )


def test_withdraw_needs_login(api: httpx.Client) -> None:
    assert error(api.post("account/draw", json={"currency_id": USDT}), 401, 999)
    assert error(api.get("account/withdrawals"), 401, 999)


def test_wrong_deal_passwords_are_throttled(api: httpx.Client, settings: Settings, alice: Member) -> None:
    for _ in range(settings.login_max_failures):
        assert error(draw(api, alice, pay_password="Wrong999"), 400) == "The trade password is incorrect"
    assert "Too many failed attempts" in error(draw(api, alice), 429)
    assert balance(api, alice, USDT) == (Decimal(1000), 0)


def test_nobody_sees_or_decides_another_users_withdrawals(api: httpx.Client, alice: Member) -> None:
    mallory = member(api)
    mine = ok(draw(api, alice, "50"))
    assert ok(api.get("account/withdrawals", params={"user_id": alice.uid}, headers=mallory.auth))["total"] == 0
    assert ok(api.get("account_log/change", headers=mallory.auth))["total"] == 0
    # There is no user route to decide a request; a draw always spends the session user's own funds.
    assert error(draw(api, mallory, "50", user_id=alice.uid), 400) == "Please set a deal password first"
    assert error(api.post("account/withdrawals", json={"id": mine["id"]}, headers=mallory.auth), 405)
    assert balance(api, alice, USDT) == (Decimal(950), Decimal(50))


# --- user/addr ---------------------------------------------------------------------------------------


def bind(api: httpx.Client, user: Member, currency_id: int, addr: str, vtype: int | None = None) -> httpx.Response:
    body: dict[str, Any] = {"type": currency_id, "addr": addr}
    if vtype is not None:
        body["vtype"] = vtype
    return api.post("user/addr", json=body, headers=user.auth)


def test_bind_withdrawal_addresses_with_the_vtype_rule(api: httpx.Client) -> None:
    user, other = member(api), member(api)
    trc = ok(bind(api, user, USDT, TRON, 0))
    assert (trc["chain_protocol"]["code"], trc["address"]) == ("TRC20", TRON)
    erc = ok(bind(api, user, USDT, ETH_ADDR, 1))
    assert erc["chain_protocol"]["code"] == "ERC20"
    assert ok(bind(api, user, USDT, TRON, 0))["id"] == trc["id"]  # binding again is a no-op
    btc = ok(bind(api, user, BTC, BTC_ADDR))
    assert btc["chain_protocol"]["code"] == "BTC"
    assert [a["id"] for a in ok(api.get("user/addr", headers=user.auth))] == [btc["id"], erc["id"], trc["id"]]
    assert [a["id"] for a in ok(api.get("user/addr", params={"currency_id": BTC}, headers=user.auth))] == [btc["id"]]
    assert ok(api.get("user/addr", headers=other.auth)) == []


@pytest.mark.parametrize(
    ("currency_id", "addr", "vtype", "status", "message"),
    [
        (USDT, "", 0, 400, "Please enter the address"),
        (USDT, "   ", 0, 400, "Please enter the address"),
        (USDT, ETH_ADDR, 0, 400, "Please enter a valid address for this chain"),  # vtype 0 is TRC20
        (USDT, TRON, 1, 400, "Please enter a valid address for this chain"),
        (BTC, BTC_ADDR, 1, 400, "Please choose a chain this currency supports"),
        # Mainnet's encoding on a regtest exchange (tests, development): coins sent there would be lost.
        (BTC, "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", 0, 400, "Please enter a valid address for this chain"),
        (USDT, "T" + "a" * 33, 0, 400, "Please enter a valid address for this chain"),  # TRON's shape, no checksum
        (USDT, TRON, 2, 400, "Verification method is invalid"),
        (999, TRON, 0, 404, "Currency not found"),
        (BTC, "short", 0, 400, "Please enter a valid address for this chain"),
    ],
)
def test_bind_address_rules(
    api: httpx.Client, currency_id: int, addr: str, vtype: int, status: int, message: str
) -> None:
    user = member(api)
    assert error(bind(api, user, currency_id, addr, vtype), status) == message
    assert ok(api.get("user/addr", headers=user.auth)) == []


def test_bind_address_needs_login(api: httpx.Client) -> None:
    assert error(api.post("user/addr", json={"type": USDT, "addr": TRON}), 401, 999)
    assert error(api.get("user/addr"), 401, 999)


# --- conservation ------------------------------------------------------------------------------------


async def carol_deposits_transfers_converts_and_withdraws(
    api: httpx.Client, settings: Settings, deposit_evm: Deposit
) -> tuple[Member, dict[str, Any], Decimal]:
    """Carol's day; answers her, her approved withdrawal and the USDT her conversion paid (at the live
    mark less the spread)."""
    carol = member(api)
    set_deal_password(api, settings, carol)
    erc20 = ok(get(api, "wallet/wallet", params={"currency_id": USDT}, headers=carol.auth))[0]["address"]
    (eth_wallet,) = ok(get(api, "wallet/wallet", params={"currency_id": ETH}, headers=carol.auth))
    assert eth_wallet["address"] == erc20  # one EVM address for both
    # With six confirmations: a deposit with fewer holds back every withdrawal (see the test below).
    await deposit_evm(erc20, "700", "USDT", blocks=6)
    await deposit_evm(erc20, "0.1", "ETH", blocks=6)
    await deposit_evm(erc20, "0.5", "USDT", blocks=6)  # below the minimum: not credited
    ok(post(api, "account/transfer", json={"currency_id": USDT, "balance": "200", "from": 1, "to": 2},
            headers=carol.auth))  # fmt: skip
    ok(post(api, "account/transfer", json={"currency_id": USDT, "balance": "50", "from": 2, "to": 1},
            headers=carol.auth))  # fmt: skip
    converted = ok(post(api, "account/convert", json={"currency_id": ETH, "number": "0.05"}, headers=carol.auth))
    approved = ok(draw(api, carol, "100"))
    rejected = ok(draw(api, carol, "40"))
    exchange_ok(settings, "withdrawal", "approve", str(approved["id"]))
    exchange_ok(settings, "withdrawal", "reject", str(rejected["id"]))
    return carol, approved, Decimal(converted["usdt"])


async def test_conservation_across_deposit_transfer_convert_withdraw_and_reject(
    api: httpx.Client, settings: Settings, db: None, deposit_evm: Deposit
) -> None:
    before = await system_totals()
    carol, approved, paid = await carol_deposits_transfers_converts_and_withdraws(api, settings, deposit_evm)
    # Its transaction final on the chain (what the Signer does there: tests/chain/test_sends.py).
    assert await withdrawals.complete(await Withdrawal.get(id=approved["id"]), txid=f"tx-{approved['id']}")
    after = await system_totals()
    converted = dict(
        await AccountLog.filter(user_id=carol.uid, log_type="convert").values_list("currency_id", "amount")
    )
    assert paid > 0 and converted == {USDT: paid, ETH: Decimal("-0.05")}
    # in: deposits; out: the approved withdrawal (its fee included); the house: the conversion legs
    expected = {USDT: Decimal(700) + paid - Decimal(100), ETH: Decimal("0.1") - Decimal("0.05")}
    for currency_id, delta in expected.items():
        assert after[currency_id] - before.get(currency_id, Decimal(0)) == delta, currency_id
    for currency_id in (set(before) | set(after)) - set(expected):
        assert after.get(currency_id, 0) == before.get(currency_id, 0), currency_id
    assert balance(api, carol, USDT) == (Decimal(450) + paid, 0)
    assert balance(api, carol, USDT, 2) == (Decimal(150), 0)


async def test_deposits_need_six_confirmations_before_they_can_be_withdrawn(
    api: httpx.Client, settings: Settings, evm: DevEvmNode, evm_watcher: Watcher, deposit_evm: Deposit
) -> None:
    dave = member(api)
    set_deal_password(api, settings, dave)
    erc20 = ok(get(api, "wallet/wallet", params={"currency_id": USDT}, headers=dave.auth))[0]["address"]
    await deposit_evm(erc20, "200", "USDT")  # credited at 1 confirmation
    assert balance(api, dave, USDT) == (Decimal(200), 0)
    message = error(draw(api, dave, "150"), 400)
    assert message == "Withdrawals open once your USDT deposit of 200 has 6 confirmations"
    ok(post(api, "account/transfer", json={"currency_id": USDT, "balance": "150", "from": 1, "to": 2},
            headers=dave.auth))  # fmt: skip
    assert error(draw(api, dave, "60"), 400) == "Insufficient balance"  # the balance check comes first
    await evm.mine(5)
    await evm_watcher.catch_up()
    ok(draw(api, dave, "50"))
    assert balance(api, dave, USDT) == (0, Decimal(50))


@pytest.fixture
async def bidder(api: httpx.Client, db: None) -> Member:
    user = member(api)
    await fund(user, "USDT", "100000")
    return user


async def test_a_fresh_deposit_of_any_currency_holds_back_every_withdrawal(
    api: httpx.Client,
    settings: Settings,
    bidder: Member,
    evm: DevEvmNode,
    evm_watcher: Watcher,
    deposit_evm: Deposit,
) -> None:
    """Credited ETH can be sold at once; the USDT it fetched cannot leave before the ETH deposit has
    its six confirmations."""
    erin, bob = member(api), bidder
    set_deal_password(api, settings, erin)
    (eth_wallet,) = ok(get(api, "wallet/wallet", params={"currency_id": ETH}, headers=erin.auth))
    await deposit_evm(eth_wallet["address"], "0.5", "ETH")  # credited at 1 confirmation
    order = {"currency_match_id": ETH_USDT, "number": "0.5", "price": "3000"}
    assert ok(post(api, "tx_in/add", json=order, headers=bob.auth))["status"] == 1  # bob's bid rests
    ok(post(api, "tx_out/add", json=order, headers=erin.auth))
    deadline = time.monotonic() + 15
    while balance(api, erin, USDT)[0] < 100:  # the trade settles just after the answer
        assert time.monotonic() < deadline, balance(api, erin, USDT)
        await asyncio.sleep(0.1)
    usdt = balance(api, erin, USDT)
    assert error(draw(api, erin, "100"), 400) == "Withdrawals open once your ETH deposit of 0.5 has 6 confirmations"
    assert balance(api, erin, USDT) == usdt and ok(get(api, "account/withdrawals", headers=erin.auth))["total"] == 0
    await evm.mine(5)
    await evm_watcher.catch_up()
    assert ok(draw(api, erin, "100"))["number"] == "100"
    assert balance(api, erin, USDT) == (usdt[0] - 100, Decimal(100))
