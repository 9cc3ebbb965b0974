"""The dev faucet: real transactions on the development chains, so a deposit can be tried end to end.

USDT is an ERC20 ``transfer`` and ETH a native transfer, both signed with ``eth-account`` by the dev
EVM node's funded account and broadcast with ``eth_sendRawTransaction`` (the path a withdrawal takes);
LTC is a send from the regtest node's wallet. Each reads the running chain's info file (``evm.json``,
``ltc.json``), so it works only where a dev chain runs: never in production.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from store.chain.evm_signing import to_base_units as base_units
from store.chain_rpc.devnet.clients import signed_tx
from store.chain_rpc.evm import EvmNode, transfer_data
from store.chain_rpc.utxo import UtxoNode

ETH_DECIMALS = 18
ERC20_GAS = 100_000  # a transfer to a fresh holder costs ~52,000
NATIVE_GAS = 21_000


async def send_evm(info: dict[str, Any], *, to: str, amount: Decimal, currency: str) -> str:
    """Send ``amount`` of ``currency`` (ETH or a token the dev chain deployed) to ``to``; the tx hash.
    The transaction is broadcast, not mined: it lands in the dev chain's next block."""
    from eth_utils import is_address

    if not is_address(to):
        raise ValueError(f"{to!r} is not an EVM address")
    currency = currency.upper()
    tokens = info["tokens"]
    if currency == "ETH":
        call = {"to": to, "value": base_units(amount, ETH_DECIMALS), "gas": NATIVE_GAS}
    elif currency in tokens:
        token = tokens[currency]
        data = transfer_data(to, base_units(amount, token["decimals"]))
        call = {"to": token["address"], "value": 0, "gas": ERC20_GAS, "data": data}
    else:
        raise ValueError(f"the dev EVM chain has no {currency}; it has ETH, {', '.join(sorted(tokens))}")
    async with EvmNode(info["url"]) as node:
        raw, _ = await signed_tx(node, info["faucet"]["private_key"], **call)
        return await node.send_raw_transaction(raw)


async def send_ltc(info: dict[str, Any], *, to: str, amount: Decimal) -> str:
    """Send ``amount`` LTC from the regtest wallet to ``to``; the txid (mined in the next block)."""
    base_units(amount, 8)
    async with UtxoNode(info["url"], wallet=info["wallet"]) as node:
        return await node.send_to_address(to, amount)
