"""UtxoNode against a real litecoind in regtest: blocks by height and hash, a send seen in a block with
its outputs, a reorg by invalidateblock, a refused raw transaction, and the typed errors."""

from __future__ import annotations

import socket
from decimal import Decimal

import pytest

from store.chain_rpc import utxo
from store.chain_rpc.devnet.litecoin import LitecoinRegtest, RegtestNode
from store.chain_rpc.jsonrpc import NodeBadReply, NodeRefused, NodeUnreachable
from store.chain_rpc.utxo import UtxoNode


async def test_the_chain_is_followed_by_height_and_hash(ltc: RegtestNode, litecoin: LitecoinRegtest) -> None:
    assert await ltc.chain() == "regtest"
    mined = await ltc.generate_to_address(3, litecoin.mining_address)
    tip = await ltc.block_count()
    assert await ltc.block_hashes([tip - 2, tip - 1, tip]) == mined
    assert await ltc.best_block_hash() == mined[-1]
    header = await ltc.block_header(mined[-1])
    assert (header.height, header.previous_hash, header.confirmations) == (tip, mined[-2], 1)
    assert header.on_main_chain
    with pytest.raises(NodeRefused) as above_tip:
        await ltc.block_hash(tip + 1)
    assert above_tip.value.code == utxo.OUT_OF_RANGE


async def test_a_send_is_seen_in_the_next_block_with_its_outputs(ltc: RegtestNode, litecoin: LitecoinRegtest) -> None:
    deposit_address = await ltc.new_address(label="a deposit address")
    txid = await ltc.send_to_address(deposit_address, Decimal("1.25"))
    assert txid in await ltc.mempool_txids()

    (block_hash,) = await ltc.generate_to_address(1, litecoin.mining_address)
    block = await ltc.block(block_hash)
    (tx,) = [t for t in block.txs if t.txid == txid]
    (paid,) = tx.paid_to({deposit_address})
    assert paid.value == Decimal("1.25") and isinstance(paid.value, Decimal)
    assert paid.script_type == "witness_v0_keyhash"
    assert all(i.txid for i in tx.inputs)  # spends earlier outputs, not a coinbase
    assert block.txs[0].inputs[0].txid is None  # the coinbase

    found = await ltc.transaction(txid)
    assert (found.block_hash, found.confirmations) == (block_hash, 1)
    (unspent,) = await ltc.list_unspent(addresses=[deposit_address])
    assert (unspent.txid, unspent.vout, unspent.amount) == (txid, paid.n, Decimal("1.25"))
    assert await ltc.balance() > 0
    assert await ltc.estimate_smart_fee(2) is None  # a regtest chain has no fee history


async def test_invalidateblock_is_a_reorg_seen_as_a_changed_hash_at_the_height(
    ltc: RegtestNode, litecoin: LitecoinRegtest
) -> None:
    deposit_address = await ltc.new_address()
    txid = await ltc.send_to_address(deposit_address, Decimal("0.5"))
    (orphaned,) = await ltc.generate_to_address(1, litecoin.mining_address)
    height = await ltc.block_count()

    await ltc.invalidate_block(orphaned)
    assert await ltc.block_count() == height - 1
    assert (await ltc.block_header(orphaned)).confirmations == -1  # the watcher's test: off the main chain
    assert txid in await ltc.mempool_txids()  # the deposit is unconfirmed again

    other_miner = await ltc.new_address(label="another miner")
    (replacement,) = await ltc.generate_to_address(1, other_miner)
    assert replacement != orphaned and await ltc.block_hash(height) == replacement
    assert txid in [t.txid for t in (await ltc.block(replacement)).txs]  # mined again, in another block

    # As much work as the replacement, and seen first: the node goes back to it (a reorg the other way).
    await ltc.reconsider_block(orphaned)
    assert await ltc.block_hash(height) == orphaned
    assert (await ltc.block_header(replacement)).confirmations == -1


async def test_a_raw_transaction_the_node_refuses_is_a_typed_error(ltc: RegtestNode, litecoin: LitecoinRegtest) -> None:
    txid = await ltc.send_to_address(await ltc.new_address(), Decimal("0.1"))
    await ltc.generate_to_address(1, litecoin.mining_address)
    raw = await ltc.raw_transaction(txid)

    verdict = await ltc.test_mempool_accept(raw)
    assert (verdict.txid, verdict.allowed) == (txid, False) and verdict.reason
    with pytest.raises(NodeRefused) as mined_already:
        await ltc.send_raw_transaction(raw)
    assert mined_already.value.code == utxo.ALREADY_IN_CHAIN
    with pytest.raises(NodeRefused) as junk:
        await ltc.send_raw_transaction("00")
    assert junk.value.code == -22  # RPC_DESERIALIZATION_ERROR
    with pytest.raises(NodeRefused) as unknown:
        await ltc.transaction("00" * 32)
    assert unknown.value.code == utxo.NOT_FOUND


async def test_wrong_credentials_and_a_silent_port_are_not_refusals(litecoin: LitecoinRegtest) -> None:
    wrong = litecoin.url.replace("exchange:", "exchange:x", 1)
    async with UtxoNode(wrong) as node:
        with pytest.raises(NodeBadReply) as unauthorised:  # HTTP 401 without a JSON-RPC body
            await node.block_count()
    assert "401" in str(unauthorised.value) and "x" not in unauthorised.value.url.split("@")[0].split(":")[-1]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    async with UtxoNode(f"http://u:p@127.0.0.1:{port}", timeout=2) as node:
        with pytest.raises(NodeUnreachable) as caught:
            await node.block_count()
    assert "p@" not in str(caught.value)  # the password never lands in a message
