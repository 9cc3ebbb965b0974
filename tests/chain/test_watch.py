"""The chain watchers on the real dev chains (store/chain/watch.py): a deposit is seen, credited at the
currency's first confirmation count and withdrawable at the final one; below the minimum it is never
credited; a re-scan credits nothing twice; a reorg before the credit drops the deposit, one after it
claws the credit back with a journal row; a transaction mined again in another block keeps its one
credit; a new watcher resumes from the stored cursor; a cursor the node never had is a reorg to the
start. The session's nodes mine only when a test asks, and each test calls the watcher's step itself."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

import pytest

from config.settings import Settings
from store import deposits, ledger, users, withdrawals
from store.admin import conservation
from store.chain.keys import deposit_keys
from store.chain.sources import EvmSource
from store.chain.watch import Watcher
from store.chain_rpc.devnet import faucet
from store.chain_rpc.devnet.clients import DevEvmNode
from store.chain_rpc.devnet.litecoin import LitecoinRegtest, RegtestNode
from store.errors import DomainError, ErrorCode
from store.models import (
    Account,
    AccountLog,
    AccountType,
    ChainBlock,
    ChainDeposit,
    Currency,
    CurrencyProtocol,
    DepositStatus,
)


async def _user() -> int:
    user = await users.create_user(kind="email", account=f"watch-{uuid.uuid4().hex[:12]}@example.com",
                                   password_hash="x", area=None, parent=None)  # fmt: skip
    return user.id


async def _address(settings: Settings, uid: int, chain: str, code: str) -> str:
    protocol = await CurrencyProtocol.get(chain_protocol=chain, currency__code=code)
    return (await deposits.address_for(deposit_keys(settings), uid, protocol)).address


async def _balance(uid: int, code: str) -> Decimal:
    currency = await Currency.get(code=code)
    account = await Account.get_or_none(user_id=uid, currency_id=currency.id, account_type=AccountType.CHANGE)
    return account.balance if account is not None else Decimal(0)


async def _deposits(uid: int) -> list[ChainDeposit]:
    return await ChainDeposit.filter(user_id=uid).order_by("id")


async def _usdt_audit() -> dict[str, Any]:
    (line,) = [line for line in await conservation.audit() if line["currency"] == "USDT"]
    return line


async def _journal(uid: int) -> list[tuple[str, Decimal]]:
    return [(row.log_type, row.amount) for row in await AccountLog.filter(user_id=uid).order_by("id")]


async def _watched_after_snapshot(
    evm: DevEvmNode, info: dict[str, Any], watcher: Watcher, settings: Settings, amount: Decimal
) -> tuple[int, str]:
    """A new user's USDT deposit mined in one block on top of a snapshot, and watched: (uid, snapshot)."""
    uid = await _user()
    to = await _address(settings, uid, "ERC20", "USDT")
    await watcher.catch_up()
    snapshot = await evm.snapshot()
    await faucet.send_evm(info, to=to, amount=amount, currency="USDT")
    await evm.mine()
    await watcher.catch_up()
    return uid, snapshot


async def test_an_erc20_deposit_is_credited_at_the_first_count_and_withdrawable_at_the_final(
    evm: DevEvmNode, evm_chain: dict[str, Any], evm_watcher: Watcher, settings: Settings
) -> None:
    uid = await _user()
    to = await _address(settings, uid, "ERC20", "USDT")
    tx = await faucet.send_evm(evm_chain, to=to, amount=Decimal("250.123456"), currency="USDT")
    await evm_watcher.catch_up()
    assert await _deposits(uid) == []  # broadcast, not mined: nothing yet
    await evm.mine()
    progress = await evm_watcher.catch_up()
    (row,) = await _deposits(uid)
    assert (row.chain, row.tx_hash, row.status, row.confirmations) == ("ERC20", tx, DepositStatus.CREDITED, 1)
    assert row.amount == Decimal("250.123456") and row.address == to and row.output_index >= 0
    assert [e.kind for e in progress.events] == ["credited"]
    assert await _balance(uid, "USDT") == Decimal("250.123456")
    waiting = await deposits.first_unconfirmed(uid, settings.withdraw_confirmations)
    assert waiting is not None and waiting.id == row.id  # credited, not yet withdrawable
    await evm.mine(settings.withdraw_confirmations - 2)
    await evm_watcher.catch_up()
    assert await deposits.first_unconfirmed(uid, settings.withdraw_confirmations) is not None
    await evm.mine()
    await evm_watcher.catch_up()
    await row.refresh_from_db()
    assert row.confirmations == settings.withdraw_confirmations
    assert await deposits.first_unconfirmed(uid, settings.withdraw_confirmations) is None
    assert await _journal(uid) == [("deposit", Decimal("250.123456"))]
    status = await evm_watcher.status()
    assert status["lag"] == 0 and status["node_height"] == await evm.block_number()


async def test_eth_and_usdt_to_one_address_are_two_deposits_and_a_rescan_credits_nothing_twice(
    evm: DevEvmNode, evm_chain: dict[str, Any], evm_watcher: Watcher, settings: Settings
) -> None:
    uid = await _user()
    to = await _address(settings, uid, "ERC20", "ETH")  # only the ETH address asked for: USDT still lands
    await faucet.send_evm(evm_chain, to=to, amount=Decimal("1.5"), currency="ETH")
    await faucet.send_evm(evm_chain, to=to, amount=Decimal("40"), currency="USDT")
    await faucet.send_evm(evm_chain, to=to, amount=Decimal("0.5"), currency="USDT")  # under USDT's minimum of 1
    await evm.mine()
    await evm_watcher.catch_up()
    rows = await _deposits(uid)
    assert sorted((r.amount, r.status) for r in rows) == [
        (Decimal("0.5"), DepositStatus.BELOW_MINIMUM),
        (Decimal("1.5"), DepositStatus.CREDITED),
        (Decimal("40"), DepositStatus.CREDITED),
    ]
    assert await _balance(uid, "ETH") == Decimal("1.5") and await _balance(uid, "USDT") == Decimal(40)
    # Scanned again from below the deposits' block (a cursor set back): the same rows, no second credit.
    height = rows[0].block_height
    await ChainBlock.filter(chain="ERC20", height__gte=height - 1).delete()
    await evm_watcher.catch_up()
    assert [(r.id, r.status) for r in await _deposits(uid)] == [(r.id, r.status) for r in rows]
    assert sorted(await _journal(uid)) == [("deposit", Decimal("1.5")), ("deposit", Decimal(40))]


async def test_a_reorg_before_the_credit_drops_the_deposit(
    evm: DevEvmNode, evm_chain: dict[str, Any], evm_watcher: Watcher, settings: Settings, confirmations_of: Any
) -> None:
    await confirmations_of("USDT", 2)
    uid, snapshot = await _watched_after_snapshot(evm, evm_chain, evm_watcher, settings, Decimal(75))
    (row,) = await _deposits(uid)
    assert (row.status, row.confirmations) == (DepositStatus.CONFIRMING, 1)
    await evm.revert(snapshot)  # the block with the transfer is gone, the transfer with it
    await evm.mine(2)
    progress = await evm_watcher.catch_up()
    assert progress.rolled_back >= 1 and [e.kind for e in progress.events] == ["dropped"]
    await row.refresh_from_db()
    assert (row.status, row.block_hash, row.reversals) == (DepositStatus.DROPPED, None, 0)
    assert await _balance(uid, "USDT") == 0 and await _journal(uid) == []


async def test_a_reorg_after_the_credit_claws_it_back_and_records_what_was_spent(
    evm: DevEvmNode, evm_chain: dict[str, Any], evm_watcher: Watcher, settings: Settings
) -> None:
    uid, snapshot = await _watched_after_snapshot(evm, evm_chain, evm_watcher, settings, Decimal(100))
    assert await _balance(uid, "USDT") == Decimal(100)
    usdt = await Currency.get(code="USDT")  # the user pays 30 of it to someone else before the reorg
    payee = await _user()
    await ledger.apply([ledger.Change(uid, usdt.id, AccountType.CHANGE, Decimal(-30), ledger.ZERO, "transfer",
                                      f"spent-{uid}"),
                        ledger.Change(payee, usdt.id, AccountType.CHANGE, Decimal(30), ledger.ZERO, "transfer",
                                      f"paid-{uid}")])  # fmt: skip
    audit_before = await _usdt_audit()
    await evm.revert(snapshot)
    await evm.mine(2)
    progress = await evm_watcher.catch_up()
    assert [e.kind for e in progress.events] == ["dropped"]
    (row,) = await _deposits(uid)
    assert (row.status, row.reversals, row.owed) == (DepositStatus.DROPPED, 1, Decimal(30))
    assert await _balance(uid, "USDT") == 0  # never below zero: the rest is recorded as owed
    back = await AccountLog.get(user_id=uid, log_type=deposits.LOG_REVERSAL)
    assert back.amount == Decimal(-70) and back.ref == f"{deposits.credit_ref(row)[:-2]}:back"
    assert back.extra is not None and back.extra["owed"] == "30"
    # The audit counts the reversal as money going back out: the ledger still balances (the 30 the
    # payee holds stay counted as come in; the gap is the chain's, recorded as owed).
    audit_after = await _usdt_audit()
    assert Decimal(audit_after["deposits"]) - Decimal(audit_before["deposits"]) == Decimal(-70)
    assert audit_after["difference"] == audit_before["difference"]
    await evm_watcher.catch_up()  # and again: nothing more is taken
    assert await _journal(uid) == [("deposit", Decimal(100)), ("transfer", Decimal(-30)),
                                   (deposits.LOG_REVERSAL, Decimal(-70))]  # fmt: skip
    # While the 30 are owed, nothing leaves: not even money that came otherwise.
    await ledger.credit(user_id=uid, currency=usdt, account_type=AccountType.CHANGE, amount=Decimal(50),
                        log_type="deposit", ref=f"other-{uid}")  # fmt: skip
    request = {"uid": uid, "currency_id": usdt.id, "protocol_id": None, "address": "0x" + "b" * 40, "memo": "",
               "amount": Decimal(20), "fee": Decimal(1), "ref": f"owed-{uid}", "confirmations": 6}  # fmt: skip
    with pytest.raises(DomainError) as refused:
        await withdrawals.request(**request)  # type: ignore[arg-type]
    assert refused.value.code == ErrorCode.DEPOSIT_OWED and refused.value.params["amount"] == "100"
    assert await _balance(uid, "USDT") == Decimal(50)


async def test_a_new_watcher_resumes_from_the_stored_cursor(
    evm: DevEvmNode, evm_chain: dict[str, Any], evm_watcher: Watcher, settings: Settings
) -> None:
    await evm_watcher.catch_up()
    cursor = await evm_watcher.cursor()
    assert cursor is not None
    uid = await _user()
    to = await _address(settings, uid, "ERC20", "USDT")
    await faucet.send_evm(evm_chain, to=to, amount=Decimal(12), currency="USDT")
    await evm.mine(3)  # while no watcher runs
    usdt = evm_chain["tokens"]["USDT"]["address"]
    source = EvmSource(evm, chain="ERC20", family="EVM", native="ETH", tokens={"USDT": usdt})
    restarted = Watcher(source, final_confirmations=settings.withdraw_confirmations)
    progress = await restarted.step()
    assert (progress.scanned, progress.cursor, progress.rolled_back) == (3, cursor.height + 3, 0)
    assert await _balance(uid, "USDT") == Decimal(12)


async def test_a_watcher_that_dies_before_recording_a_deposit_scans_its_block_again(
    evm: DevEvmNode,
    evm_chain: dict[str, Any],
    evm_watcher: Watcher,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Killed between reading a block and recording its deposit, a watcher must not resume past it:
    the cursor moves only once the block's deposits are recorded."""
    await evm_watcher.catch_up()
    before = await evm_watcher.cursor()
    uid = await _user()
    to = await _address(settings, uid, "ERC20", "USDT")
    await faucet.send_evm(evm_chain, to=to, amount=Decimal(9), currency="USDT")
    await evm.mine()

    async def dies(*_: Any) -> None:
        raise RuntimeError("the process died here")

    with monkeypatch.context() as patch:
        patch.setattr(deposits, "report", dies)
        with pytest.raises(RuntimeError):
            await evm_watcher.step()
    assert await evm_watcher.cursor() == before  # nothing of the block was kept
    await evm_watcher.catch_up()
    assert await _balance(uid, "USDT") == Decimal(9)


async def test_a_cursor_the_node_never_had_is_a_reorg_to_the_start(
    evm: DevEvmNode, evm_chain: dict[str, Any], evm_watcher: Watcher, settings: Settings
) -> None:
    """The dev EVM chain lives in memory: after a restart every stored hash is foreign to the node."""
    uid = await _user()
    to = await _address(settings, uid, "ERC20", "USDT")
    await faucet.send_evm(evm_chain, to=to, amount=Decimal(5), currency="USDT")
    await evm.mine()
    await evm_watcher.catch_up()
    for block in await ChainBlock.filter(chain="ERC20"):
        await ChainBlock.filter(id=block.id).update(hash="0x" + uuid.uuid4().hex * 2)
    progress = await evm_watcher.catch_up()
    assert progress.rolled_back > 0 and progress.lag == 0
    assert await _journal(uid) == [("deposit", Decimal(5))]  # found again in the rescan, not credited again
    (row,) = await _deposits(uid)
    assert row.status == DepositStatus.CREDITED and row.block_hash is not None


async def test_ltc_mined_again_in_another_block_keeps_its_one_credit(
    ltc: RegtestNode, litecoin: LitecoinRegtest, ltc_watcher: Watcher, settings: Settings
) -> None:
    uid = await _user()
    to = await _address(settings, uid, "LTC", "LTC")
    txid = await faucet.send_ltc({"url": litecoin.url, "wallet": litecoin.wallet}, to=to, amount=Decimal("2.5"))
    (first,) = await ltc.generate_to_address(1, await ltc.new_address())
    await ltc_watcher.catch_up()
    (row,) = await _deposits(uid)
    assert (row.tx_hash, row.block_hash, row.status, row.amount) == (txid, first, DepositStatus.CREDITED,
                                                                     Decimal("2.5"))  # fmt: skip
    await ltc.invalidate_block(first)  # back to the mempool; the next block (another coinbase) mines it again
    (second,) = await ltc.generate_to_address(1, await ltc.new_address())
    assert second != first
    progress = await ltc_watcher.catch_up()
    assert progress.rolled_back == 1 and progress.events == ()
    await row.refresh_from_db()
    assert (row.block_hash, row.status, row.reversals) == (second, DepositStatus.CREDITED, 0)
    assert await _journal(uid) == [("deposit", Decimal("2.5"))]


async def test_ltc_dropped_by_invalidateblock_then_mined_again_confirms_again(
    ltc: RegtestNode, litecoin: LitecoinRegtest, ltc_watcher: Watcher, settings: Settings, confirmations_of: Any
) -> None:
    await confirmations_of("LTC", 2)
    uid = await _user()
    to = await _address(settings, uid, "LTC", "LTC")
    await faucet.send_ltc({"url": litecoin.url, "wallet": litecoin.wallet}, to=to, amount=Decimal("0.75"))
    (mined,) = await ltc.generate_to_address(1, await ltc.new_address())
    progress = await ltc_watcher.catch_up()
    (row,) = await _deposits(uid)
    assert (row.status, row.confirmations) == (DepositStatus.CONFIRMING, 1)
    # the user hears of it while it confirms (the deposit page shows it pending), not only at the credit
    assert [(e.kind, e.deposit.confirmations) for e in progress.events] == [("confirming", 1)]
    await ltc.invalidate_block(mined)
    spare = await ltc.new_address()
    for _ in range(2):  # a longer branch without the transaction (it waits in the mempool)
        await ltc.rpc.call("generateblock", spare, [])
    progress = await ltc_watcher.catch_up()
    assert [e.kind for e in progress.events] == ["dropped"]
    await row.refresh_from_db()
    assert row.status == DepositStatus.DROPPED and await _balance(uid, "LTC") == 0
    await ltc.generate_to_address(2, spare)  # the mempool's transaction is mined after all
    await ltc_watcher.catch_up()
    await row.refresh_from_db()
    assert (row.status, row.confirmations) == (DepositStatus.CREDITED, 2)
    assert await _journal(uid) == [("deposit", Decimal("0.75"))]
