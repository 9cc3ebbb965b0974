"""Ethereum JSON-RPC answered by an in-process EVM (``eth-tester`` over ``py-evm``), for development and
tests only.

eth-tester speaks Python (snake_case keys, ints, its own exceptions), not JSON-RPC. This module is the
translation, so the exchange's production client (``store.chain_rpc.evm.EvmNode``) talks to the dev
chain exactly as it talks to a real node: camelCase keys, hex quantities, ``null`` for an unknown
block or a pending receipt, JSON-RPC errors for refusals. It covers the methods the exchange uses, plus
``evm_mine``, ``evm_snapshot`` and ``evm_revert`` (as Hardhat and Anvil name them) for tests.

Not thread-safe: the server calls ``handle`` from one event loop, one request at a time.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from eth_tester import EthereumTester, PyEVMBackend
from eth_tester.exceptions import BlockNotFound, TransactionNotFound

METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
SERVER_ERROR = -32000  # what geth answers for most refusals (bad nonce, revert, underpriced)
TAGS = ("latest", "earliest", "pending", "safe", "finalized")
PRIORITY_FEE = 10**9  # the tip this chain suggests: 1 gwei
TX_INT_FIELDS = ("value", "gas", "gasPrice", "maxFeePerGas", "maxPriorityFeePerGas", "nonce")
_CAMEL = re.compile(r"_([a-z])")


class RpcError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _camel(key: str) -> str:
    return _CAMEL.sub(lambda m: m.group(1).upper(), key)


def encode(value: Any, key: str = "") -> Any:
    """An eth-tester result as JSON-RPC: ints as hex quantities, bytes as hex data, camelCase keys."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return "0x" + format(value, "0512x") if key == "logs_bloom" else hex(value)
    if isinstance(value, bytes):
        return "0x" + value.hex()
    if isinstance(value, dict):
        return {_camel(k): encode(v, k) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    return value


def _tx_json(tx: dict[str, Any]) -> dict[str, Any]:
    """eth-tester's transaction as a node shows one: call data under ``input``, ``to`` null for a creation."""
    tx = dict(tx)
    tx["input"] = tx.pop("data", "0x")
    tx["to"] = tx.get("to") or None
    return tx


def _block_json(block: dict[str, Any]) -> dict[str, Any]:
    txs = block["transactions"]
    return {**block, "transactions": [t if isinstance(t, str) else _tx_json(t) for t in txs]}


def _block_id(tag: str | int) -> str | int:
    if isinstance(tag, int) or tag in TAGS:
        return tag
    return int(tag, 16)


def _tx_params(tx: dict[str, Any], sender: str) -> dict[str, Any]:
    """A JSON-RPC transaction object (``eth_call``, ``eth_estimateGas``) as eth-tester takes it (which,
    unlike a node, needs a sender that can pay for the gas: ``sender`` when none is given)."""
    out: dict[str, Any] = {"from": sender}
    for key, value in tx.items():
        if value is None:
            continue
        if key in TX_INT_FIELDS:
            value = int(value, 16) if isinstance(value, str) else value
        if key == "input":
            key = "data"
        out[re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), key)] = value
    return out


class DevEvm:
    """One dev chain. Transactions wait in the pending block until ``mine`` (the server's block timer
    or ``evm_mine``), as on a live chain; ``pending`` reads (the nonce) count them."""

    def __init__(self) -> None:
        self.backend = PyEVMBackend()
        self.tester = EthereumTester(self.backend, auto_mine_transactions=False)
        self.methods: dict[str, Callable[..., Any]] = {
            "web3_clientVersion": lambda: "exchange-devnet/eth-tester",
            "net_version": lambda: str(self.chain_id),
            "eth_chainId": lambda: hex(self.chain_id),
            "eth_blockNumber": lambda: hex(self.tester.get_block_by_number("latest")["number"]),
            "eth_accounts": self.tester.get_accounts,
            "eth_getBlockByNumber": self._block_by_number,
            "eth_getBlockByHash": self._block_by_hash,
            "eth_getTransactionByHash": self._transaction,
            "eth_getTransactionReceipt": self._receipt,
            "eth_getLogs": self._logs,
            "eth_getBalance": lambda a, b="latest": hex(self.tester.get_balance(a, _block_id(b))),
            "eth_getTransactionCount": lambda a, b="latest": hex(self.tester.get_nonce(a, _block_id(b))),
            "eth_getCode": lambda a, b="latest": self.tester.get_code(a, _block_id(b)),
            "eth_call": lambda tx, b="latest": self.tester.call(self._tx(tx), _block_id(b)),
            "eth_estimateGas": lambda tx, b="latest": hex(self.tester.estimate_gas(self._tx(tx), _block_id(b))),
            "eth_sendRawTransaction": self._send_raw,
            "eth_sendTransaction": lambda tx: self.tester.send_transaction(self._tx(tx)),
            "eth_gasPrice": lambda: hex(self._next_base_fee() + PRIORITY_FEE),
            "eth_maxPriorityFeePerGas": lambda: hex(PRIORITY_FEE),
            "eth_feeHistory": self._fee_history,
            "evm_mine": lambda count=1: self.mine(int(count, 16) if isinstance(count, str) else count),
            "evm_snapshot": lambda: hex(self.tester.take_snapshot()),
            "evm_revert": self._revert,
        }

    @property
    def chain_id(self) -> int:
        return self.backend.chain.chain_id

    def mine(self, count: int = 1) -> list[str]:
        """Mine ``count`` blocks with what is pending; their hashes."""
        return self.tester.mine_blocks(count)

    def handle(self, request: Any) -> dict[str, Any] | None:
        """One JSON-RPC request object -> its reply (None for a notification, which has no id)."""
        if not isinstance(request, dict) or not isinstance(request.get("method"), str):
            return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "invalid request"}}
        request_id = request.get("id")
        try:
            result = self.call(request["method"], request.get("params") or [])
            reply: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "result": result}
        except RpcError as exc:
            reply = {"jsonrpc": "2.0", "id": request_id, "error": {"code": exc.code, "message": exc.message}}
        return reply if "id" in request else None

    def call(self, method: str, params: list[Any]) -> Any:
        handler = self.methods.get(method)
        if handler is None:
            raise RpcError(METHOD_NOT_FOUND, f"the method {method} does not exist/is not available")
        try:
            return encode(handler(*params))
        except RpcError:
            raise
        except (TypeError, KeyError) as exc:
            raise RpcError(INVALID_PARAMS, f"invalid params for {method}: {exc}") from exc
        except Exception as exc:  # noqa: BLE001 - eth-tester's refusals (ValidationError, TransactionFailed ...)
            raise RpcError(SERVER_ERROR, str(exc) or type(exc).__name__) from exc

    # -- methods that need more than a lambda -------------------------------------------------------

    def _tx(self, tx: dict[str, Any]) -> dict[str, Any]:
        return _tx_params(tx, self.tester.get_accounts()[0])

    def _send_raw(self, raw_hex: str) -> bytes:
        """Into the pending block at once, as a node's mempool takes it. eth-tester's own
        ``send_raw_transaction`` checks each transaction against the last mined state and keeps it
        aside, so a sender's second transaction before the next block would be refused for its nonce."""
        return self.backend.send_raw_transaction(bytes.fromhex(raw_hex.removeprefix("0x")))

    def _block_by_number(self, tag: str, full: bool = False) -> dict[str, Any] | None:
        try:
            return _block_json(self.tester.get_block_by_number(_block_id(tag), full_transactions=full))
        except BlockNotFound:
            return None

    def _block_by_hash(self, block_hash: str, full: bool = False) -> dict[str, Any] | None:
        try:
            return _block_json(self.tester.get_block_by_hash(block_hash, full_transactions=full))
        except BlockNotFound:
            return None

    def _transaction(self, tx_hash: str) -> dict[str, Any] | None:
        try:
            return _tx_json(self.tester.get_transaction_by_hash(tx_hash))
        except TransactionNotFound:
            return None

    def _receipt(self, tx_hash: str) -> dict[str, Any] | None:
        try:
            receipt = self.tester.get_transaction_receipt(tx_hash)
        except TransactionNotFound:
            return None
        return receipt if receipt.get("block_number") is not None else None  # pending: no receipt yet

    def _logs(self, query: dict[str, Any]) -> list[dict[str, Any]]:
        if "blockHash" in query:
            number = self.tester.get_block_by_hash(query["blockHash"])["number"]
            start = end = number
        else:
            start, end = (_block_id(query.get(k, "latest")) for k in ("fromBlock", "toBlock"))
        latest = self.tester.get_block_by_number("latest")["number"]
        start, end = (latest if b in TAGS else b for b in (start, end))
        addresses = query.get("address")
        address = [addresses] if isinstance(addresses, str) else addresses
        topics = query.get("topics")
        logs = self.tester.get_logs(from_block=start, to_block=end, address=address, topics=topics)
        return [{**log, "removed": False} for log in logs]

    def _next_base_fee(self) -> int:
        return self.tester.get_block_by_number("pending")["base_fee_per_gas"]

    def _fee_history(self, count: str | int, newest: str, percentiles: list[float] | None = None) -> dict[str, Any]:
        blocks_asked = int(count, 16) if isinstance(count, str) else count
        newest_id = _block_id(newest)  # a str only when it is a tag (latest, pending ...)
        last: int = self.tester.get_block_by_number(newest_id)["number"] if isinstance(newest_id, str) else newest_id
        first = max(0, last - blocks_asked + 1)
        blocks = [self.tester.get_block_by_number(n, full_transactions=True) for n in range(first, last + 1)]
        rewards = []
        for block in blocks:
            tips = sorted(
                min(tx.get("max_priority_fee_per_gas", 0), tx.get("max_fee_per_gas", 0) - block["base_fee_per_gas"])
                for tx in block["transactions"]
                if "max_fee_per_gas" in tx
            )
            rewards.append([_percentile(tips, p) for p in percentiles or []])
        return {
            "oldest_block": first,
            "base_fee_per_gas": [b["base_fee_per_gas"] for b in blocks] + [self._next_base_fee()],
            "gas_used_ratio": [b["gas_used"] / b["gas_limit"] for b in blocks],  # a ratio: a float by spec
            "reward": rewards,
        }

    def _revert(self, snapshot: str | int) -> bool:
        self.tester.revert_to_snapshot(int(snapshot, 16) if isinstance(snapshot, str) else snapshot)
        return True


def _percentile(values: list[int], percent: float) -> int:
    """The nearest-rank percentile of sorted ``values`` (0 for a block without EIP-1559 transactions)."""
    if not values:
        return 0
    return values[min(len(values) - 1, int(len(values) * percent / 100))]
