"""The dev faucet: real transactions on the development chains, so a deposit can be tried end to end.

USDT is an ERC20 ``transfer`` and ETH a native transfer, both signed with ``eth-account`` by the dev
EVM node's funded account and broadcast with ``eth_sendRawTransaction`` (the path a withdrawal takes);
LTC is a send from the regtest node's wallet. Each reads the running chain's info file (``evm.json``,
``ltc.json``), so it works only where a dev chain runs: never in production.
"""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from config.settings import Settings
from store.chain.evm_signing import GAS_STATION_PATH, address_of, hot_path
from store.chain.evm_signing import to_base_units as base_units
from store.chain_rpc.devnet.clients import signed_tx
from store.chain_rpc.devnet.process import read_info
from store.chain_rpc.evm import EvmNode, transfer_data
from store.chain_rpc.utxo import UtxoNode

if TYPE_CHECKING:  # the Signer and the key generator alone load keys (store/chain/custody.py)
    from store.chain.custody import KeySource

log = logging.getLogger(__name__)

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


HOT_FUNDS = {"ETH": Decimal(100), "USDT": Decimal(1_000_000)}  # what the dev hot wallets are filled to


async def top_up_hot_wallets(settings: Settings, keys: KeySource) -> None:
    """On the dev EVM chain of ``settings``, fill the hot wallet (ether and USDT) and the gas station
    (ether) from the faucet when they run low, so withdrawals can be tried before any deposit was swept
    (docs/decisions.md "Sending withdrawals"). Nothing when the configured node is not the dev chain."""
    info = read_info(settings.dev_chains_dir / "evm" / "evm.json")
    if info["url"] != settings.evm_rpc_url:
        return
    hot, station = address_of(keys, hot_path()), address_of(keys, GAS_STATION_PATH)
    async with EvmNode(info["url"]) as node:
        for wallet in (hot, station):
            if await node.balance(wallet) < 10**ETH_DECIMALS:
                await send_evm(info, to=wallet, amount=HOT_FUNDS["ETH"], currency="ETH")
        usdt = info["tokens"]["USDT"]
        if await node.token_balance(usdt["address"], hot) < 10 ** usdt["decimals"] * 1000:
            await send_evm(info, to=hot, amount=HOT_FUNDS["USDT"], currency="USDT")
    log.info("dev hot wallet %s and gas station %s: topped up from the faucet when low", hot, station)
