"""EvmNode against the real dev EVM node: blocks, USDT Transfer logs to one address, a signed raw
transaction and its receipt, a reorg by snapshot/revert, and the typed errors."""

from __future__ import annotations

import socket
from decimal import Decimal
from typing import Any

import pytest
from eth_account import Account
from eth_utils import keccak

from store.chain_rpc import evm as evm_module
from store.chain_rpc.devnet import faucet
from store.chain_rpc.devnet.clients import DevEvmNode, signed_tx
from store.chain_rpc.evm import EvmNode, transfer_data
from store.chain_rpc.jsonrpc import NodeRefused, NodeUnreachable

ALICE = Account.from_key("0x" + "a1" * 32).address.lower()
BOB = Account.from_key("0x" + "b0" * 32).address.lower()


def usdt(info: dict[str, Any]) -> str:
    return info["tokens"]["USDT"]["address"]


def test_the_abi_constants_are_the_keccak_of_their_signatures() -> None:
    assert evm_module.TRANSFER_TOPIC == "0x" + keccak(text="Transfer(address,address,uint256)").hex()
    for constant, signature in [
        (evm_module.BALANCE_OF, "balanceOf(address)"),
        (evm_module.DECIMALS, "decimals()"),
        (evm_module.TRANSFER, "transfer(address,uint256)"),
    ]:
        assert constant == "0x" + keccak(text=signature)[:4].hex()


async def test_blocks_chain_by_parent_hash(evm: DevEvmNode, evm_chain: dict[str, Any]) -> None:
    mined = await evm.mine(2)
    tip = await evm.block_number()
    top, below = await evm.block(tip), await evm.block(tip - 1)
    assert top is not None and below is not None
    assert [below.hash, top.hash] == mined
    assert top.parent_hash == below.hash and top.base_fee_per_gas is not None
    assert await evm.block_hashes([tip - 1, tip, tip + 1]) == [below.hash, top.hash, None]
    assert await evm.block(tip + 1) is None
    assert await evm.chain_id() == evm_chain["chain_id"]


async def test_usdt_transfers_are_found_by_token_and_receiving_address(
    evm: DevEvmNode, evm_chain: dict[str, Any]
) -> None:
    token = usdt(evm_chain)
    assert await evm.token_decimals(token) == 6
    to_alice = await faucet.send_evm(evm_chain, to=ALICE, amount=Decimal("250"), currency="USDT")
    to_bob = await faucet.send_evm(evm_chain, to=BOB, amount=Decimal("0.000001"), currency="USDT")
    (block_hash,) = await evm.mine()
    height = await evm.block_number()

    logs = await evm.transfer_logs(tokens=[token], from_block=height, to_block=height, to=[ALICE])
    assert [(log.tx_hash, log.to, log.amount, log.block_hash) for log in logs] == [
        (to_alice, ALICE, 250_000_000, block_hash)
    ]
    assert logs[0].sender == evm_chain["faucet"]["address"] and logs[0].token == token
    both = await evm.transfer_logs(tokens=[token], from_block=height, to_block=height)
    assert {(log.tx_hash, log.amount) for log in both} == {(to_alice, 250_000_000), (to_bob, 1)}
    assert await evm.token_balance(token, ALICE) == 250_000_000
    assert await evm.transfer_logs(tokens=[ALICE], from_block=height, to_block=height) == []  # not a token


async def test_a_signed_raw_transaction_is_pending_then_mined_with_its_receipt(
    evm: DevEvmNode, evm_chain: dict[str, Any]
) -> None:
    key = evm_chain["faucet"]["private_key"]
    before = await evm.balance(BOB)
    raw, tx_hash = await signed_tx(evm, key, to=Account.from_key("0x" + "b0" * 32).address, value=10**15)
    assert await evm.send_raw_transaction(raw) == tx_hash
    assert await evm.receipt(tx_hash) is None  # in the pending block until the next one is mined
    assert (
        await evm.nonce(evm_chain["faucet"]["address"]) == await evm.nonce(evm_chain["faucet"]["address"], "latest") + 1
    )

    (block_hash,) = await evm.mine()
    receipt = await evm.receipt(tx_hash)
    assert receipt is not None and receipt.succeeded and receipt.block_hash == block_hash
    assert receipt.gas_used == 21_000 and receipt.effective_gas_price
    block = await evm.block(receipt.block_number)
    assert block is not None
    (tx,) = [t for t in block.transactions if t.hash == tx_hash]
    assert (tx.sender, tx.to, tx.value) == (evm_chain["faucet"]["address"], BOB, 10**15)
    assert await evm.balance(BOB) == before + 10**15


async def test_eip1559_fees_come_from_the_fee_history(evm: DevEvmNode) -> None:
    fees = await evm.fee_data()
    pending = await evm.block("pending")
    assert pending is not None and fees.base_fee == pending.base_fee_per_gas
    assert fees.max_priority_fee == 10**9
    assert fees.max_fee == 2 * fees.base_fee + fees.max_priority_fee


async def test_a_transaction_the_node_refuses_is_a_typed_error(evm: DevEvmNode, evm_chain: dict[str, Any]) -> None:
    raw, _ = await signed_tx(evm, evm_chain["faucet"]["private_key"], to=BOB, value=1)
    await evm.send_raw_transaction(raw)
    await evm.mine()
    with pytest.raises(NodeRefused) as replayed:  # its nonce is used now
        await evm.send_raw_transaction(raw)
    assert replayed.value.code == -32000 and replayed.value.method == "eth_sendRawTransaction"

    broke = "0x" + "c4" * 32  # an account with no ether for gas
    raw, _ = await signed_tx(evm, broke, to=BOB, value=1)
    with pytest.raises(NodeRefused):
        await evm.send_raw_transaction(raw)
    with pytest.raises(NodeRefused) as unknown:
        await evm.rpc.call("eth_noSuchMethod")
    assert unknown.value.code == -32601


async def test_a_revert_to_a_snapshot_is_a_reorg_seen_as_a_changed_block_hash(
    evm: DevEvmNode, evm_chain: dict[str, Any]
) -> None:
    token = usdt(evm_chain)
    snapshot = await evm.snapshot()
    height = await evm.block_number() + 1
    tx_hash = await faucet.send_evm(evm_chain, to=ALICE, amount=Decimal("7"), currency="USDT")
    (first,) = await evm.mine()
    assert len(await evm.transfer_logs(tokens=[token], from_block=height, to_block=height, to=[ALICE])) == 1

    await evm.revert(snapshot)
    (second,) = await evm.mine()  # the chain at that height again, without the transfer
    assert second != first
    assert await evm.block_hashes([height]) == [second]
    assert await evm.transfer_logs(tokens=[token], from_block=height, to_block=height, to=[ALICE]) == []
    assert await evm.receipt(tx_hash) is None


async def test_batch_keeps_each_calls_result_or_refusal(evm: DevEvmNode) -> None:
    tip = await evm.block_number()
    results = await evm.rpc.batch_outcomes([("eth_blockNumber", []), ("eth_noSuchMethod", []), ("eth_chainId", [])])
    assert int(results[0], 16) >= tip and isinstance(results[1], NodeRefused) and results[2].startswith("0x")
    with pytest.raises(NodeRefused):
        await evm.rpc.batch([("eth_blockNumber", []), ("eth_noSuchMethod", [])])
    assert await evm.rpc.batch([]) == []


async def test_a_node_that_does_not_answer_is_unreachable_not_refused() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once the socket closes
    async with EvmNode(f"http://127.0.0.1:{port}/", timeout=2) as node:
        with pytest.raises(NodeUnreachable) as caught:
            await node.block_number()
    assert caught.value.method == "eth_blockNumber"


def test_the_faucet_refuses_amounts_finer_than_the_currency() -> None:
    with pytest.raises(ValueError):
        faucet.base_units(Decimal("0.0000001"), 6)
    with pytest.raises(ValueError):
        faucet.base_units(Decimal("-1"), 6)
    assert faucet.base_units(Decimal("1.5"), 6) == 1_500_000
    assert transfer_data(ALICE, 1).startswith(evm_module.TRANSFER)
