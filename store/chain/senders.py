"""How each chain family signs, broadcasts and looks up a withdrawal's transaction: the ``Sender``
that store/chain/sends.py drives. Only the Signer builds these (it alone holds a ``KeySource``).

- **EVM** (ETH and its ERC20 tokens): an EIP-1559 transaction from the hot wallet
  (``m/44'/60'/1'/0/0``), signed through the KeySource (store/chain/evm_signing.py), fees from the
  node. The nonce is the larger of the node's pending count and one past the highest the exchange
  stored for the hot wallet: what was signed and stored but never reached a node keeps its nonce
  after a restart, and no two withdrawals share one.
- **UTXO** (LTC; any Bitcoin Core-style node): the node's wallet is the hot wallet. It funds the
  payment (inputs, change, fee), locks the inputs and signs; the exchange stores the bytes and
  broadcasts them itself (docs/decisions.md "Sending withdrawals").
- **TRON** (TRX and its TRC20 tokens): the node builds the transaction from the hot wallet
  (``m/44'/195'/1'/0/0``), the KeySource signs it after its bytes were checked
  (store/chain/tron_signing.py), a contract call pays at most ``tron_fee_limit_sun``. No nonce: a
  TRON transaction expires instead, and one not mined before its expiration, with a block ``final``
  deep already past it, can never be mined (docs/decisions.md "TRON withdrawals").

``seen`` answers what the chain says of a stored transaction: mined (how deep, and for EVM and TRON
whether it succeeded), waiting in the mempool, unknown, or dead for a reason on the chain (the same
EVM nonce or a UTXO input spent by another transaction, a TRON transaction's expiration passed) and
how deep that reason is.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol

from store.chain import tron_signing as tron
from store.chain.custody import KeySource
from store.chain.evm_signing import (
    ETH_DECIMALS,
    SignedTx,
    address_of,
    hot_path,
    sign_eip1559,
    to_base_units,
    transfer_call,
)
from store.chain_rpc.evm import EvmNode, FeeData, word
from store.chain_rpc.jsonrpc import NodeBadReply, NodeRefused
from store.chain_rpc.tron import TRANSFER_SELECTOR, TronNode, Unsigned
from store.chain_rpc.utxo import UtxoNode

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outgoing:
    """What one withdrawal sends: ``amount`` (the request minus the house's fee) of ``currency``."""

    withdrawal_id: int
    currency: str
    address: str
    amount: Decimal


@dataclass(frozen=True)
class Signed:
    raw: str  # hex of the bytes to broadcast
    txid: str
    sender: str  # the hot wallet's address (EVM, TRON) or the node wallet's name (UTXO)
    nonce: int | None  # EVM only (a TRON transaction has an expiration instead)


@dataclass(frozen=True)
class Seen:
    """``depth``: confirmations when mined, 0 in the mempool, None when the node knows nothing of it.
    ``succeeded`` is False for a mined EVM or TRON transaction that reverted. ``conflict``: how deep
    what makes it unminable is (a conflicting transaction mined, the first block past its expiration;
    0: none). ``why`` says what failed it, where the chain says more than "reverted" or "conflict"."""

    depth: int | None
    block_height: int | None = None
    succeeded: bool = True
    conflict: int = 0
    why: str | None = None


class Refused(Exception):
    """The node refused a broadcast; the transaction may still be valid later (funds, fees), so this
    alone never fails a withdrawal: only a mined revert or a final conflict does."""


class Sender(Protocol):
    chain: str
    account: str  # what its sends are stored under (``ChainSend.sender``): the hot wallet's address or wallet
    # True when signing already proves the funds (a UTXO node's wallet picks the inputs, or refuses);
    # False on account chains, where a transfer beyond the balance is signed, mined and reverts.
    funded_when_signed: bool

    async def sign(self, out: Outgoing, *, stored_next_nonce: int | None) -> Signed:
        """Build and sign ``out``; ``ValueError`` when it can never be sent as asked (an amount the
        currency's chain cannot carry, an address it rejects, a currency it does not know)."""
        ...

    async def broadcast(self, raw: str) -> None:
        """Hand the bytes to the node (again: a node that has them already is not an error)."""
        ...

    async def seen(self, txid: str, *, nonce: int | None, final: int, raw: str) -> Seen:
        """What the chain says of the stored transaction ``txid`` (its stored bytes ``raw``)."""
        ...

    async def hot_balances(self) -> dict[str, Decimal]:
        """The hot wallet's balance per currency code."""
        ...


class EvmSender:
    funded_when_signed = False

    def __init__(
        self, node: EvmNode, keys: KeySource, *, tokens: dict[str, str], chain: str = "ERC20", native: str = "ETH"
    ) -> None:
        self.chain, self.native = chain, native  # the chain's own coin: what a plain value transfer moves
        self.node = node
        self._keys = keys
        self.tokens = {code.upper(): address for code, address in tokens.items()}
        self._decimals: dict[str, int] = {native: ETH_DECIMALS}
        self.hot_path = hot_path()
        self.hot = self.account = address_of(keys, self.hot_path)
        self._chain_id: int | None = None  # asked once: a node's chain never changes under it

    async def currency(self, code: str) -> tuple[str | None, int]:
        """The token contract (None: the native coin) and decimals of ``code``; ``ValueError`` when not
        carried."""
        code = code.upper()
        if code == self.native:
            return None, ETH_DECIMALS
        token = self.tokens.get(code)
        if token is None:
            raise ValueError(f"the {self.chain} chain carries no {code} here")
        if code not in self._decimals:
            self._decimals[code] = await self.node.token_decimals(token)
        return token, self._decimals[code]

    async def sign(self, out: Outgoing, *, stored_next_nonce: int | None) -> Signed:
        token, decimals = await self.currency(out.currency)
        call = transfer_call(out.address, out.amount, token=token, decimals=decimals)
        signed = await self.sign_call(self.hot_path, call, await self.node.fee_data(), nonce_floor=stored_next_nonce)
        return Signed(raw=signed.raw, txid=signed.txid, sender=signed.sender, nonce=signed.nonce)

    async def sign_call(
        self, path: str, call: Mapping[str, Any], fees: FeeData, *, nonce_floor: int | None = None
    ) -> SignedTx:
        """``call`` (to, value, data, gas) as an EIP-1559 transaction signed by the key at ``path`` (the
        hot wallet, the gas station, a deposit address), at ``fees`` and that key's next nonce on the
        node, or ``nonce_floor`` when higher."""
        if self._chain_id is None:
            self._chain_id = await self.node.chain_id()
        signer = self.hot if path == self.hot_path else address_of(self._keys, path)
        nonce = max(await self.node.nonce(signer), nonce_floor or 0)
        tx = {"chainId": self._chain_id, "nonce": nonce, "maxFeePerGas": fees.max_fee,
              "maxPriorityFeePerGas": fees.max_priority_fee, **call}  # fmt: skip
        return sign_eip1559(self._keys, path, tx)

    async def broadcast(self, raw: str) -> None:
        try:
            await self.node.send_raw_transaction(raw)
        except NodeRefused as exc:
            if "known" not in exc.node_message.lower():  # "already known": it has these bytes
                raise Refused(exc.node_message) from exc

    async def seen(self, txid: str, *, nonce: int | None, final: int, raw: str = "") -> Seen:
        receipt = await self.node.receipt(txid)
        tip = await self.node.block_number()
        if receipt is not None:
            return Seen(tip - receipt.block_number + 1, receipt.block_number, receipt.succeeded)
        if await self.node.transaction(txid) is not None:
            return Seen(0)
        # Unknown: if the hot wallet had already used this nonce ``final`` blocks ago, another
        # transaction took it for good and this one can never be mined.
        if nonce is not None and tip - final + 1 >= 0 and await self.node.nonce(self.hot, tip - final + 1) > nonce:
            return Seen(None, conflict=final)
        return Seen(None)

    async def hot_balances(self) -> dict[str, Decimal]:
        balances = {self.native: Decimal(await self.node.balance(self.hot)).scaleb(-ETH_DECIMALS)}
        for code, token in self.tokens.items():
            _, decimals = await self.currency(code)
            balances[code] = Decimal(await self.node.token_balance(token, self.hot)).scaleb(-decimals)
        return balances


class UtxoSender:
    funded_when_signed = True  # fund_and_sign locks the inputs it picks: a signature is never dropped

    def __init__(self, node: UtxoNode, *, chain: str, currency: str) -> None:
        if node.wallet is None:
            raise ValueError("a UTXO sender needs the node's hot wallet (settings.ltc_rpc_wallet)")
        self.chain = chain
        self.node = node
        self.account = str(node.wallet)
        self._currency = currency

    @property
    def currency(self) -> str:
        """The chain's one currency (LTC)."""
        return self._currency

    async def sign(self, out: Outgoing, *, stored_next_nonce: int | None) -> Signed:
        if out.currency.upper() != self._currency:
            raise ValueError(f"the {self.chain} chain carries no {out.currency}")
        if out.amount <= 0 or out.amount != out.amount.quantize(Decimal("1e-8")):
            raise ValueError(f"{out.amount} is not a positive amount with at most 8 decimal places")
        try:
            raw = await self.node.fund_and_sign(out.address, out.amount)
        except NodeRefused as exc:
            if exc.code in (-5, -8, -3):  # invalid address, parameter or amount: never sendable
                raise ValueError(exc.node_message) from exc
            raise  # -6 insufficient funds and the like: wait for the hot wallet
        return Signed(raw=raw, txid=await self.node.decoded_txid(raw), sender=str(self.node.wallet), nonce=None)

    async def broadcast(self, raw: str) -> None:
        try:
            await self.node.send_raw_transaction(raw)
        except NodeRefused as exc:
            message = exc.node_message.lower()
            if exc.code != -27 and "already" not in message and "known" not in message:
                raise Refused(exc.node_message) from exc

    async def seen(self, txid: str, *, nonce: int | None, final: int, raw: str = "") -> Seen:
        found = await self.node.wallet_transaction(txid)
        if found is None:
            return Seen(None)
        if found.confirmations > 0:
            return Seen(found.confirmations, found.block_height)
        if found.confirmations < 0:  # a transaction spending the same inputs was mined that deep
            return Seen(None, conflict=-found.confirmations)
        return Seen(0) if await self.node.in_mempool(txid) else Seen(None)

    async def hot_balances(self) -> dict[str, Decimal]:
        return {self._currency: await self.node.balance(min_confirmations=1)}


class TronSender:
    funded_when_signed = False

    def __init__(self, node: TronNode, keys: KeySource, *, tokens: dict[str, str], fee_limit: int,
                 chain: str = "TRC20") -> None:  # fmt: skip
        self.chain = chain
        self.node = node
        self._keys = keys
        self.tokens = {code.upper(): address for code, address in tokens.items()}
        self._decimals: dict[str, int] = {"TRX": tron.TRX_DECIMALS}
        self.fee_limit = fee_limit
        self.hot_path = tron.hot_path()
        self.hot = self.account = tron.address_of(keys, self.hot_path)

    async def currency(self, code: str) -> tuple[str | None, int]:
        """The token contract (None: TRX) and decimals of ``code``; ``ValueError`` when not carried."""
        code = code.upper()
        token = self.tokens.get(code)
        if code != "TRX" and token is None:
            raise ValueError(f"the {self.chain} chain carries no {code} here")
        if code not in self._decimals:
            self._decimals[code] = await self.node.token_decimals(str(token), owner=self.hot)
        return token, self._decimals[code]

    async def sign(self, out: Outgoing, *, stored_next_nonce: int | None) -> Signed:
        token, decimals = await self.currency(out.currency)
        units = to_base_units(out.amount, decimals)
        tron.raw_address(out.address)  # ValueError before the node is asked
        return await self.signed_by(self.hot_path, out.address, units, token=token)

    async def signed_by(self, path: str, to: str, units: int, *, token: str | None, fee_limit: int = 0) -> Signed:
        """A payment of ``units`` (SUN, or of ``token``) to ``to`` from the key at ``path`` (the hot
        wallet's, or, for sweeps, a deposit address's or the gas station's), built by the node and
        checked field by field before it is signed; a token transfer pays at most ``fee_limit`` (or
        the settings' limit) for its energy."""
        owner = tron.address_of(self._keys, path)
        unsigned: Unsigned
        if token is None:
            expect = tron.Expected(tron.TRANSFER, owner, to, amount=units)
            unsigned = await self.node.create_transfer(owner, to, units)
        else:
            limit = fee_limit or self.fee_limit
            parameter, data = tron.transfer_call(to, units)
            expect = tron.Expected(tron.TRIGGER, owner, token, data=data, fee_limit=limit)
            unsigned = await self.node.trigger(owner, token, TRANSFER_SELECTOR, parameter, fee_limit=limit)
        try:
            signed = tron.sign_raw(self._keys, path, unsigned.raw, expect)
        except ValueError as exc:  # the node's doing, not the withdrawal's: it waits, nothing is signed
            raise NodeBadReply(f"the node built another transaction than asked ({exc})", url=self.node.label,
                               method="sign") from exc  # fmt: skip
        if signed.txid != unsigned.txid:
            log.warning("the TRON node named its transaction %s; its bytes hash to %s, the id kept", unsigned.txid,
                        signed.txid)  # fmt: skip
        return Signed(raw=signed.raw, txid=signed.txid, sender=owner, nonce=None)

    async def broadcast(self, raw: str) -> None:
        try:
            await self.node.broadcast_hex(raw)
        except NodeRefused as exc:
            if exc.data != "DUP_TRANSACTION_ERROR":  # the node has these bytes already
                raise Refused(exc.node_message) from exc

    async def seen(self, txid: str, *, nonce: int | None, final: int, raw: str) -> Seen:
        info = await self.node.transaction_info(txid)
        tip = await self.node.now_block()
        if info is not None:
            why = None if info.succeeded else f"the transaction reverted on the chain ({info.result})"
            return Seen(tip.number - info.block_number + 1, info.block_number, info.succeeded, why=why)
        if await self.node.pending(txid) or await self.node.known(txid):  # known, its receipt not yet written
            return Seen(0)
        # Unknown: no block after its expiration may hold it. Once the block ``final`` deep is past the
        # expiration, every block that could have held it is final, and none did.
        deep = await self.node.block(tip.number - final + 1) if tip.number - final + 1 >= 0 else None
        expiration = tron.expiration_of(bytes.fromhex(raw))
        if deep is not None and deep.timestamp > expiration:
            return Seen(None, conflict=final, why="it expired before any block took it")
        return Seen(None)

    async def hot_balances(self) -> dict[str, Decimal]:
        balances = {"TRX": Decimal(await self.node.balance(self.hot)).scaleb(-tron.TRX_DECIMALS)}
        holder = word(tron.evm_hex(self.hot))  # an ABI word: the 20 bytes after 0x41
        for code, token in self.tokens.items():
            _, decimals = await self.currency(code)
            balances[code] = Decimal(await self.node.token_balance(token, self.hot, word=holder)).scaleb(-decimals)
        return balances
