"""The dev EVM chain's own calls (mining, snapshots), and signing a transaction with eth-account the way
the faucet and the tests do. Development and tests only: the Signer owns production signing."""

from __future__ import annotations

from typing import Any

from eth_account import Account
from eth_utils import to_checksum_address

from store.chain_rpc.evm import EvmNode


class DevEvmNode(EvmNode):
    """An ``EvmNode`` on the dev chain, with the calls only a test chain answers."""

    async def mine(self, blocks: int = 1) -> list[str]:
        return await self.rpc.call("evm_mine", blocks)

    async def snapshot(self) -> str:
        return await self.rpc.call("evm_snapshot")

    async def revert(self, snapshot: str) -> None:
        await self.rpc.call("evm_revert", snapshot)


async def signed_tx(node: EvmNode, key: str, **call: Any) -> tuple[str, str]:
    """A type-2 transaction from ``key``'s account, signed with the node's nonce and fee data: (raw
    hex, tx hash). ``call`` holds to, value, gas and data."""
    account = Account.from_key(key)
    if call.get("to"):
        call["to"] = to_checksum_address(call["to"])  # eth-account takes no other spelling
    fees = await node.fee_data()
    tx = {
        "chainId": await node.chain_id(),
        "nonce": await node.nonce(account.address),
        "maxFeePerGas": fees.max_fee,
        "maxPriorityFeePerGas": fees.max_priority_fee,
        "type": 2,
        "value": 0,
        "gas": 21_000,
        **call,
    }
    signed = account.sign_transaction(tx)
    return "0x" + signed.raw_transaction.hex().removeprefix("0x"), "0x" + signed.hash.hex().removeprefix("0x")
