"""The Signer actor on the session's stack, killed again and again while it sends (chaos): approved
withdrawals reach their outside addresses exactly once each, the hot wallet spends one nonce per
withdrawal, each withdrawal has one transaction, every lock leaves at the final count, and `exchange
chain status` and the console's Chain page show the hot wallet and what is still unconfirmed."""

from __future__ import annotations

import asyncio
import time
import uuid
from decimal import Decimal
from typing import Any

import httpx
import ray
from eth_account import Account

from actors.chain.signer import Signer
from actors.names import SIGNER_NAME
from serve.stack import Stack
from store import ledger, users, withdrawals
from store.chain.custody import TEST_MNEMONIC, MnemonicKeySource
from store.chain.evm_signing import address_of, hot_path
from store.chain_rpc.devnet import faucet
from store.chain_rpc.devnet.clients import DevEvmNode
from store.models import Account as LedgerAccount
from store.models import AccountType, ChainSend, Currency, CurrencyProtocol, Withdrawal, WithdrawalStatus
from tests.api.test_admin import make_operator, token_of
from tests.utils.cli import exchange_ok
from tests.utils.users import ok

FINAL = 3


async def _approved_usdt(amount: str, to: str) -> int:
    user = await users.create_user(kind="email", account=f"signer-{uuid.uuid4().hex[:12]}@example.com",
                                   password_hash="x", area=None, parent=None)  # fmt: skip
    usdt = await Currency.get(code="USDT")
    await ledger.credit(user_id=user.id, currency=usdt, account_type=AccountType.CHANGE, amount=Decimal(amount),
                        log_type="deposit", ref=f"signer-fund-{user.id}")  # fmt: skip
    protocol = await CurrencyProtocol.get(currency_id=usdt.id, chain_protocol="ERC20")
    wid = await withdrawals.request(uid=user.id, currency_id=usdt.id, protocol_id=protocol.id, address=to, memo="",
                                    amount=Decimal(amount), fee=Decimal("0.5"), ref=f"signer-{uuid.uuid4().hex}",
                                    confirmations=1)  # fmt: skip
    await withdrawals.decide(wid, approve=True)
    return wid


async def test_a_signer_killed_while_it_sends_pays_each_withdrawal_once(
    api: httpx.Client, stack: Stack, evm: DevEvmNode, evm_chain: dict[str, Any], db: None
) -> None:
    token = evm_chain["tokens"]["USDT"]["address"]
    hot = address_of(MnemonicKeySource(TEST_MNEMONIC), hot_path())
    await faucet.send_evm(evm_chain, to=hot, amount=Decimal(1), currency="ETH")
    await faucet.send_evm(evm_chain, to=hot, amount=Decimal(1000), currency="USDT")
    await evm.mine()
    nonce_before = await evm.nonce(hot)
    last_send = await ChainSend.all().order_by("-id").first()
    outside = [Account.create().address for _ in range(4)]
    ids = [await _approved_usdt(str(10 + n), to) for n, to in enumerate(outside)]

    settings = stack.settings.model_copy(update={
        "evm_rpc_url": evm_chain["url"], "erc20_contracts": {"USDT": token}, "chain_poll_seconds": 0.1,
        "withdraw_confirmations": FINAL,
    })  # fmt: skip
    signer = Signer.options(name=SIGNER_NAME).remote(settings.model_dump(mode="json"))
    stack.actors[SIGNER_NAME] = signer
    try:
        deadline = time.monotonic() + 90
        kills = 0
        while await Withdrawal.filter(id__in=ids, status=WithdrawalStatus.COMPLETED).count() < len(ids):
            assert time.monotonic() < deadline, "the withdrawals were not all completed"
            if kills < 6:  # killed mid-way, six times: Ray starts it again from the stored sends
                await asyncio.sleep(0.15 * (kills % 3))
                ray.kill(signer, no_restart=False)
                kills += 1
            await evm.mine()
            await asyncio.sleep(0.3)
        out = await asyncio.to_thread(exchange_ok, stack.settings, "chain", "status")
        assert "ERC20 hot wallet:" in out and "approved, not yet signed:" in out, out
        assert f"({hot})" in out, out  # where an operator funds it
        # The console's Chain page reads the same from the actor (finance).
        op, secret = await make_operator("finance")
        auth = await asyncio.to_thread(token_of, api, op, secret)
        page = ok(await asyncio.to_thread(api.get, "admin/chain", headers=auth))
        (side,) = page["signer"]
        held = Decimal(await evm.token_balance(token, hot)).scaleb(-6)
        assert (side["chain"], Decimal(side["hot_wallet"]["USDT"]), side["hot_account"]) == ("ERC20", held, hot)
        assert not [s for s in side["unconfirmed_withdrawals"] if s["withdrawal_id"] in ids]

        ray.kill(signer, no_restart=True)  # stopped: nothing is sent while the chain is counted
        for to, n in zip(outside, range(4), strict=True):
            assert await evm.token_balance(token, to) == (10 + n) * 1_000_000 - 500_000  # amount - fee, once
        # Every transaction the hot wallet sent meanwhile is one stored send that a node took (the Signer
        # also sends what other tests left approved): nothing unstored, nothing twice.
        since = await ChainSend.filter(id__gt=last_send.id if last_send else 0, chain="ERC20").values_list(
            "txid", flat=True
        )
        known = [txid for txid in since if await evm.transaction(txid) is not None]
        assert await evm.nonce(hot) - nonce_before == len(known)
        assert await ChainSend.filter(withdrawal_id__in=ids).count() == len(ids)  # one each for these four
        for wid in ids:
            row = await Withdrawal.get(id=wid)
            uid, currency_id = row.user_id, row.currency_id  # type: ignore[attr-defined]
            account = await LedgerAccount.get(user_id=uid, currency_id=currency_id, account_type=AccountType.CHANGE)
            assert account.lock_balance == 0 and account.balance == 0  # the lock left, nothing came back
    finally:
        ray.kill(signer, no_restart=True)
        stack.actors.pop(SIGNER_NAME, None)
