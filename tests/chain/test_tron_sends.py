"""Approved TRX and TRC20 withdrawals sent by the Signer's TRON sender (store/chain/senders.py
``TronSender``, store/chain/tron_signing.py, store/chain_rpc/tron.py) against a local stand-in for a
TRON full node that checks ids, signatures and call data as a node does (tests/chain/tron_node.py; no
TRON node runs on this machine): the signed bytes are stored before the broadcast and are what the
node receives, once; the lock leaves at the final count; a Signer that died after signing broadcasts
the stored bytes and asks the node for no new transaction; a transaction that expired unmined (and
only such a one: not one a block holds while its receipt cannot be read), one
that reverted and one that ran out of energy fail and return the lock through the ledger; a node that
builds anything other than what was asked (or one that would never expire) is not given a signature; a key source answering for
another key is refused; the Signer has a TRON sender once the node's URL is set."""

from __future__ import annotations

import hashlib
import os
from collections.abc import AsyncIterator, Iterator
from decimal import Decimal
from typing import Any

import pytest
from eth_keys import keys as eth_keys

from actors.chain.signer import dispatches
from config.chains import sending_chains
from config.settings import Settings
from store import withdrawals
from store.chain import tron_signing
from store.chain.custody import TEST_MNEMONIC, MnemonicKeySource, Signature
from store.chain.evm_signing import SigningError
from store.chain.senders import TronSender
from store.chain.sends import Dispatch, StepReport
from store.chain_rpc.jsonrpc import NodeRefused, NodeUnreachable
from store.chain_rpc.tron import TronNode
from store.models import AccountLog, ChainSend, SendState, Withdrawal, WithdrawalStatus
from tests.chain.test_sends import _account, _approved, _funded_user
from tests.chain.tron_node import BLOCK_MS, ENERGY_FEE_SUN, EXPIRY_MS, PB, FakeTronNode, base58

KEYS = MnemonicKeySource(TEST_MNEMONIC)
FINAL = 3
USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
FEE_LIMIT = 30_000_000  # SUN
HOT = tron_signing.address_of(KEYS, tron_signing.hot_path())


def _outside() -> str:
    return base58(b"\x41" + os.urandom(20))


@pytest.fixture
def node() -> Iterator[FakeTronNode]:
    fake = FakeTronNode()
    fake.add_token(USDT)
    fake.fund(HOT, trx=100_000_000, token=USDT, units=1_000_000_000)  # 100 TRX, 1,000 USDT
    yield fake
    fake.close()


@pytest.fixture
async def dispatch(node: FakeTronNode, db: None) -> AsyncIterator[Dispatch]:
    """The TRON dispatch on ``node``. What earlier tests left approved or unconfirmed on TRC20 (the
    API's tests approve withdrawals too) is first sent and settled on a node of its own, so each test's
    report, node and hot wallet hold only its own withdrawals."""
    await _settle_leftovers()
    async with TronNode(node.url) as client:
        yield _dispatch(client)


async def _settle_leftovers() -> None:
    sink = FakeTronNode()
    sink.add_token(USDT)
    sink.fund(HOT, trx=10**15, token=USDT, units=10**15)
    try:
        async with TronNode(sink.url) as client:
            drain = _dispatch(client)
            for _ in range(10):
                report = await drain.step()
                if not (report.signed or report.broadcast or report.waiting):
                    return
                sink.mine(FINAL)
    finally:
        sink.close()


def _dispatch(client: TronNode, *, fee_limit: int = FEE_LIMIT) -> Dispatch:
    return Dispatch(TronSender(client, KEYS, tokens={"USDT": USDT}, fee_limit=fee_limit), final_confirmations=FINAL)


async def _signed_then_died(dispatch: Dispatch, usdt: str) -> tuple[str, int, Withdrawal, ChainSend]:
    """A user's approved USDT withdrawal to a fresh outside address, signed and stored by a Signer that
    then died before broadcasting: the address, the user, the withdrawal and its stored send."""
    outside = _outside()
    uid = await _funded_user("USDT", usdt)
    row = await _approved(uid, "USDT", "TRC20", outside, usdt, fee="0")
    await dispatch.sign_approved(StepReport())
    return outside, uid, row, await ChainSend.get(withdrawal_id=row.id)


def _raw_of(signed_hex: str) -> Any:
    return PB["Raw"].FromString(PB["Transaction"].FromString(bytes.fromhex(signed_hex)).raw_data)


async def test_usdt_trc20_leaves_once_and_the_lock_goes_at_the_final_count(
    node: FakeTronNode, dispatch: Dispatch
) -> None:
    assert HOT == tron_signing.address_of(KEYS, "m/44'/195'/1'/0/0") and HOT.startswith("T")
    outside = _outside()
    uid = await _funded_user("USDT", "100")
    row = await _approved(uid, "USDT", "TRC20", outside, "40", fee="1.5")

    first = await dispatch.step()
    (send,) = await ChainSend.filter(withdrawal_id=row.id)
    assert first.signed == [send.txid] and first.broadcast == [send.txid] and send.state == SendState.SENT
    assert node.state.accepted == {send.txid: [send.raw_tx]}  # the stored bytes are what the node got
    assert send.nonce is None and send.sender == HOT
    raw = _raw_of(send.raw_tx)
    assert send.txid == hashlib.sha256(PB["Transaction"].FromString(bytes.fromhex(send.raw_tx)).raw_data).hexdigest()
    assert raw.fee_limit == FEE_LIMIT

    pending = await dispatch.step()  # in the node's pending pool: not broadcast again
    assert (pending.signed, pending.broadcast) == ([], [])
    node.mine()
    await dispatch.step()
    await send.refresh_from_db()
    assert (send.state, send.confirmations) == (SendState.SENT, 1)
    assert await _account(uid, "USDT") == (Decimal(60), Decimal(40))  # not final yet: still locked

    node.mine(FINAL - 1)
    done = await dispatch.step()
    await send.refresh_from_db()
    await row.refresh_from_db()
    assert done.completed == [row.id] and send.state == SendState.CONFIRMED and send.confirmations == FINAL
    assert row.status == WithdrawalStatus.COMPLETED
    assert await _account(uid, "USDT") == (Decimal(60), Decimal(0))
    assert node.token_balance(USDT, outside) == 38_500_000  # 40 - 1.5, six decimals, exactly
    journal = await AccountLog.get(user_id=uid, log_type=withdrawals.LOG_DONE)
    assert journal.extra is not None and journal.extra["txid"] == send.txid

    again = await dispatch.step()
    assert (again.signed, again.broadcast, again.completed) == ([], [], [])
    assert len(node.state.built) == 1 and node.state.accepted == {send.txid: [send.raw_tx]}
    status = await dispatch.status()
    assert status["hot_account"] == HOT and status["unconfirmed_withdrawals"] == []
    assert status["hot_wallet"]["USDT"] == "961.5"
    assert Decimal(status["hot_wallet"]["TRX"]) == Decimal(100) - Decimal(ENERGY_FEE_SUN).scaleb(-6)


async def test_trx_leaves_as_a_plain_transfer(node: FakeTronNode, dispatch: Dispatch) -> None:
    outside = _outside()
    uid = await _funded_user("TRX", "100")
    row = await _approved(uid, "TRX", "TRC20", outside, "12.5", fee="0.5")
    await dispatch.step()
    send = await ChainSend.get(withdrawal_id=row.id)
    assert _raw_of(send.raw_tx).fee_limit == 0  # a plain transfer burns bandwidth, no energy
    node.mine(FINAL)
    report = await dispatch.step()
    assert report.completed == [row.id]
    assert node.state.trx[tron_signing.raw_address(outside)] == 12_000_000  # SUN
    assert await _account(uid, "TRX") == (Decimal("87.5"), Decimal(0))


async def test_a_signer_that_died_after_signing_broadcasts_the_stored_bytes(
    node: FakeTronNode, dispatch: Dispatch
) -> None:
    outside, _, row, stored = await _signed_then_died(dispatch, "20")
    assert stored.state == SendState.SIGNED and node.state.accepted == {} and len(node.state.built) == 1

    async with TronNode(node.url) as client:  # a new Signer: signs nothing new, sends the stored bytes
        restarted = _dispatch(client)
        report = await restarted.step()
        assert report.signed == [] and report.broadcast == [stored.txid]
        assert node.state.accepted == {stored.txid: [stored.raw_tx]} and len(node.state.built) == 1
        node.mine(FINAL)
        report = await restarted.step()
    assert report.completed == [row.id]
    assert node.token_balance(USDT, outside) == 20_000_000
    assert await ChainSend.filter(withdrawal_id=row.id).count() == 1


async def test_a_transaction_that_expired_unmined_fails_and_returns_the_lock(
    node: FakeTronNode, dispatch: Dispatch
) -> None:
    outside, uid, row, send = await _signed_then_died(dispatch, "30")  # and stays down past the expiration
    node.mine(EXPIRY_MS // BLOCK_MS + 1)  # the head is the first block past the expiration
    for depth in range(1, FINAL):  # that block not FINAL deep yet: a reorg could still bring an older branch
        report = await dispatch.step()  # the stored bytes once more: the node refuses them as expired
        await row.refresh_from_db()
        assert report.failed == [] and "TRANSACTION_EXPIRATION_ERROR" in report.waiting[send.txid], depth
        assert row.status == WithdrawalStatus.APPROVED and await _account(uid, "USDT") == (Decimal(0), Decimal(30))
        node.mine()

    report = await dispatch.step()  # the first block past the expiration is FINAL deep: it can never be mined
    await row.refresh_from_db()
    await send.refresh_from_db()
    assert report.failed == [row.id] and row.status == WithdrawalStatus.FAILED
    assert send.state == SendState.FAILED and "expired" in send.reason
    assert await _account(uid, "USDT") == (Decimal(30), Decimal(0))
    back = await AccountLog.get(user_id=uid, log_type=withdrawals.LOG_FAILED)
    assert back.amount == Decimal(30) and back.extra is not None and "expired" in str(back.extra["reason"])
    assert node.token_balance(USDT, outside) == 0 and len(node.state.built) == 1


async def test_a_mined_transaction_whose_receipt_the_node_lacks_is_not_taken_for_expired(
    node: FakeTronNode, dispatch: Dispatch
) -> None:
    outside = _outside()
    uid = await _funded_user("USDT", "15")
    row = await _approved(uid, "USDT", "TRC20", outside, "15", fee="0")
    await dispatch.step()
    node.mine()  # it is in the next block, then its receipt cannot be read for a while
    node.state.no_receipts = True
    node.mine(EXPIRY_MS // BLOCK_MS + FINAL)  # long past its expiration, and that FINAL deep
    report = await dispatch.step()
    await row.refresh_from_db()
    assert report.failed == [] and report.broadcast == [] and row.status == WithdrawalStatus.APPROVED
    assert await _account(uid, "USDT") == (Decimal(0), Decimal(15))  # refunding it would pay twice

    node.state.no_receipts = False
    assert (await dispatch.step()).completed == [row.id]
    assert node.token_balance(USDT, outside) == 15_000_000


@pytest.mark.parametrize("trouble", ["revert", "out_of_energy"])
async def test_a_failed_trc20_transfer_returns_the_lock_at_the_final_count(
    node: FakeTronNode, dispatch: Dispatch, trouble: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    uid = await _funded_user("USDT", "5000")
    amount = "2000" if trouble == "revert" else "10"  # the hot wallet holds 1,000 USDT
    async with TronNode(node.url) as client:
        run = dispatch if trouble == "revert" else _dispatch(client, fee_limit=ENERGY_FEE_SUN - 1)

        async def stale() -> dict[str, Decimal]:  # the balance read before an operator moved it to cold
            return {"USDT": Decimal(amount), "TRX": Decimal(1000)}

        monkeypatch.setattr(run.sender, "hot_balances", stale)
        row = await _approved(uid, "USDT", "TRC20", _outside(), amount, fee="0")
        await run.step()
        node.mine(FINAL - 1)
        assert (await run.step()).failed == []  # failed on the chain, but not final yet: still locked
        assert await _account(uid, "USDT") == (Decimal(5000) - Decimal(amount), Decimal(amount))
        node.mine()
        report = await run.step()
    await row.refresh_from_db()
    send = await ChainSend.get(withdrawal_id=row.id)
    assert report.failed == [row.id] and row.status == WithdrawalStatus.FAILED
    assert send.state == SendState.FAILED and "reverted" in send.reason
    assert ("OUT_OF_ENERGY" if trouble == "out_of_energy" else "REVERT") in send.reason
    assert await _account(uid, "USDT") == (Decimal(5000), Decimal(0))


@pytest.mark.parametrize("tamper", ["to", "memo", "fee_limit", "owner", "expiration"])
async def test_a_node_that_builds_another_transaction_gets_no_signature(
    node: FakeTronNode, dispatch: Dispatch, tamper: str
) -> None:
    uid = await _funded_user("USDT", "10")
    row = await _approved(uid, "USDT", "TRC20", _outside(), "10", fee="0")
    node.state.tamper = tamper
    report = await dispatch.step()
    await row.refresh_from_db()
    assert report.signed == [] and "built" in report.waiting[f"w{row.id}"]  # it waits: nothing to refund yet
    assert row.status == WithdrawalStatus.APPROVED and await ChainSend.filter(withdrawal_id=row.id).count() == 0
    assert node.state.accepted == {}

    node.state.tamper = ""  # an honest node: it is sent as asked
    report = await dispatch.step()
    node.mine(FINAL)
    assert (await dispatch.step()).completed == [row.id]


async def test_an_address_that_is_not_trons_fails_before_signing(node: FakeTronNode, dispatch: Dispatch) -> None:
    uid = await _funded_user("USDT", "10")
    row = await _approved(uid, "USDT", "TRC20", "0x" + "ab" * 20, "10", fee="0")
    report = await dispatch.step()
    await row.refresh_from_db()
    assert report.failed == [row.id] and row.status == WithdrawalStatus.FAILED and node.state.built == []
    assert await _account(uid, "USDT") == (Decimal(10), Decimal(0))


class _OtherKey:
    """A key source that answers for the hot wallet's path with another key's signature."""

    def public_key(self, path: str) -> bytes:
        return KEYS.public_key(path)

    def sign_digest(self, path: str, digest: bytes) -> Signature:
        return KEYS.sign_digest(tron_signing.hot_path(7), digest)


def test_a_signature_that_does_not_recover_the_hot_wallet_is_refused() -> None:
    node = FakeTronNode()
    node.add_token(USDT)
    try:
        parameter, data = tron_signing.transfer_call(_outside(), 5)
        built = node.api_triggersmartcontract({"owner_address": HOT, "contract_address": USDT, "parameter": parameter,
                                               "function_selector": "transfer(address,uint256)",
                                               "fee_limit": FEE_LIMIT})["transaction"]  # fmt: skip
    finally:
        node.close()
    raw = bytes.fromhex(built["raw_data_hex"])
    expect = tron_signing.Expected(tron_signing.TRIGGER, HOT, USDT, data=data, fee_limit=FEE_LIMIT)
    with pytest.raises(SigningError):
        tron_signing.sign_raw(_OtherKey(), tron_signing.hot_path(), raw, expect)
    signed = tron_signing.sign_raw(KEYS, tron_signing.hot_path(), raw, expect)  # the right key: accepted
    assert signed.txid == built["txID"] and signed.expiration == built["raw_data"]["expiration"]
    signature = PB["Transaction"].FromString(bytes.fromhex(signed.raw)).signature[0]
    recovered = eth_keys.Signature(signature).recover_public_key_from_msg_hash(bytes.fromhex(signed.txid))
    assert base58(b"\x41" + recovered.to_canonical_address()) == HOT
    with pytest.raises(ValueError, match="another address"):
        tron_signing.check_raw(raw, tron_signing.Expected(tron_signing.TRIGGER, HOT, USDT, data=data[:-1] + b"\x06",
                                                          fee_limit=FEE_LIMIT))  # fmt: skip


# A real node's createtransaction answer (TRON's HTTP API docs, a Nile capture): 1 TRX, txID its sha256.
NILE_RAW = bytes.fromhex(
    "0a0229272208939ece39d08a7abe40d8c483c1dd335a67080112630a2d747970652e676f6f676c65617069732e636f6d2f70726f"
    "746f636f6c2e5472616e73666572436f6e747261637412320a1541dd791d6b49e190062d650e6a23c575510d35f2f912154192"
    "ad11c1bf16b3b14b0bd6b5c7e2db73a0b5e83a18c0843d70d68780c1dd33"
)
NILE_TXID = "6303c7639f591407ef9f34a7ac8c9c9a21151f5a6af21924502515734fc267ab"


def test_a_real_nodes_bytes_read_as_trons_layout_says_and_nothing_else_passes() -> None:
    owner, to = (
        base58(bytes.fromhex("41dd791d6b49e190062d650e6a23c575510d35f2f9")),
        base58(bytes.fromhex("4192ad11c1bf16b3b14b0bd6b5c7e2db73a0b5e83a")),
    )
    expect = tron_signing.Expected(tron_signing.TRANSFER, owner, to, amount=1_000_000)
    raw = tron_signing.check_raw(NILE_RAW, expect)  # the store's layout names every field it carries
    assert hashlib.sha256(NILE_RAW).hexdigest() == NILE_TXID and raw.SerializeToString() == NILE_RAW
    assert tron_signing.expiration_of(NILE_RAW) == 1777447527000 and raw.timestamp == 1777447470038
    assert raw.contract[0].parameter.type_url == "type.googleapis.com/protocol.TransferContract"
    with pytest.raises(ValueError, match="another address"):
        tron_signing.check_raw(NILE_RAW, tron_signing.Expected(tron_signing.TRANSFER, owner, to, amount=999_999))
    for tampered, why in [
        (NILE_RAW + bytes.fromhex("4001"), "not written as protobuf"),  # expiration again: a parser takes the last
        (NILE_RAW + b"\x52\x04memo", "not written as protobuf"),  # the memo (data, 10) after timestamp (14)
        (NILE_RAW + bytes.fromhex("a80101"), "carries fields"),  # field 21, unknown to TRON's layout
        (NILE_RAW[:-1], "not a protocol.Transaction.raw"),  # truncated
    ]:
        with pytest.raises(ValueError, match=why):
            tron_signing.check_raw(tampered, expect)


async def test_the_signer_sends_on_tron_when_its_node_is_set(settings: Settings) -> None:
    assert "TRC20" not in sending_chains(settings)
    tron = settings.model_copy(update={"tron_rpc_url": "http://127.0.0.1:9", "trc20_contracts": {"USDT": USDT},
                                       "tron_fee_limit_sun": 7_000_000})  # fmt: skip
    assert sending_chains(tron) == [*sending_chains(settings), "TRC20"]
    found, _ = dispatches(tron)
    (sender,) = [d.sender for d in found if d.chain == "TRC20"]
    assert isinstance(sender, TronSender) and sender.hot == HOT and sender.tokens == {"USDT": USDT}
    assert sender.fee_limit == 7_000_000 and sender.node.url == "http://127.0.0.1:9"
    for dispatch in found:
        await dispatch.sender.node.aclose()


async def test_the_client_tells_a_node_down_from_one_that_refuses(node: FakeTronNode) -> None:
    async with TronNode("http://127.0.0.1:9") as down:  # nothing listens there
        with pytest.raises(NodeUnreachable):
            await down.now_block()
    async with TronNode(node.url) as client:
        with pytest.raises(NodeRefused) as refused:
            await client.create_transfer(HOT, _outside(), 10**15)  # more TRX than the hot wallet holds
        assert "balance is not sufficient" in refused.value.node_message
        assert await client.transaction_info("00" * 32) is None and not await client.pending("00" * 32)
        assert await client.block(10**9) is None and (await client.now_block()).number == node.state.height
