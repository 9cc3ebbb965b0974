"""Approved withdrawals sent on the real dev chains (store/chain/sends.py, store/chain/senders.py): the
bytes are stored before any broadcast, the user's address receives the amount minus the fee exactly
once, the lock leaves only at the final confirmation count, a Signer restarted between storing and
broadcasting sends the same bytes, a nonce stored but never broadcast is not reused, a transaction
that reverts returns the lock with its reason, an amount the chain cannot carry fails before
signing, a frozen user's approved withdrawal waits, and LTC leaves through the node's hot wallet."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

import pytest
from eth_account import Account

from config.settings import Settings
from store import ledger, users, withdrawals
from store.admin import approvals
from store.chain.custody import TEST_MNEMONIC, MnemonicKeySource
from store.chain.senders import EvmSender, UtxoSender
from store.chain.sends import Dispatch, StepReport
from store.chain_rpc.devnet import faucet
from store.chain_rpc.devnet.clients import DevEvmNode
from store.chain_rpc.devnet.litecoin import LitecoinRegtest, RegtestNode
from store.models import (
    Account as LedgerAccount,
)
from store.models import (
    AccountLog,
    AccountType,
    AuditLog,
    ChainSend,
    Currency,
    CurrencyProtocol,
    SendState,
    User,
    Withdrawal,
    WithdrawalStatus,
)
from store.prices import PriceBook, UsdPrice

KEYS = MnemonicKeySource(TEST_MNEMONIC)
FINAL = 3


async def _funded_user(code: str, amount: str) -> int:
    user = await users.create_user(kind="email", account=f"send-{uuid.uuid4().hex[:12]}@example.com",
                                   password_hash="x", area=None, parent=None)  # fmt: skip
    currency = await Currency.get(code=code)
    await ledger.credit(user_id=user.id, currency=currency, account_type=AccountType.CHANGE, amount=Decimal(amount),
                        log_type="deposit", ref=f"send-fund-{user.id}")  # fmt: skip
    return user.id


async def _approved(uid: int, code: str, chain: str, to: str, amount: str, fee: str = "1") -> Withdrawal:
    currency = await Currency.get(code=code)
    protocol = await CurrencyProtocol.get(currency_id=currency.id, chain_protocol=chain)
    wid = await withdrawals.request(uid=uid, currency_id=currency.id, protocol_id=protocol.id, address=to, memo="",
                                    amount=Decimal(amount), fee=Decimal(fee), ref=f"send-{uuid.uuid4().hex}",
                                    confirmations=1)  # fmt: skip
    return await withdrawals.decide(wid, approve=True)


async def _account(uid: int, code: str) -> tuple[Decimal, Decimal]:
    currency = await Currency.get(code=code)
    row = await LedgerAccount.get(user_id=uid, currency_id=currency.id, account_type=AccountType.CHANGE)
    return row.balance, row.lock_balance


@pytest.fixture
async def evm_dispatch(evm: DevEvmNode, evm_chain: dict[str, Any], db: None) -> Dispatch:
    tokens = {"USDT": evm_chain["tokens"]["USDT"]["address"]}
    return Dispatch(EvmSender(evm, KEYS, tokens=tokens), final_confirmations=FINAL)


async def _funded_sender(evm: DevEvmNode, info: dict[str, Any], dispatch: Dispatch, *, usdt: str = "500") -> EvmSender:
    """The dispatch's EVM sender, its hot wallet given gas and ``usdt`` from the faucet."""
    sender = dispatch.sender
    assert isinstance(sender, EvmSender)
    await faucet.send_evm(info, to=sender.hot, amount=Decimal("1"), currency="ETH")  # gas
    await faucet.send_evm(info, to=sender.hot, amount=Decimal(usdt), currency="USDT")
    await evm.mine()
    return sender


async def test_usdt_leaves_once_and_the_lock_goes_at_the_final_count(
    evm: DevEvmNode, evm_chain: dict[str, Any], evm_dispatch: Dispatch
) -> None:
    sender = await _funded_sender(evm, evm_chain, evm_dispatch)
    outside = Account.create().address
    token = evm_chain["tokens"]["USDT"]["address"]
    uid = await _funded_user("USDT", "100")
    row = await _approved(uid, "USDT", "ERC20", outside, "40", fee="1.5")
    assert row.status == WithdrawalStatus.APPROVED and await _account(uid, "USDT") == (Decimal(60), Decimal(40))

    first = await evm_dispatch.step()
    (send,) = await ChainSend.filter(withdrawal_id=row.id)
    assert first.signed == [send.txid] and first.broadcast == [send.txid] and send.state == SendState.SENT
    assert Account.recover_transaction(send.raw_tx) == sender.hot
    await evm.mine()
    await evm_dispatch.step()
    await send.refresh_from_db()
    assert (send.state, send.confirmations) == (SendState.SENT, 1)
    assert await _account(uid, "USDT") == (Decimal(60), Decimal(40))  # not final yet: still locked

    await evm.mine(FINAL - 1)
    done = await evm_dispatch.step()
    await send.refresh_from_db()
    await row.refresh_from_db()
    assert done.completed == [row.id] and send.state == SendState.CONFIRMED
    assert row.status == WithdrawalStatus.COMPLETED
    assert await _account(uid, "USDT") == (Decimal(60), Decimal(0))
    assert await evm.token_balance(token, outside) == 38_500_000  # 40 - 1.5, six decimals, exactly
    journal = await AccountLog.get(user_id=uid, log_type=withdrawals.LOG_DONE)
    assert journal.extra is not None and journal.extra["txid"] == send.txid

    again = await evm_dispatch.step()  # nothing more: not signed again, not sent again
    assert (again.signed, again.broadcast, again.completed) == ([], [], [])
    assert await ChainSend.filter(withdrawal_id=row.id).count() == 1
    assert await evm.token_balance(token, outside) == 38_500_000


async def test_a_restart_between_storing_and_broadcast_sends_the_stored_bytes(
    evm: DevEvmNode, evm_chain: dict[str, Any], evm_dispatch: Dispatch
) -> None:
    await _funded_sender(evm, evm_chain, evm_dispatch)
    outside = Account.create().address
    uid = await _funded_user("ETH", "2")
    first = await _approved(uid, "ETH", "ERC20", outside, "0.3", fee="0.01")
    second = await _approved(uid, "ETH", "ERC20", outside, "0.2", fee="0.01")
    await evm_dispatch.sign_approved(StepReport())  # and the Signer dies before broadcasting
    stored = {s.withdrawal_id: s for s in await ChainSend.filter(withdrawal_id__in=[first.id, second.id])}  # type: ignore[attr-defined]
    assert {s.state for s in stored.values()} == {SendState.SIGNED}
    assert stored[second.id].nonce == stored[first.id].nonce + 1  # the second nonce counts the unsent first
    assert await evm.transaction(stored[first.id].txid) is None  # nothing left yet

    # A new Signer (the first died after storing): it signs nothing new and broadcasts the same bytes.
    restarted = Dispatch(EvmSender(evm, KEYS, tokens={}), final_confirmations=FINAL)
    report = await restarted.step()
    assert report.signed == [] and sorted(report.broadcast) == sorted(s.txid for s in stored.values())
    await evm.mine(FINAL)
    report = await restarted.step()
    assert sorted(report.completed) == sorted([first.id, second.id])
    assert await evm.balance(outside) == 480_000_000_000_000_000  # 0.29 + 0.19 ether, once each
    assert await ChainSend.filter(withdrawal_id__in=[first.id, second.id]).count() == 2


async def test_more_than_the_hot_wallet_holds_waits_unsigned(
    evm: DevEvmNode, evm_chain: dict[str, Any], evm_dispatch: Dispatch
) -> None:
    """A transfer beyond the hot wallet's funds would revert and fail its user's withdrawal: it is not
    signed until the funds are there (less what stored sends not yet mined will take)."""
    sender = await _funded_sender(evm, evm_chain, evm_dispatch, usdt="1")
    held = Decimal(await evm.token_balance(evm_chain["tokens"]["USDT"]["address"], sender.hot)).scaleb(-6)
    uid = await _funded_user("USDT", "100000")
    row = await _approved(uid, "USDT", "ERC20", Account.create().address, str(held + 30), fee="0")
    report = await evm_dispatch.step()
    assert report.signed == [] and "free, less than" in report.waiting[f"w{row.id}"]
    assert not await ChainSend.filter(withdrawal_id=row.id).exists()
    await faucet.send_evm(evm_chain, to=sender.hot, amount=Decimal(30), currency="USDT")  # a sweep, say
    await evm.mine()
    assert len((await evm_dispatch.step()).signed) >= 1 and await ChainSend.filter(withdrawal_id=row.id).exists()
    await evm.mine(FINAL)
    await evm_dispatch.step()
    await row.refresh_from_db()
    assert row.status == WithdrawalStatus.COMPLETED


async def test_a_reverted_transfer_returns_the_lock_with_its_reason(
    evm: DevEvmNode, evm_chain: dict[str, Any], evm_dispatch: Dispatch, monkeypatch: pytest.MonkeyPatch
) -> None:
    sender = await _funded_sender(evm, evm_chain, evm_dispatch, usdt="1")
    held = Decimal(await evm.token_balance(evm_chain["tokens"]["USDT"]["address"], sender.hot)).scaleb(-6)
    uid = await _funded_user("USDT", "100000")
    more = held + 1000  # more than the hot wallet holds: the token's transfer reverts
    row = await _approved(uid, "USDT", "ERC20", Account.create().address, str(more), fee="0")

    async def stale() -> dict[str, Decimal]:  # the balance read before an operator moved it to cold
        return {"USDT": more, "ETH": Decimal(1)}

    monkeypatch.setattr(sender, "hot_balances", stale)
    await evm_dispatch.step()
    await evm.mine(FINAL)
    report = await evm_dispatch.step()
    await row.refresh_from_db()
    send = await ChainSend.get(withdrawal_id=row.id)
    assert report.failed == [row.id] and row.status == WithdrawalStatus.FAILED
    assert send.state == SendState.FAILED and "reverted" in send.reason
    assert await _account(uid, "USDT") == (Decimal(100000), Decimal(0))
    back = await AccountLog.get(user_id=uid, log_type=withdrawals.LOG_FAILED)
    assert back.amount == more and back.extra is not None and "reverted" in str(back.extra["reason"])


async def test_an_amount_the_token_cannot_carry_fails_before_signing(
    evm_dispatch: Dispatch, settings: Settings
) -> None:
    uid = await _funded_user("USDT", "10")
    row = await _approved(uid, "USDT", "ERC20", Account.create().address, "2.1234567", fee="0")  # 7 places
    report = await evm_dispatch.step()
    await row.refresh_from_db()
    assert report.failed == [row.id] and row.status == WithdrawalStatus.FAILED
    assert await ChainSend.filter(withdrawal_id=row.id).count() == 0
    assert await _account(uid, "USDT") == (Decimal(10), Decimal(0))


async def test_a_frozen_users_approved_withdrawal_waits(evm_dispatch: Dispatch) -> None:
    uid = await _funded_user("ETH", "1")
    row = await _approved(uid, "ETH", "ERC20", Account.create().address, "0.5", fee="0")
    await User.filter(id=uid).update(withdraw_frozen=True)
    await evm_dispatch.step()
    assert await ChainSend.filter(withdrawal_id=row.id).count() == 0
    await User.filter(id=uid).update(withdraw_frozen=False)


async def test_ltc_leaves_through_the_nodes_hot_wallet(ltc: RegtestNode, litecoin: LitecoinRegtest, db: None) -> None:
    dispatch = Dispatch(UtxoSender(ltc, chain="LTC", currency="LTC"), final_confirmations=FINAL)
    async with litecoin.node() as outside_wallet:
        to = await outside_wallet.new_address()
    uid = await _funded_user("LTC", "5")
    row = await _approved(uid, "LTC", "LTC", to, "1.25", fee="0.01")
    report = await dispatch.step()
    send = await ChainSend.get(withdrawal_id=row.id)
    assert report.broadcast == [send.txid] and await ltc.in_mempool(send.txid)
    await ltc.generate_to_address(FINAL, await ltc.new_address())
    report = await dispatch.step()
    await row.refresh_from_db()
    assert report.completed == [row.id] and row.status == WithdrawalStatus.COMPLETED
    paid = await ltc.transaction(send.txid)
    assert [o.value for o in paid.outputs if o.address == to] == [Decimal("1.24")]
    assert await _account(uid, "LTC") == (Decimal("3.75"), Decimal(0))


async def test_small_withdrawals_approve_themselves_until_the_users_day_reaches_the_limit(
    settings: Settings, db: None
) -> None:
    auto = settings.model_copy(update={"auto_approve_usd": Decimal(100)})
    book = PriceBook(usd={"USDT": UsdPrice(Decimal(1), True, "seed")}, cny_rate=Decimal(7))
    uid = await _funded_user("USDT", "500")
    usdt = await Currency.get(code="USDT")
    protocol = await CurrencyProtocol.get(currency_id=usdt.id, chain_protocol="ERC20")

    async def request(amount: str) -> int:
        return await withdrawals.request(uid=uid, currency_id=usdt.id, protocol_id=protocol.id,
                                         address=Account.create().address, memo="", amount=Decimal(amount),
                                         fee=Decimal(0), ref=f"auto-{uuid.uuid4().hex}", confirmations=1)  # fmt: skip

    small = await request("60")
    assert await approvals.auto_approve(small, settings=auto, book=book)
    assert (await Withdrawal.get(id=small)).status == WithdrawalStatus.APPROVED
    audit = await AuditLog.get(target=f"withdrawal:{small}", action="withdrawal.approve")
    assert audit.operator == approvals.AUTO_ACTOR.name
    second = await request("50")  # 110 USD in 24 h: an operator decides
    assert not await approvals.auto_approve(second, settings=auto, book=book)
    assert (await Withdrawal.get(id=second)).status == WithdrawalStatus.PENDING
    off = await request("1")  # the setting at 0: never
    assert not await approvals.auto_approve(off, settings=settings, book=book)
    unpriced = PriceBook(usd={}, cny_rate=Decimal(7))  # no price: not known to be small
    assert not await approvals.auto_approve(off, settings=auto, book=unpriced)
