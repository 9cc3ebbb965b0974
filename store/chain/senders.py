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

``seen`` answers what the chain says of a stored transaction: mined (how deep, and for EVM whether
it succeeded), waiting in the mempool, unknown, or beaten by a conflicting transaction (the same
EVM nonce, or a UTXO input spent elsewhere) and how deep that one is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol

from store.chain.custody import KeySource
from store.chain.evm_signing import ETH_DECIMALS, SignedTx, address_of, hot_path, sign_eip1559, transfer_call
from store.chain_rpc.evm import EvmNode, FeeData
from store.chain_rpc.jsonrpc import NodeRefused
from store.chain_rpc.utxo import UtxoNode


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
    sender: str  # the hot wallet's address (EVM) or the node wallet's name (UTXO)
    nonce: int | None  # EVM only


@dataclass(frozen=True)
class Seen:
    """``depth``: confirmations when mined, 0 in the mempool, None when the node knows nothing of it.
    ``succeeded`` is False for a mined EVM transaction that reverted. ``conflict``: how deep a
    conflicting transaction is mined (0: none)."""

    depth: int | None
    block_height: int | None = None
    succeeded: bool = True
    conflict: int = 0


class Refused(Exception):
    """The node refused a broadcast; the transaction may still be valid later (funds, fees), so this
    alone never fails a withdrawal: only a mined revert or a final conflict does."""


class Sender(Protocol):
    chain: str
    account: str  # what its sends are stored under (``ChainSend.sender``): the hot wallet's address or wallet

    async def sign(self, out: Outgoing, *, stored_next_nonce: int | None) -> Signed:
        """Build and sign ``out``; ``ValueError`` when it can never be sent as asked (an amount the
        currency's chain cannot carry, an address it rejects, a currency it does not know)."""
        ...

    async def broadcast(self, raw: str) -> None:
        """Hand the bytes to the node (again: a node that has them already is not an error)."""
        ...

    async def seen(self, txid: str, *, nonce: int | None, final: int) -> Seen: ...

    async def hot_balances(self) -> dict[str, Decimal]:
        """The hot wallet's balance per currency code."""
        ...


class EvmSender:
    def __init__(self, node: EvmNode, keys: KeySource, *, tokens: dict[str, str], chain: str = "ERC20") -> None:
        self.chain = chain
        self.node = node
        self._keys = keys
        self.tokens = {code.upper(): address for code, address in tokens.items()}
        self._decimals: dict[str, int] = {"ETH": ETH_DECIMALS}
        self.hot_path = hot_path()
        self.hot = self.account = address_of(keys, self.hot_path)
        self._chain_id: int | None = None  # asked once: a node's chain never changes under it

    async def currency(self, code: str) -> tuple[str | None, int]:
        """The token contract (None: ether) and decimals of ``code``; ``ValueError`` when not carried."""
        code = code.upper()
        if code == "ETH":
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

    async def seen(self, txid: str, *, nonce: int | None, final: int) -> Seen:
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
        balances = {"ETH": Decimal(await self.node.balance(self.hot)).scaleb(-ETH_DECIMALS)}
        for code, token in self.tokens.items():
            _, decimals = await self.currency(code)
            balances[code] = Decimal(await self.node.token_balance(token, self.hot)).scaleb(-decimals)
        return balances


class UtxoSender:
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

    async def seen(self, txid: str, *, nonce: int | None, final: int) -> Seen:
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
