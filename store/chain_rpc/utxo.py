"""A client for Bitcoin Core's JSON-RPC, which BTC, LTC, BCH and DOGE nodes all speak.

What a UTXO chain watcher needs to follow blocks by height and hash and notice a reorg (a block's
header reports ``confirmations == -1`` once it left the main chain), what a hot wallet on the node
needs to pay out, and the broadcast path for transactions signed elsewhere. Replies are parsed into
small pydantic models; amounts are ``Decimal`` in coins (the node's unit), never floats.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from pydantic import BaseModel, ConfigDict

from store.chain_rpc.jsonrpc import DEFAULT_TIMEOUT_S, Closing, JsonRpcClient, NodeError, NodeRefused

NOT_FOUND = -5  # RPC_INVALID_ADDRESS_OR_KEY: no such block or transaction
OUT_OF_RANGE = -8  # RPC_INVALID_PARAMETER: e.g. a height above the tip
REJECTED = -26  # RPC_VERIFY_REJECTED: the mempool refused a raw transaction
ALREADY_IN_CHAIN = -27  # RPC_VERIFY_ALREADY_IN_CHAIN


class _Reply(BaseModel):
    model_config = ConfigDict(frozen=True)


class UtxoOutput(_Reply):
    n: int
    value: Decimal
    address: str | None  # None for outputs without one (OP_RETURN, bare multisig)
    script_type: str


class UtxoInput(_Reply):
    txid: str | None  # None for a coinbase input
    vout: int | None


class UtxoTx(_Reply):
    txid: str
    inputs: list[UtxoInput]
    outputs: list[UtxoOutput]
    block_hash: str | None = None  # set by getrawtransaction for a mined transaction
    confirmations: int = 0

    def paid_to(self, addresses: set[str]) -> list[UtxoOutput]:
        """The outputs paying one of ``addresses``."""
        return [o for o in self.outputs if o.address is not None and o.address in addresses]


class UtxoHeader(_Reply):
    hash: str
    height: int
    previous_hash: str | None  # None for the genesis block
    time: int
    confirmations: int  # -1 when the block is no longer on the main chain (reorged away)

    @property
    def on_main_chain(self) -> bool:
        return self.confirmations >= 0


class UtxoBlock(UtxoHeader):
    txs: list[UtxoTx]


class MempoolAccept(_Reply):
    txid: str
    allowed: bool
    reason: str | None  # the node's reject reason when not allowed


class WalletTx(_Reply):
    txid: str
    confirmations: int  # 0 unmined; negative: a conflicting transaction is mined that deep instead
    block_height: int | None


class Unspent(_Reply):
    txid: str
    vout: int
    address: str | None
    amount: Decimal
    confirmations: int


def _tx(raw: dict[str, Any]) -> UtxoTx:
    outputs = []
    for out in raw["vout"]:
        script = out.get("scriptPubKey", {})
        # Bitcoin Core 22+ gives "address"; earlier ones (Litecoin 0.21) a list "addresses".
        address = script.get("address") or next(iter(script.get("addresses") or []), None)
        outputs.append(
            UtxoOutput(n=out["n"], value=Decimal(out["value"]), address=address, script_type=script.get("type", ""))
        )
    inputs = [UtxoInput(txid=i.get("txid"), vout=i.get("vout")) for i in raw.get("vin", [])]
    return UtxoTx(
        txid=raw["txid"],
        inputs=inputs,
        outputs=outputs,
        block_hash=raw.get("blockhash"),
        confirmations=raw.get("confirmations", 0),
    )


def _header(raw: dict[str, Any]) -> dict[str, Any]:
    return {
        "hash": raw["hash"],
        "height": raw["height"],
        "previous_hash": raw.get("previousblockhash"),
        "time": raw["time"],
        "confirmations": raw["confirmations"],
    }


class UtxoNode(Closing):
    """One Bitcoin Core-style node (``http://user:password@host:port``), and optionally one wallet
    loaded on it (``wallet``): wallet calls go to ``/wallet/<name>`` as the node requires when it has
    several. Raises the ``store.chain_rpc.jsonrpc`` errors."""

    def __init__(self, url: str, *, wallet: str | None = None, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self.rpc = JsonRpcClient(url, timeout=timeout)
        self.wallet = wallet
        self.wallet_rpc = JsonRpcClient(f"{url.rstrip('/')}/wallet/{wallet}", timeout=timeout) if wallet else self.rpc

    async def aclose(self) -> None:
        await self.rpc.aclose()
        if self.wallet_rpc is not self.rpc:
            await self.wallet_rpc.aclose()

    # -- following the chain ------------------------------------------------------------------------

    async def chain(self) -> str:
        """The chain the node runs: ``main``, ``test``, ``regtest``."""
        return (await self.rpc.call("getblockchaininfo"))["chain"]

    async def block_count(self) -> int:
        """The height of the tip."""
        return await self.rpc.call("getblockcount")

    async def best_block_hash(self) -> str:
        return await self.rpc.call("getbestblockhash")

    async def block_hash(self, height: int) -> str:
        """The hash of the main-chain block at ``height``; ``NodeRefused`` (-8) above the tip."""
        return await self.rpc.call("getblockhash", height)

    async def block_hashes(self, heights: Sequence[int]) -> list[str]:
        """The main-chain hashes at ``heights``, in one batch request (a watcher checking its recent
        cursor against the chain)."""
        return await self.rpc.batch([("getblockhash", [h]) for h in heights])

    async def block_header(self, block_hash: str) -> UtxoHeader:
        """A block's header, also for a block reorged away (then ``confirmations == -1``)."""
        return UtxoHeader(**_header(await self.rpc.call("getblockheader", block_hash, True)))

    async def block(self, block_hash: str) -> UtxoBlock:
        """A block with every transaction decoded (verbosity 2)."""
        raw = await self.rpc.call("getblock", block_hash, 2)
        return UtxoBlock(**_header(raw), txs=[_tx(t) for t in raw["tx"]])

    async def mempool_txids(self) -> list[str]:
        """Transactions waiting in the node's mempool (deposits seen with no confirmation yet)."""
        return await self.rpc.call("getrawmempool")

    async def transaction(self, txid: str, *, block_hash: str | None = None) -> UtxoTx:
        """A transaction decoded. Without ``-txindex`` the node finds only mempool and wallet
        transactions unless ``block_hash`` says where it was mined; ``NodeRefused`` (-5) if unknown."""
        params: list[Any] = [txid, True] + ([block_hash] if block_hash else [])
        return _tx(await self.rpc.call("getrawtransaction", *params))

    async def raw_transaction(self, txid: str) -> str:
        """A transaction's serialised bytes, hex."""
        return await self.rpc.call("getrawtransaction", txid, False)

    # -- broadcasting -------------------------------------------------------------------------------

    async def test_mempool_accept(self, raw_hex: str) -> MempoolAccept:
        """Whether the mempool would take a signed transaction, without broadcasting it."""
        (verdict,) = await self.rpc.call("testmempoolaccept", [raw_hex])
        return MempoolAccept(txid=verdict["txid"], allowed=verdict["allowed"], reason=verdict.get("reject-reason"))

    async def send_raw_transaction(self, raw_hex: str) -> str:
        """Broadcast a signed transaction; its txid. ``NodeRefused`` -26 (rejected), -25 (missing or
        spent inputs), -27 (already in the chain: a re-broadcast of bytes that were mined)."""
        return await self.rpc.call("sendrawtransaction", raw_hex)

    async def unspent_output(self, txid: str, vout: int) -> Decimal | None:
        """The value of output ``vout`` of ``txid`` while it is unspent, counting spends waiting in the
        mempool as spent; None once spent (or never there)."""
        found = await self.rpc.call("gettxout", txid, vout, True)
        return Decimal(found["value"]) if found else None

    async def script_of(self, address: str) -> bytes:
        """The output script that pays ``address`` on this node's network (the node decodes it, so
        every address encoding the chain knows is understood)."""
        reply = await self.rpc.call("validateaddress", address)
        if not reply.get("isvalid"):
            raise ValueError(f"{address} is not an address of this chain")
        return bytes.fromhex(reply["scriptPubKey"])

    async def estimate_smart_fee(self, blocks: int) -> Decimal | None:
        """The fee rate (coins per 1000 virtual bytes) to confirm within ``blocks``; None when the node
        has too little data (a fresh regtest chain always)."""
        reply = await self.rpc.call("estimatesmartfee", blocks)
        rate = reply.get("feerate")
        return Decimal(rate) if rate is not None else None

    # -- the node's wallet (a hot wallet kept by the node) -------------------------------------------

    async def balance(self, *, min_confirmations: int = 1) -> Decimal:
        """The wallet's spendable balance with at least ``min_confirmations``."""
        return Decimal(await self.wallet_rpc.call("getbalance", "*", min_confirmations))

    async def list_unspent(
        self, *, min_confirmations: int = 1, addresses: Sequence[str] | None = None
    ) -> list[Unspent]:
        """The wallet's unspent outputs, optionally only those paying ``addresses``."""
        params: list[Any] = [min_confirmations, 9_999_999] + ([list(addresses)] if addresses else [])
        return [
            Unspent(
                txid=u["txid"],
                vout=u["vout"],
                address=u.get("address"),
                amount=Decimal(u["amount"]),
                confirmations=u["confirmations"],
            )
            for u in await self.wallet_rpc.call("listunspent", *params)
        ]

    async def new_address(self, *, label: str = "") -> str:
        """A fresh receiving address of the wallet (bech32)."""
        return await self.wallet_rpc.call("getnewaddress", label, "bech32")

    async def in_mempool(self, txid: str) -> bool:
        """Whether the node's mempool holds ``txid``."""
        try:
            await self.rpc.call("getmempoolentry", txid)
        except NodeRefused as exc:
            if exc.code == -5:  # not in the mempool
                return False
            raise
        return True

    async def wallet_transaction(self, txid: str) -> WalletTx | None:
        """What the wallet knows of one of its transactions (None: nothing). ``confirmations`` is
        negative when a conflicting transaction was mined instead (its depth)."""
        try:
            raw = await self.wallet_rpc.call("gettransaction", txid)
        except NodeRefused as exc:
            if exc.code == -5:  # invalid or non-wallet transaction id
                return None
            raise
        return WalletTx(txid=raw["txid"], confirmations=raw["confirmations"], block_height=raw.get("blockheight"))

    async def fund_and_sign(self, address: str, amount: Decimal) -> str:
        """A transaction paying ``amount`` to ``address`` from the wallet, funded (inputs, change and
        fee chosen by the node; the inputs locked so another payment does not pick them) and signed
        by the wallet, not broadcast: its hex."""
        unfunded = await self.wallet_rpc.call("createrawtransaction", [], [{address: amount}])
        funded = await self.wallet_rpc.call("fundrawtransaction", unfunded, {"lockUnspents": True})
        signed = await self.wallet_rpc.call("signrawtransactionwithwallet", funded["hex"])
        if not signed.get("complete"):
            raise NodeError(f"the wallet could not sign every input: {signed.get('errors')}", url="", method="sign")
        return signed["hex"]

    async def decoded_txid(self, raw_hex: str) -> str:
        """The txid of serialised bytes (what the chain will know them by)."""
        return (await self.rpc.call("decoderawtransaction", raw_hex))["txid"]

    async def send_to_address(self, address: str, amount: Decimal) -> str:
        """Pay ``amount`` coins from the wallet; the txid. The amount travels as an exact string."""
        return await self.wallet_rpc.call("sendtoaddress", address, amount)
