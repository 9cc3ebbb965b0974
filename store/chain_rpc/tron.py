"""A client for a TRON full node's HTTP API (``/wallet/*``), what the Signer needs to send TRX and TRC20
withdrawals (docs/decisions.md "TRON withdrawals").

TRON's own API, not its eth-compatible JSON-RPC: that one cannot build or broadcast a TRON transaction.
The node builds an unsigned transaction (``createtransaction`` for TRX, ``triggersmartcontract`` for a
TRC20 ``transfer``) and answers its protobuf bytes (``raw_data_hex``); the Signer checks those bytes
and signs them (store/chain/tron_signing.py), then hands the whole signed protobuf to
``broadcasthex``, so the bytes stored before the broadcast are exactly the bytes the chain executes
(``broadcasttransaction`` would take JSON and re-encode it on the node). Receipts come from
``gettransactioninfobyid``, the mempool from ``gettransactionfrompending``, whether a block holds a
transaction from ``gettransactionbyid``, heights and block times from ``getnowblock`` and
``getblockbynum``.

The failures are the node clients' three (store/chain_rpc/jsonrpc.py): ``NodeUnreachable``,
``NodeBadReply``, and ``NodeRefused`` with TRON's own code (``DUP_TRANSACTION_ERROR``,
``CONTRACT_VALIDATE_ERROR`` …) in ``data``; TRON has no numeric codes, so ``code`` is 0. Amounts are
ints in SUN or a token's base units; addresses go out in base58 (``visible``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import httpx

from store.chain_rpc.jsonrpc import DEFAULT_TIMEOUT_S, Closing, NodeBadReply, NodeRefused, NodeUnreachable, _redacted

TRANSFER_SELECTOR = "transfer(address,uint256)"  # its keccak starts a9059cbb, as on EVM chains


@dataclass(frozen=True)
class Unsigned:
    """A transaction the node built: its id as the node says, and the protobuf bytes to be signed."""

    txid: str
    raw: bytes


@dataclass(frozen=True)
class TronBlock:
    number: int
    timestamp: int  # milliseconds


@dataclass(frozen=True)
class TxInfo:
    """A mined transaction: ``result`` is ``SUCCESS`` or why it failed (``REVERT``, ``OUT_OF_ENERGY`` …)."""

    block_number: int
    result: str
    fee: int  # SUN burnt

    @property
    def succeeded(self) -> bool:
        return self.result == "SUCCESS"


def node_text(message: Any) -> str:
    """TRON answers many messages as the hex of their UTF-8 text: the text, else the message as given."""
    text = str(message or "")
    try:
        decoded = bytes.fromhex(text).decode()
    except ValueError:
        return text
    return decoded if decoded.isprintable() else text


class TronNode(Closing):
    """One TRON full node's HTTP API at ``url`` (credentials may ride in it as user:password)."""

    def __init__(self, url: str, *, timeout: float = DEFAULT_TIMEOUT_S, headers: dict[str, str] | None = None) -> None:
        parsed = httpx.URL(url)
        auth = (parsed.username, parsed.password) if parsed.username else None
        self.url = str(parsed.copy_with(username=None, password=None)).rstrip("/")
        self.label = _redacted(url)
        self._http = httpx.AsyncClient(timeout=timeout, auth=auth, headers=headers)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """The JSON object ``path`` answers; an ``Error`` answer is ``NodeRefused``."""
        try:
            response = await self._http.post(f"{self.url}{path}", content=json.dumps(body).encode(),
                                             headers={"Content-Type": "application/json"})  # fmt: skip
        except httpx.TransportError as exc:
            detail = str(exc) or type(exc).__name__
            raise NodeUnreachable(f"{path}: {self.label} unreachable: {detail}", url=self.label, method=path) from exc
        try:
            reply = json.loads(response.content, parse_float=Decimal)
        except ValueError as exc:
            raise NodeBadReply(f"{path}: HTTP {response.status_code} without JSON from {self.label}",
                               url=self.label, method=path) from exc  # fmt: skip
        if not isinstance(reply, dict):
            raise NodeBadReply(f"{path}: reply is not an object", url=self.label, method=path)
        if "Error" in reply:
            raise NodeRefused(0, node_text(reply["Error"]), url=self.label, method=path, data="Error")
        if response.status_code >= 400:  # a proxy's error is no answer: its {} must not read as "unknown"
            raise NodeBadReply(f"{path}: HTTP {response.status_code} from {self.label}", url=self.label, method=path)
        return reply

    def _refused(self, path: str, result: dict[str, Any]) -> NodeRefused:
        code = str(result.get("code") or "OTHER_ERROR")
        return NodeRefused(0, f"{code}: {node_text(result.get('message'))}", url=self.label, method=path, data=code)

    def _unsigned(self, path: str, tx: Any) -> Unsigned:
        try:
            return Unsigned(txid=str(tx["txID"]), raw=bytes.fromhex(tx["raw_data_hex"]))
        except (TypeError, KeyError, ValueError) as exc:
            raise NodeBadReply(f"{path}: no transaction in the reply", url=self.label, method=path) from exc

    # -- following the chain ------------------------------------------------------------------------

    async def now_block(self) -> TronBlock:
        """The latest block."""
        block = await self.block_at("/wallet/getnowblock", {})
        if block is None:
            raise NodeBadReply("/wallet/getnowblock: no block", url=self.label, method="/wallet/getnowblock")
        return block

    async def block(self, number: int) -> TronBlock | None:
        """The block at ``number`` (None above the tip)."""
        return await self.block_at("/wallet/getblockbynum", {"num": number})

    async def block_at(self, path: str, body: dict[str, Any]) -> TronBlock | None:
        reply = await self.post(path, body)
        if not reply:
            return None
        try:
            header = reply["block_header"]["raw_data"]
            return TronBlock(number=int(header.get("number", 0)), timestamp=int(header["timestamp"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise NodeBadReply(f"{path}: not a block", url=self.label, method=path) from exc

    async def transaction_info(self, txid: str) -> TxInfo | None:
        """A mined transaction's block and result; None while it is pending or unknown."""
        info = await self.post("/wallet/gettransactioninfobyid", {"value": txid})
        if "blockNumber" not in info:
            return None
        # A contract call's outcome is its receipt's result (SUCCESS, REVERT, OUT_OF_ENERGY …); a TRX
        # transfer has none. ``result`` appears only as FAILED.
        result = str((info.get("receipt") or {}).get("result") or "SUCCESS")
        if info.get("result") == "FAILED" and result == "SUCCESS":
            result = "FAILED"
        return TxInfo(block_number=int(info["blockNumber"]), result=result, fee=int(info.get("fee", 0)))

    async def known(self, txid: str) -> bool:
        """Whether the node holds the transaction in a block (``gettransactionbyid``)."""
        return bool(await self.post("/wallet/gettransactionbyid", {"value": txid}))

    async def pending(self, txid: str) -> bool:
        """Whether the transaction waits in the node's pending pool."""
        return bool(await self.post("/wallet/gettransactionfrompending", {"value": txid}))

    # -- accounts and tokens ------------------------------------------------------------------------

    async def balance(self, address: str) -> int:
        """TRX in SUN (0 for an account the chain has not seen yet)."""
        return int((await self.post("/wallet/getaccount", {"address": address, "visible": True})).get("balance", 0))

    async def constant_call(self, contract: str, selector: str, parameter: str = "", *, owner: str) -> str:
        """A read-only contract call (``triggerconstantcontract``): the returned bytes as hex."""
        path = "/wallet/triggerconstantcontract"
        call = {"function_selector": selector, "parameter": parameter, "visible": True}
        reply = await self.post(path, {"owner_address": owner, "contract_address": contract, **call})
        result = reply.get("result") or {}
        if not result.get("result"):
            raise self._refused(path, result)
        return str((reply.get("constant_result") or ["0"])[0]) or "0"

    async def token_balance(self, token: str, holder: str, *, word: str) -> int:
        """TRC20 ``balanceOf(holder)``; ``word`` is the holder as a 32-byte ABI word."""
        return int(await self.constant_call(token, "balanceOf(address)", word, owner=holder), 16)

    async def token_decimals(self, token: str, *, owner: str) -> int:
        return int(await self.constant_call(token, "decimals()", owner=owner), 16)

    # -- sending ------------------------------------------------------------------------------------

    async def create_transfer(self, owner: str, to: str, amount: int) -> Unsigned:
        """An unsigned TRX transfer of ``amount`` SUN."""
        path = "/wallet/createtransaction"
        tx = await self.post(path, {"owner_address": owner, "to_address": to, "amount": amount, "visible": True})
        return self._unsigned(path, tx)

    async def trigger(self, owner: str, contract: str, selector: str, parameter: str, *, fee_limit: int) -> Unsigned:
        """An unsigned contract call (a TRC20 ``transfer``) paying at most ``fee_limit`` SUN for its energy."""
        path = "/wallet/triggersmartcontract"
        reply = await self.post(path, {"owner_address": owner, "contract_address": contract,
                                       "function_selector": selector, "parameter": parameter,
                                       "fee_limit": fee_limit, "call_value": 0, "visible": True})  # fmt: skip
        result = reply.get("result") or {}
        if not result.get("result"):
            raise self._refused(path, result)
        return self._unsigned(path, reply.get("transaction"))

    async def broadcast_hex(self, signed_hex: str) -> None:
        """Broadcast a signed transaction's protobuf; ``NodeRefused`` with TRON's code in ``data``
        (``DUP_TRANSACTION_ERROR``: the node has it already; ``TRANSACTION_EXPIRATION_ERROR`` …)."""
        path = "/wallet/broadcasthex"
        reply = await self.post(path, {"transaction": signed_hex.removeprefix("0x")})
        # Taken: ``result`` true and ``code`` SUCCESS (some nodes answer {}); a reply taken wrongly only
        # means the next step finds the transaction unknown and broadcasts it again.
        if reply.get("result") is False or reply.get("code") not in (None, "SUCCESS"):
            raise self._refused(path, reply)
