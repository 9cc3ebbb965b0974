"""Sweeps on litecoind regtest (store/chain/utxo_sweeps.py): final deposit outputs on the xpub's
addresses, which the node's wallet cannot spend, are spent to the hot wallet in one transaction signed
through the KeySource; a total below the minimum waits; an output already spent (a crash after the
broadcast) is marked without a new transaction; one whose sweep vanished is swept again; the ledger
does not move. DOGE's P2PKH deposits are swept with legacy signatures, which litecoind checks as
dogecoind would (their regtest addresses share the version byte 0x6f)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from decimal import Decimal

from config.settings import Settings
from store import deposits, users
from store.chain.custody import TEST_MNEMONIC, MnemonicKeySource
from store.chain.keys import deposit_keys
from store.chain.senders import UtxoSender
from store.chain.sources import UtxoSource
from store.chain.utxo_sweeps import UtxoSweeper
from store.chain.watch import Watcher
from store.chain_rpc.devnet import faucet
from store.chain_rpc.devnet.litecoin import LitecoinRegtest, RegtestNode
from store.models import AccountLog, ChainDeposit, CurrencyProtocol, DepositStatus
from tests.utils.chains import Deposit

KEYS = MnemonicKeySource(TEST_MNEMONIC)


async def _address(settings: Settings, code: str = "LTC") -> tuple[int, str]:
    user = await users.create_user(kind="email", account=f"utxo-sweep-{uuid.uuid4().hex[:12]}@example.com",
                                   password_hash="x", area=None, parent=None)  # fmt: skip
    protocol = await CurrencyProtocol.get(chain_protocol=code, currency__code=code)
    return user.id, (await deposits.address_for(deposit_keys(settings), user.id, protocol)).address


async def _outputs(uids: list[int]) -> list[tuple[str, int]]:
    return [(t, n) for t, n in await ChainDeposit.filter(user_id__in=uids).values_list("tx_hash", "output_index")]


async def test_final_outputs_are_swept_to_the_hot_wallet_once(
    ltc: RegtestNode, deposit_ltc: Deposit, settings: Settings
) -> None:
    final = settings.withdraw_confirmations
    sender = UtxoSender(ltc, chain="LTC", currency="LTC")
    sweeper = UtxoSweeper(sender, KEYS, deposit_keys(settings).account("LTC"), minimums={"LTC": Decimal(1)},
                          final=final)  # fmt: skip
    await sweeper.step()  # other tests' final deposits first, so this test's totals are its own
    await ltc.generate_to_address(1, await ltc.new_address())
    uid, at = await _address(settings)
    other, other_at = await _address(settings)
    await deposit_ltc(at, "0.4", blocks=final)

    waiting = await sweeper.step()  # 0.4 is below the minimum of 1: nothing moves
    assert (waiting.swept, waiting.below_minimum) == ([], 1)
    assert await ChainDeposit.filter(user_id=uid, swept_at=None).count() == 1

    await deposit_ltc(at, "1.5", blocks=0)
    await deposit_ltc(other_at, "0.7", blocks=final)
    outputs = await _outputs([uid, other])
    assert len(outputs) == 3 and all([await ltc.unspent_output(t, n) for t, n in outputs])

    journal_before = await AccountLog.filter(user_id__in=[uid, other]).count()
    report = await sweeper.step()
    assert len(report.swept) == 1 and await ltc.in_mempool(report.swept[0])
    sweep = await ltc.transaction(report.swept[0])
    assert {(i.txid, i.vout) for i in sweep.inputs} == set(outputs)  # one transaction, every output
    assert len(sweep.outputs) == 1 and Decimal("2.59") < sweep.outputs[0].value < Decimal("2.6")  # less the fee
    assert all([await ltc.unspent_output(t, n) is None for t, n in outputs])
    assert await ChainDeposit.filter(user_id__in=[uid, other], swept_at=None).count() == 0
    await ltc.generate_to_address(1, await ltc.new_address())
    mine = await ltc.list_unspent(addresses=[sweep.outputs[0].address])
    assert [(u.txid, u.amount) for u in mine] == [(sweep.txid, sweep.outputs[0].value)]  # the node's wallet has it
    assert (await sweeper.step()).swept == []  # swept once

    # A crash between the broadcast and the mark: the outputs are spent, so no second transaction.
    await ChainDeposit.filter(user_id__in=[uid, other]).update(swept_at=None)
    again = await sweeper.step()
    assert again.swept == [] and await ChainDeposit.filter(user_id__in=[uid, other], swept_at=None).count() == 0
    assert await AccountLog.filter(user_id__in=[uid, other]).count() == journal_before  # the ledger did not move


async def test_an_output_whose_sweep_vanished_is_swept_again(
    ltc: RegtestNode, deposit_ltc: Deposit, settings: Settings
) -> None:
    """A sweep that left the mempool unmined leaves its outputs unspent under deposits marked swept:
    the next step unmarks them and spends them."""
    final = settings.withdraw_confirmations
    sweeper = UtxoSweeper(UtxoSender(ltc, chain="LTC", currency="LTC"), KEYS, deposit_keys(settings).account("LTC"),
                          minimums={}, final=final)  # fmt: skip
    await sweeper.step()
    uid, at = await _address(settings)
    await deposit_ltc(at, "0.3", blocks=final)
    [(txid, vout)] = await _outputs([uid])
    await ChainDeposit.filter(user_id=uid).update(swept_at=datetime.now(UTC))  # as a vanished sweep left it
    report = await sweeper.step()
    assert len(report.swept) == 1 and await ltc.unspent_output(txid, vout) is None
    assert (txid, vout) in {(i.txid, i.vout) for i in (await ltc.transaction(report.swept[0])).inputs}
    assert await ChainDeposit.filter(user_id=uid, swept_at=None).count() == 0


async def test_doge_p2pkh_outputs_are_swept_with_legacy_signatures(
    ltc: RegtestNode, litecoin: LitecoinRegtest, settings: Settings, db: None
) -> None:
    """litecoind stands in for a DOGE node: it checks the P2PKH inputs' legacy signatures and scriptSigs
    as dogecoind does; a DOGE deposit is watched, credited and swept like an LTC one."""
    final = settings.withdraw_confirmations
    watcher = Watcher(UtxoSource(ltc, chain="DOGE", family="DOGE", currency="DOGE"), final_confirmations=final)
    sweeper = UtxoSweeper(UtxoSender(ltc, chain="DOGE", currency="DOGE"), KEYS, deposit_keys(settings).account("DOGE"),
                          minimums={"DOGE": Decimal(1)}, final=final)  # fmt: skip
    await watcher.catch_up()
    await sweeper.step()  # what earlier runs left, so this test's totals are its own
    uid, at = await _address(settings, "DOGE")
    assert at[0] in "mn"  # P2PKH on regtest, as dogecoind -regtest writes it
    tx = await faucet.send_ltc({"url": litecoin.url, "wallet": litecoin.wallet}, to=at, amount=Decimal(8))
    await ltc.generate_to_address(final, await ltc.new_address())
    await watcher.catch_up()
    (row,) = await ChainDeposit.filter(user_id=uid)
    assert (row.chain, row.tx_hash, row.amount, row.status) == ("DOGE", tx, Decimal(8), DepositStatus.CREDITED)

    report = await sweeper.step()
    assert len(report.swept) == 1 and await ltc.in_mempool(report.swept[0])  # the node took the signature
    sweep = await ltc.transaction(report.swept[0])
    assert [(i.txid, i.vout) for i in sweep.inputs] == [(row.tx_hash, row.output_index)]
    # No estimate on regtest: DOGE's fallback of 0.01 a kvB over 10 + 34 + 149 bytes.
    assert [o.value for o in sweep.outputs] == [Decimal(8) - Decimal("0.00193")]
    await ltc.generate_to_address(1, await ltc.new_address())
    assert await ltc.unspent_output(row.tx_hash, row.output_index) is None
    assert (await sweeper.step()).swept == []  # swept once
