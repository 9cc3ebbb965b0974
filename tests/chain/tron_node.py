"""A local stand-in for a TRON full node's HTTP API, for the endpoints the Signer's TRON client uses
(store/chain_rpc/tron.py), checking what it receives the way a node does. No TRON node runs on this
machine, so the TRON sends are tested against this.

It builds unsigned transactions as a node does (``createtransaction``, ``triggersmartcontract``:
protobuf bytes made by the ``protobuf`` library from TRON's message layout, the id their sha256, an
expiration 60 s after the head block) and refuses a broadcast (``broadcasthex``) whose id is not the
sha256 of its raw bytes, whose one signature does not recover the owner's address (eth-keys, not the
code under test's coincurve), that expired, that it already has (``DUP_TRANSACTION_ERROR``), or whose
TRC20 call data is not ``transfer(address,uint256)`` with a clean address word. ``mine`` makes blocks
3 s apart, each taking the pending transactions not yet expired and running them: a TRC20 transfer
the owner cannot cover reverts, one whose fee limit is below its energy cost runs out of energy.
``tamper`` makes the node build a transaction other than the one asked for.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from bip_utils import Base58Decoder, Base58Encoder
from eth_keys import keys as eth_keys
from eth_utils import keccak
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

BLOCK_MS = 3000
EXPIRY_MS = 60_000
ENERGY_FEE_SUN = 13_000_000  # what a TRC20 transfer burns here (about 65,000 energy at 200 SUN)
TRANSFER_TYPE, TRIGGER_TYPE = 1, 31
_F = descriptor_pb2.FieldDescriptorProto


def _schema() -> dict[str, Any]:
    """TRON's Transaction layout (the fields used here), as message classes of the protobuf library.
    The signed Transaction's raw data is read as bytes, so its id is taken over the bytes sent.

    Deliberately not the store's layout (store/chain/tron_proto.py): this node is the other end the
    store's reading and writing is checked against, so a wrong field number or type there must not be
    shared here and pass unnoticed; and reading ``raw_data`` as bytes checks the id against the bytes
    that arrived, not against the store's own layout writing them again. (The store's layout is checked
    against a real node's bytes in tests/chain/test_tron_sends.py.)"""
    proto = descriptor_pb2.FileDescriptorProto(name="tron_fake.proto", package="fake", syntax="proto3")
    layout = {
        "Any": [("type_url", 1, _F.TYPE_STRING), ("value", 2, _F.TYPE_BYTES)],
        "Contract": [("type", 1, _F.TYPE_INT32), ("parameter", 2, ".fake.Any"), ("Permission_id", 5, _F.TYPE_INT32)],
        "Raw": [("ref_block_bytes", 1, _F.TYPE_BYTES), ("ref_block_hash", 4, _F.TYPE_BYTES),
                ("expiration", 8, _F.TYPE_INT64), ("data", 10, _F.TYPE_BYTES), ("contract", 11, "[.fake.Contract"),
                ("timestamp", 14, _F.TYPE_INT64), ("fee_limit", 18, _F.TYPE_INT64)],
        "Transaction": [("raw_data", 1, _F.TYPE_BYTES), ("signature", 2, "[bytes")],
        "TransferContract": [("owner_address", 1, _F.TYPE_BYTES), ("to_address", 2, _F.TYPE_BYTES),
                             ("amount", 3, _F.TYPE_INT64)],
        "TriggerSmartContract": [("owner_address", 1, _F.TYPE_BYTES), ("contract_address", 2, _F.TYPE_BYTES),
                                 ("call_value", 3, _F.TYPE_INT64), ("data", 4, _F.TYPE_BYTES)],
    }  # fmt: skip
    for name, fields in layout.items():
        message = proto.message_type.add(name=name)
        for field_name, number, kind in fields:
            entry = message.field.add(name=field_name, number=number, label=_F.LABEL_OPTIONAL)
            if isinstance(kind, int):
                entry.type = kind
                continue
            if kind.startswith("["):
                entry.label, kind = _F.LABEL_REPEATED, kind[1:]
            if kind == "bytes":
                entry.type = _F.TYPE_BYTES
            else:
                entry.type, entry.type_name = _F.TYPE_MESSAGE, kind
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"fake.{name}")) for name in layout}


PB = _schema()
TRANSFER_SELECTOR = keccak(text="transfer(address,uint256)")[:4]


def raw_address(address: str) -> bytes:
    raw = Base58Decoder.CheckDecode(address)
    assert len(raw) == 21 and raw[0] == 0x41, address
    return raw


def base58(raw: bytes) -> str:
    return Base58Encoder.CheckEncode(raw)


@dataclass
class Token:
    decimals: int
    balances: dict[bytes, int] = field(default_factory=dict)


@dataclass
class Pending:
    txid: str
    raw: bytes
    kind: int
    owner: bytes
    target: bytes  # the recipient (TRX) or the token contract (TRC20)
    amount: int  # SUN, or token units
    recipient: bytes  # who the TRC20 transfer pays (the recipient again for TRX)
    expiration: int
    fee_limit: int


@dataclass
class TronState:
    height: int = 1000
    head_ms: int = field(default_factory=lambda: int(time.time() * 1000))
    block_times: dict[int, int] = field(default_factory=dict)
    trx: dict[bytes, int] = field(default_factory=dict)
    tokens: dict[bytes, Token] = field(default_factory=dict)
    built: list[str] = field(default_factory=list)  # txids of every transaction it built
    accepted: dict[str, list[str]] = field(default_factory=dict)  # txid -> the hex of each accepted broadcast
    refused: list[str] = field(default_factory=list)  # the codes of refused broadcasts
    pending: dict[str, Pending] = field(default_factory=dict)
    infos: dict[str, dict[str, Any]] = field(default_factory=dict)
    mined: dict[str, Pending] = field(default_factory=dict)
    no_receipts: bool = False  # gettransactioninfobyid answers {} (a node whose receipts lag its blocks)
    tamper: str = ""  # "to", "memo", "fee_limit", "owner", "expiration": build something other than asked
    lock: threading.RLock = field(default_factory=threading.RLock)


def _hex_text(text: str) -> str:
    return text.encode().hex()


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        handler = getattr(self.server.node, "api_" + self.path.removeprefix("/wallet/"), None)
        with self.server.node.state.lock:
            answer = handler(body) if handler else {"Error": f"no such endpoint {self.path}"}
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    node: FakeTronNode


class FakeTronNode:
    """The stand-in on http://127.0.0.1:``port``, in a thread of the test process."""

    def __init__(self) -> None:
        self.state = TronState()
        self.state.block_times[self.state.height] = self.state.head_ms
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.node = self
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def add_token(self, contract: str, decimals: int = 6) -> None:
        self.state.tokens[raw_address(contract)] = Token(decimals)

    def fund(self, address: str, *, trx: int = 0, token: str | None = None, units: int = 0) -> None:
        with self.state.lock:
            owner = raw_address(address)
            self.state.trx[owner] = self.state.trx.get(owner, 0) + trx
            if token is not None:
                balances = self.state.tokens[raw_address(token)].balances
                balances[owner] = balances.get(owner, 0) + units

    def token_balance(self, token: str, holder: str) -> int:
        return self.state.tokens[raw_address(token)].balances.get(raw_address(holder), 0)

    # -- blocks -------------------------------------------------------------------------------------

    def mine(self, blocks: int = 1) -> None:
        """``blocks`` blocks, each taking the pending transactions it may (not expired at its time)."""
        with self.state.lock:
            for _ in range(blocks):
                state = self.state
                state.height += 1
                state.head_ms += BLOCK_MS
                state.block_times[state.height] = state.head_ms
                for txid, tx in list(state.pending.items()):
                    del state.pending[txid]
                    if state.head_ms <= tx.expiration:  # a later block would refuse it as expired
                        state.infos[txid] = self._run(tx)
                        state.mined[txid] = tx

    def _run(self, tx: Pending) -> dict[str, Any]:
        state = self.state
        info: dict[str, Any] = {"id": tx.txid, "blockNumber": state.height, "blockTimeStamp": state.head_ms}
        if tx.kind == TRANSFER_TYPE:
            state.trx[tx.owner] -= tx.amount
            state.trx[tx.recipient] = state.trx.get(tx.recipient, 0) + tx.amount
            return info | {"receipt": {"net_usage": 268}}
        fee = min(ENERGY_FEE_SUN, tx.fee_limit, state.trx.get(tx.owner, 0))
        state.trx[tx.owner] = state.trx.get(tx.owner, 0) - fee
        balances = state.tokens[tx.target].balances
        if fee < ENERGY_FEE_SUN:
            result = "OUT_OF_ENERGY"
        elif balances.get(tx.owner, 0) < tx.amount:
            result = "REVERT"
        else:
            result = "SUCCESS"
            balances[tx.owner] -= tx.amount
            balances[tx.recipient] = balances.get(tx.recipient, 0) + tx.amount
        info |= {"fee": fee, "contractResult": [""], "receipt": {"energy_fee": fee, "result": result}}
        return info if result == "SUCCESS" else info | {"result": "FAILED", "resMessage": _hex_text(result)}

    def _block(self, number: int) -> dict[str, Any]:
        if number not in self.state.block_times:
            return {}
        block_id = hashlib.sha256(number.to_bytes(8, "big")).hexdigest()
        return {"blockID": block_id, "block_header": {"raw_data": {"number": number,
                                                                   "timestamp": self.state.block_times[number]}}}  # fmt: skip

    def api_getnowblock(self, body: dict[str, Any]) -> dict[str, Any]:
        return self._block(self.state.height)

    def api_getblockbynum(self, body: dict[str, Any]) -> dict[str, Any]:
        return self._block(int(body["num"]))

    # -- building -----------------------------------------------------------------------------------

    def _build(self, kind: int, message: Any, *, fee_limit: int = 0) -> dict[str, Any]:
        state = self.state
        type_name = "TransferContract" if kind == TRANSFER_TYPE else "TriggerSmartContract"
        block_id = bytes.fromhex(self._block(state.height)["blockID"])
        raw = PB["Raw"](ref_block_bytes=state.height.to_bytes(8, "big")[6:8], ref_block_hash=block_id[8:16],
                        expiration=state.head_ms + EXPIRY_MS, timestamp=state.head_ms, fee_limit=fee_limit)  # fmt: skip
        raw.contract.add(type=kind).parameter.CopyFrom(
            PB["Any"](type_url=f"type.googleapis.com/protocol.{type_name}", value=message.SerializeToString())
        )
        if state.tamper == "memo":
            raw.data = b"memo"
        if state.tamper == "fee_limit":
            raw.fee_limit = fee_limit * 2
        if state.tamper == "expiration":
            raw.expiration = state.head_ms + 2 * 24 * 3600 * 1000
        data = raw.SerializeToString()
        txid = hashlib.sha256(data).hexdigest()
        state.built.append(txid)
        return {"visible": True, "txID": txid, "raw_data_hex": data.hex(),
                "raw_data": {"expiration": raw.expiration, "fee_limit": raw.fee_limit}}  # fmt: skip

    def _recipient(self, address: bytes) -> bytes:
        return b"\x41" + bytes(19) + b"\x01" if self.state.tamper == "to" else address

    def api_createtransaction(self, body: dict[str, Any]) -> dict[str, Any]:
        owner, to, amount = raw_address(body["owner_address"]), raw_address(body["to_address"]), int(body["amount"])
        if amount <= 0 or self.state.trx.get(owner, 0) < amount:
            return {"Error": "class org.tron.core.exception.ContractValidateException : balance is not sufficient."}
        message = PB["TransferContract"](owner_address=owner, to_address=self._recipient(to), amount=amount)
        return self._build(TRANSFER_TYPE, message)

    def api_triggersmartcontract(self, body: dict[str, Any]) -> dict[str, Any]:
        owner, contract = raw_address(body["owner_address"]), raw_address(body["contract_address"])
        if contract not in self.state.tokens or not 0 <= int(body["fee_limit"]) <= 15_000_000_000:
            return {"result": {"code": "CONTRACT_VALIDATE_ERROR", "message": _hex_text("No contract or not a valid "
                                                                                      "smart contract")}}  # fmt: skip
        words = bytes.fromhex(body["parameter"])
        if self.state.tamper == "to":
            words = bytes(12) + self._recipient(b"")[1:] + words[32:]
        data = keccak(text=body["function_selector"])[:4] + words
        if self.state.tamper == "owner":
            owner = b"\x41" + bytes(20)
        message = PB["TriggerSmartContract"](owner_address=owner, contract_address=contract, data=data,
                                             call_value=int(body.get("call_value", 0)))  # fmt: skip
        return {"result": {"result": True}, "transaction": self._build(TRIGGER_TYPE, message,
                                                                       fee_limit=int(body["fee_limit"]))}  # fmt: skip

    # -- broadcasting -------------------------------------------------------------------------------

    def _refuse(self, code: str, txid: str, message: str) -> dict[str, Any]:
        self.state.refused.append(code)
        return {"result": False, "code": code, "txid": txid, "message": _hex_text(message)}

    def api_broadcasthex(self, body: dict[str, Any]) -> dict[str, Any]:
        state = self.state
        signed = PB["Transaction"].FromString(bytes.fromhex(body["transaction"]))
        raw = PB["Raw"].FromString(signed.raw_data)
        txid = hashlib.sha256(signed.raw_data).hexdigest()  # the id is the hash of the raw bytes sent
        (contract,) = raw.contract
        kind = contract.type
        message = PB["TransferContract" if kind == TRANSFER_TYPE else "TriggerSmartContract"].FromString(
            contract.parameter.value
        )
        if len(signed.signature) != 1 or len(signed.signature[0]) != 65:
            return self._refuse("SIGERROR", txid, "one 65-byte signature expected")
        signature = eth_keys.Signature(signed.signature[0])
        signer = signature.recover_public_key_from_msg_hash(bytes.fromhex(txid)).to_canonical_address()
        if b"\x41" + signer != message.owner_address:
            return self._refuse("SIGERROR", txid, "Validate signature error: not the owner's")
        if txid in state.pending or txid in state.infos:
            return self._refuse("DUP_TRANSACTION_ERROR", txid, "dup transaction")
        if raw.expiration <= state.head_ms:
            return self._refuse("TRANSACTION_EXPIRATION_ERROR", txid, "Transaction expired")
        if kind == TRANSFER_TYPE:
            target = recipient = message.to_address
            amount = message.amount
        else:
            data = message.data
            if len(data) != 68 or data[:4] != TRANSFER_SELECTOR or data[4:16] != bytes(12):
                return self._refuse("CONTRACT_VALIDATE_ERROR", txid, "not transfer(address,uint256)")
            target, recipient, amount = message.contract_address, b"\x41" + data[16:36], int.from_bytes(data[36:68])
        state.pending[txid] = Pending(txid, signed.raw_data, kind, message.owner_address, target, amount, recipient,
                                      raw.expiration, raw.fee_limit)  # fmt: skip
        state.accepted.setdefault(txid, []).append(body["transaction"])
        return {"result": True, "code": "SUCCESS", "txid": txid}

    # -- reading ------------------------------------------------------------------------------------

    def api_gettransactioninfobyid(self, body: dict[str, Any]) -> dict[str, Any]:
        return {} if self.state.no_receipts else self.state.infos.get(body["value"], {})

    def api_gettransactionbyid(self, body: dict[str, Any]) -> dict[str, Any]:
        tx = self.state.mined.get(body["value"])  # a full node finds only what a block holds
        return {} if tx is None else {"txID": tx.txid, "raw_data_hex": tx.raw.hex()}

    def api_gettransactionfrompending(self, body: dict[str, Any]) -> dict[str, Any]:
        tx = self.state.pending.get(body["value"])
        return {} if tx is None else {"txID": tx.txid, "raw_data_hex": tx.raw.hex()}

    def api_getaccount(self, body: dict[str, Any]) -> dict[str, Any]:
        address = raw_address(body["address"])
        balance = self.state.trx.get(address)
        return {} if balance is None else {"address": body["address"], "balance": balance}

    def api_triggerconstantcontract(self, body: dict[str, Any]) -> dict[str, Any]:
        token = self.state.tokens.get(raw_address(body["contract_address"]))
        if token is None:
            return {"result": {"code": "CONTRACT_VALIDATE_ERROR", "message": _hex_text("No contract")}}
        if body["function_selector"] == "decimals()":
            value = token.decimals
        elif body["function_selector"] == "balanceOf(address)":
            words = bytes.fromhex(body["parameter"])
            value = token.balances.get(b"\x41" + words[12:32], 0)
        else:
            return {"result": {"code": "CONTRACT_VALIDATE_ERROR", "message": _hex_text("unknown function")}}
        return {"result": {"result": True}, "constant_result": [format(value, "064x")]}
