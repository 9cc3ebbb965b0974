"""A client for Ethereum's JSON-RPC, which every EVM chain's node (and TRON's eth-compatible API) speaks.

What an EVM chain watcher needs (blocks with their transactions for native deposits, ERC20
``Transfer`` logs to deposit addresses for token deposits, each with the block hash that makes a reorg
visible), what a signer needs (the pending nonce, EIP-1559 fee data, broadcast of signed bytes,
receipts), and ERC20 reads. Quantities are ints in base units (wei, a token's smallest unit), never
floats; addresses and hashes come back as lowercase ``0x`` hex.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

from pydantic import BaseModel, ConfigDict

from store.chain_rpc.jsonrpc import DEFAULT_TIMEOUT_S, Closing, JsonRpcClient, NodeRefused

# keccak256("Transfer(address,address,uint256)"), and the 4-byte selectors used here (tests check all
# four against keccak).
TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
BALANCE_OF = "0x70a08231"  # balanceOf(address)
DECIMALS = "0x313ce567"  # decimals()
TRANSFER = "0xa9059cbb"  # transfer(address,uint256)


def quantity(value: int) -> str:
    """An int as a JSON-RPC quantity (``0x``-prefixed hex, no leading zeros)."""
    return hex(value)


def word(address: str) -> str:
    """An address as a 32-byte ABI word / log topic (lowercase hex, no ``0x``)."""
    return address.lower().removeprefix("0x").rjust(64, "0")


def transfer_data(to: str, amount: int) -> str:
    """The call data of ERC20 ``transfer(to, amount)``."""
    return TRANSFER + word(to) + format(amount, "064x")


# A node's quantity (hex, or an int from a test node) and address, None kept: a field the reply must have
# is read as a present value, an optional one (raw.get) as perhaps None.
@overload
def _int(value: str | int) -> int: ...
@overload
def _int(value: None) -> None: ...
def _int(value: str | int | None) -> int | None:
    if value is None:
        return None
    return value if isinstance(value, int) else int(value, 16)


@overload
def _address(value: str) -> str: ...
@overload
def _address(value: None) -> None: ...
def _address(value: str | None) -> str | None:
    return value.lower() if value else None


class _Reply(BaseModel):
    model_config = ConfigDict(frozen=True)


class EvmTx(_Reply):
    hash: str
    sender: str
    to: str | None  # None for a contract creation
    value: int  # wei
    nonce: int
    input: str
    block_number: int | None
    block_hash: str | None


class EvmBlock(_Reply):
    number: int
    hash: str
    parent_hash: str
    timestamp: int
    base_fee_per_gas: int | None  # None before London
    transactions: list[EvmTx]


class TransferLog(_Reply):
    """One ERC20 ``Transfer`` event; a deposit is identified by (tx_hash, log_index)."""

    token: str
    sender: str
    to: str
    amount: int  # token base units
    tx_hash: str
    log_index: int
    block_number: int
    block_hash: str
    removed: bool  # a node that streams logs marks those of a block reorged away


class Receipt(_Reply):
    tx_hash: str
    succeeded: bool  # status 1; a reverted transaction is mined, spent gas and moved nothing
    block_number: int
    block_hash: str
    gas_used: int
    effective_gas_price: int | None
    contract_address: str | None


class FeeData(_Reply):
    """EIP-1559 fees for the next block, wei per gas: ``max_fee`` leaves room for the base fee to
    double (two full blocks) before the transaction is priced out."""

    base_fee: int
    max_priority_fee: int
    max_fee: int


def _tx(raw: dict[str, Any]) -> EvmTx:
    return EvmTx(
        hash=raw["hash"],
        sender=_address(raw["from"]),
        to=_address(raw.get("to")),
        value=_int(raw["value"]),
        nonce=_int(raw["nonce"]),
        input=raw.get("input", "0x"),
        block_number=_int(raw.get("blockNumber")),
        block_hash=raw.get("blockHash"),
    )


def _transfer(raw: dict[str, Any]) -> TransferLog:
    topics = raw["topics"]
    return TransferLog(
        token=_address(raw["address"]),
        sender="0x" + topics[1][-40:].lower(),
        to="0x" + topics[2][-40:].lower(),
        amount=int(raw["data"], 16),
        tx_hash=raw["transactionHash"],
        log_index=_int(raw["logIndex"]),
        block_number=_int(raw["blockNumber"]),
        block_hash=raw["blockHash"],
        removed=bool(raw.get("removed", False)),
    )


class EvmNode(Closing):
    """One EVM node at ``url``. Raises the ``store.chain_rpc.jsonrpc`` errors."""

    def __init__(self, url: str, *, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self.rpc = JsonRpcClient(url, timeout=timeout)

    async def aclose(self) -> None:
        await self.rpc.aclose()

    # -- following the chain ------------------------------------------------------------------------

    async def chain_id(self) -> int:
        return _int(await self.rpc.call("eth_chainId"))

    async def block_number(self) -> int:
        """The height of the latest block."""
        return _int(await self.rpc.call("eth_blockNumber"))

    async def block(self, number: int | str = "latest") -> EvmBlock | None:
        """A block with its full transactions, by number (or ``latest``, ``pending`` …); None above
        the tip."""
        tag = quantity(number) if isinstance(number, int) else number
        raw = await self.rpc.call("eth_getBlockByNumber", tag, True)
        if raw is None:
            return None
        return EvmBlock(
            number=_int(raw["number"]),
            hash=raw["hash"],
            parent_hash=raw["parentHash"],
            timestamp=_int(raw["timestamp"]),
            base_fee_per_gas=_int(raw.get("baseFeePerGas")),
            transactions=[_tx(t) for t in raw["transactions"]],
        )

    async def block_hashes(self, numbers: Sequence[int]) -> list[str | None]:
        """The hashes of the blocks at ``numbers`` in one batch request (None above the tip): a
        watcher checking its recent cursor against the chain."""
        blocks = await self.rpc.batch([("eth_getBlockByNumber", [quantity(n), False]) for n in numbers])
        return [b["hash"] if b else None for b in blocks]

    async def transfer_logs(
        self, *, tokens: Sequence[str], from_block: int, to_block: int, to: Sequence[str] | None = None
    ) -> list[TransferLog]:
        """ERC20 ``Transfer`` events of ``tokens`` in blocks ``from_block``..``to_block`` (inclusive),
        only those paying one of ``to`` when given; in chain order."""
        topics: list[Any] = [TRANSFER_TOPIC, None]
        if to:
            topics.append(["0x" + word(a) for a in to])
        query = {
            "fromBlock": quantity(from_block),
            "toBlock": quantity(to_block),
            "address": [t.lower() for t in tokens],
            "topics": topics,
        }
        logs = [_transfer(raw) for raw in await self.rpc.call("eth_getLogs", query) if len(raw["topics"]) == 3]
        return sorted(logs, key=lambda log: (log.block_number, log.log_index))

    async def transaction(self, tx_hash: str) -> EvmTx | None:
        """A transaction the node knows (mined, or waiting in its mempool: ``block_number`` None); None
        when it knows none by that hash."""
        raw = await self.rpc.call("eth_getTransactionByHash", tx_hash)
        return None if raw is None else _tx(raw)

    async def receipt(self, tx_hash: str) -> Receipt | None:
        """A mined transaction's receipt; None while it is pending or unknown."""
        raw = await self.rpc.call("eth_getTransactionReceipt", tx_hash)
        if raw is None:
            return None
        return Receipt(
            tx_hash=raw["transactionHash"],
            succeeded=_int(raw["status"]) == 1,
            block_number=_int(raw["blockNumber"]),
            block_hash=raw["blockHash"],
            gas_used=_int(raw["gasUsed"]),
            effective_gas_price=_int(raw.get("effectiveGasPrice")),
            contract_address=_address(raw.get("contractAddress")),
        )

    # -- accounts and tokens ------------------------------------------------------------------------

    async def balance(self, address: str, block: int | str = "latest") -> int:
        """Native balance in wei."""
        tag = quantity(block) if isinstance(block, int) else block
        return _int(await self.rpc.call("eth_getBalance", address, tag))

    async def nonce(self, address: str, block: int | str = "pending") -> int:
        """The next nonce of ``address``, counting its transactions still in the mempool by default (at
        a block number: the transactions it had sent by that block)."""
        tag = quantity(block) if isinstance(block, int) else block
        return _int(await self.rpc.call("eth_getTransactionCount", address, tag))

    async def call(self, to: str, data: str, block: int | str = "latest") -> str:
        """``eth_call``: run a read-only call; the returned bytes as hex."""
        tag = quantity(block) if isinstance(block, int) else block
        return await self.rpc.call("eth_call", {"to": to, "data": data}, tag)

    async def token_balance(self, token: str, holder: str) -> int:
        """ERC20 ``balanceOf(holder)`` in the token's base units."""
        return int(await self.call(token, BALANCE_OF + word(holder)), 16)

    async def token_decimals(self, token: str) -> int:
        """ERC20 ``decimals()``."""
        return int(await self.call(token, DECIMALS), 16)

    # -- sending ------------------------------------------------------------------------------------

    async def send_raw_transaction(self, raw_hex: str) -> str:
        """Broadcast a signed transaction; its hash. ``NodeRefused`` when the node rejects it (bad
        nonce, too little for gas, bad signature)."""
        return await self.rpc.call("eth_sendRawTransaction", raw_hex)

    async def estimate_gas(self, tx: dict[str, Any]) -> int:
        return _int(await self.rpc.call("eth_estimateGas", tx))

    async def fee_data(self, *, blocks: int = 5, percentile: int = 50) -> FeeData:
        """EIP-1559 fees from the node: the next block's base fee from ``eth_feeHistory``, the tip from
        ``eth_maxPriorityFeePerGas`` (the ``percentile`` of recent tips where the node lacks it)."""
        history = await self.rpc.call("eth_feeHistory", quantity(blocks), "latest", [percentile])
        base_fee = _int(history["baseFeePerGas"][-1])  # the entry after the last block: the next one's
        try:
            tip = _int(await self.rpc.call("eth_maxPriorityFeePerGas"))
        except NodeRefused:  # not every node has it (-32601): recent tips serve as well
            rewards = sorted(_int(r[0]) for r in history.get("reward") or [] if r)
            tip = rewards[len(rewards) // 2] if rewards else 0
        return FeeData(base_fee=base_fee, max_priority_fee=tip, max_fee=2 * base_fee + tip)
