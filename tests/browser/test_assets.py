"""The assets area in Chromium on the dev chains: a funded user transfers, copies the derived USDT
(ERC20) address from the deposit panel, sees a faucet transfer to it appear and be credited without
reloading, withdraws to an outside dev-chain address (small enough to approve itself) and sees it
sent, its txid, and completed at the final count, the lock gone (issues 5 and 28); the chains no node
follows here are suspended, said on both panels."""

from __future__ import annotations

import re
import time
from decimal import Decimal
from types import SimpleNamespace

import httpx
from playwright.sync_api import Page, expect

from tests.browser.conftest import ConsoleErrors
from tests.utils.up import Instance
from tests.utils.users import auth, end_resend_window, end_security_cooldown, member, ok, send_code

USDT = 1
DEAL_PASSWORD = "Deal12345"
ERC20_ADDRESS = "0x" + "ab" * 20


def _balances(api: httpx.Client, token: str) -> dict[str, tuple[Decimal, Decimal]]:
    """USDT (balance, lock) per account group."""
    found = {}
    for group in ok(api.get("account/list", headers=auth(token))):
        for account in group["accounts"]:
            if account["currency_id"] == USDT:
                found[group["account_code"]] = (Decimal(account["balance"]), Decimal(account["lock_balance"]))
    return found


def test_transfer_deposit_on_chain_and_withdraw_on_chain(
    page: Page, web: Instance, console_errors: ConsoleErrors
) -> None:
    with httpx.Client(base_url=f"{web.url}/api/", timeout=30) as api:
        m = member(api)
        web.cli("deposit", m.account, "USDT", "1000")
        # The deal password needs a code of its own; the sign-up code's 60 s resend window is skipped.
        end_resend_window(SimpleNamespace(redis_url=f"unix://{web.data_dir}/redis.sock"), m.account)
        code = send_code(api, m.account, 3, token=m.token)
        ok(api.post("user/amend_pay_password", headers=auth(m.token),
                    json={"password": DEAL_PASSWORD, "re_password": DEAL_PASSWORD, "auth_code": code,
                          "login_password": m.password}))  # fmt: skip
        # Withdrawals wait a day after a deal password is set; let that day pass.
        end_security_cooldown(SimpleNamespace(database_url=None, data_dir=web.data_dir), m.uid)
        before = _balances(api, m.token)
        assert before["change_account"] == (Decimal(1000), Decimal(0))

        page.goto("/home")
        page.evaluate("token => localStorage.setItem('token', token)", m.token)

        # Transfer 100 USDT from the trade (change) account to another account the currency allows.
        page.goto(f"/assets/transfer?currency_id={USDT}&from=change_account")
        form = page.get_by_test_id("transfer-form")
        expect(form.get_by_test_id("transfer-available")).to_contain_text("1000")
        target = form.get_by_test_id("transfer-to").input_value()
        assert target and target != "change_account"
        form.get_by_test_id("transfer-amount").fill("100")
        form.get_by_test_id("transfer-submit").click()
        expect(form.get_by_test_id("transfer-available")).to_contain_text("900")
        after = _balances(api, m.token)
        assert after["change_account"] == (Decimal(900), Decimal(0))
        assert after[target][0] == before[target][0] + 100

        # The deposit panel: a chain, its address and the QR code of that address.
        page.goto(f"/assets/chongzhi?currency_id={USDT}")
        panel = page.get_by_test_id("deposit-panel")
        expect(panel.get_by_test_id("deposit-address")).to_have_value(re.compile(r"^0x[0-9a-fA-F]{40}$"))
        expect(panel.get_by_test_id("deposit-qr")).to_be_visible()
        address = panel.get_by_test_id("deposit-address").input_value()
        # A real transfer on the dev chain: it shows up, then is credited, with no reload.
        tx = web.cli("chain", "faucet", address, "25", "USDT").strip().splitlines()[-1]
        deposit = page.get_by_test_id("deposits").get_by_test_id("deposit-row").first
        expect(deposit).to_contain_text(tx[:10], timeout=60_000)
        expect(deposit).to_contain_text(re.compile("Credited", re.I), timeout=60_000)
        assert _balances(api, m.token)["change_account"] == (Decimal(925), Decimal(0))
        # Withdrawals wait until the deposit has its final count (6 blocks of 2 s).
        deadline = time.monotonic() + 60
        while ok(api.get("wallet/deposits", headers=auth(m.token)))["data"][0]["confirmations"] < 6:
            assert time.monotonic() < deadline, "the deposit did not reach 6 confirmations"
            time.sleep(1)

        # No TRON node runs here: TRC20 is not offered for deposits, is marked suspended for withdrawals
        # (nothing can be sent there), and BTC, with no node either, says so instead of an address.
        assert panel.get_by_test_id("deposit-chains").count() == 0  # USDT: ERC20 only
        page.goto("/assets/chongzhi?currency_id=2")
        expect(page.get_by_test_id("deposit-refused")).to_contain_text("Deposits of BTC are suspended")
        expect(page.get_by_test_id("deposit-address")).to_have_count(0)

        # Withdraw 50 USDT on ERC20: fee and amount received show as typed, then 50 is locked.
        page.goto(f"/assets/withdral?currency_id={USDT}")
        withdraw = page.get_by_test_id("withdraw-panel")
        chains = withdraw.get_by_test_id("withdraw-chains")
        chains.get_by_text("TRC20").click()
        expect(withdraw.get_by_test_id("withdraw-suspended")).to_contain_text("Withdrawals on TRC20 are suspended")
        expect(withdraw.get_by_test_id("withdraw-submit")).to_be_disabled()
        chains.get_by_text("ERC20").click()
        withdraw.get_by_test_id("withdraw-address").fill(ERC20_ADDRESS)
        withdraw.get_by_test_id("withdraw-amount").fill("50")
        expect(withdraw.get_by_test_id("withdraw-fee")).not_to_have_text(re.compile(r"^--"))
        expect(withdraw.get_by_test_id("withdraw-receive")).to_have_text(re.compile(r"\d"))
        withdraw.get_by_test_id("withdraw-pay-password").fill(DEAL_PASSWORD)
        withdraw.get_by_test_id("withdraw-submit").click()
        expect(page.get_by_test_id("withdraw-locked")).to_contain_text("50")
        rows = page.get_by_test_id("withdrawals").get_by_test_id("withdrawal-row")
        expect(rows).to_have_count(1)
        assert _balances(api, m.token)["change_account"] == (Decimal(875), Decimal(50))

        # Under the auto-approval limit: the Signer sends it; the page shows its txid, then completed
        # at the final count (the WITHDRAWAL push reads it again), the lock gone.
        assert not [line for line in web.cli("withdrawals").splitlines() if m.account in line]  # not pending
        expect(rows.first.get_by_test_id("withdrawal-status")).to_have_text(re.compile("Completed", re.I),
                                                                            timeout=90_000)  # fmt: skip
        expect(rows.first.get_by_test_id("withdrawal-txid")).to_have_text(re.compile(r"^0x[0-9a-f]{64}$"))
        assert _balances(api, m.token)["change_account"] == (Decimal(875), Decimal(0))
        page.goto("/assets/dealRecords")
        expect(page.get_by_test_id("record-row").first).to_be_visible()
    refused_btc = "status of 400 (Bad Request) (" + f"{web.url}/api/wallet/wallet?currency_id=2)"
    assert [e for e in console_errors if not e.endswith(refused_btc)] == []  # only BTC's refusal logs its 400
