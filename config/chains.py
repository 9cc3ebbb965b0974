"""What a deployment says about the chains it reaches: each chain's node (``ChainNode``), read from
``EXCHANGE_CHAIN_NODES`` beside the older ``EXCHANGE_LTC_RPC_URL``/``EXCHANGE_EVM_RPC_URL``, and the
chains deposits and withdrawals are open on (docs/decisions.md "Chains a deployment follows").

The chains here are the currency protocols' ``chain_protocol`` values that have an adapter
(store/chain/keys.py derives their addresses). A UTXO chain's coin is the chain's own code; an EVM
chain's native coin is ``EVM_NATIVE``'s.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from config.settings import Settings

UTXO_CHAINS = ("BTC", "LTC", "DOGE", "BCH")  # Bitcoin Core's JSON-RPC
EVM_CHAINS = ("ERC20", "ETC", "BEP20")  # Ethereum's JSON-RPC
EVM_NATIVE = {"ERC20": "ETH", "ETC": "ETC", "BEP20": "BNB"}  # what a plain value transfer moves
# TRON's full node answers both its HTTP API (withdrawals, settings.tron_rpc_url) and Ethereum's
# JSON-RPC (the deposit watcher, settings.tron_jsonrpc_url).
TRON_CHAIN = "TRC20"
ADAPTED_CHAINS = (*UTXO_CHAINS, *EVM_CHAINS, TRON_CHAIN)
# Chains watched but not sent on: ETC has no EIP-1559, and the Signer builds only type-2 EVM transactions.
WATCH_ONLY = ("ETC",)
# UTXO chains whose deposit outputs are swept (store/chain/utxo_sweeps.py): BTC and LTC (P2WPKH) and DOGE
# (P2PKH, legacy digests). BCH's P2PKH needs its fork-id digest: its deposits stay where they arrived
# (docs/decisions.md "Chains a deployment follows").
SWEPT_UTXO = ("BTC", "LTC", "DOGE")
# The least of a currency on a deposit address that is swept (settings.sweep_minimums' default): dust
# would cost more in fees than it moves, and goes with the address's next deposit.
SWEEP_MINIMUMS = {"USDT": Decimal(100), "ETH": Decimal("0.05"), "LTC": Decimal("0.1"), "BTC": Decimal("0.002"),
                  "DOGE": Decimal(200), "TRX": Decimal(50)}  # fmt: skip


class ChainNode(BaseModel):
    """One UTXO or EVM chain's node: its JSON-RPC URL (a Bitcoin Core-style one carries user:password),
    the node wallet holding a UTXO chain's hot coins (none: its withdrawals wait), and an EVM chain's
    token contracts by currency code."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    url: str = Field(min_length=1)
    wallet: str | None = None
    tokens: dict[str, str] = Field(default_factory=dict)


def check_chain_nodes(nodes: dict[str, ChainNode]) -> dict[str, ChainNode]:
    unknown = sorted(set(nodes) - set(UTXO_CHAINS) - set(EVM_CHAINS))
    if unknown:
        raise ValueError(
            f"EXCHANGE_CHAIN_NODES names {unknown}: its chains are {[*UTXO_CHAINS, *EVM_CHAINS]} "
            "(TRON's node is EXCHANGE_TRON_RPC_URL and EXCHANGE_TRON_JSONRPC_URL)"
        )
    for chain, node in nodes.items():
        if node.tokens and chain in UTXO_CHAINS:
            raise ValueError(f"EXCHANGE_CHAIN_NODES: {chain} is a UTXO chain, it has no token contracts")
        if node.wallet and chain in EVM_CHAINS:
            raise ValueError(f"EXCHANGE_CHAIN_NODES: {chain} is an EVM chain, its hot wallet is the Signer's key")
    return nodes


def check_open_chains(chains: list[str] | None, setting: str) -> list[str] | None:
    unknown = sorted(set(chains or ()) - set(ADAPTED_CHAINS))
    if unknown:
        raise ValueError(f"{setting} names {unknown}: the chains with an adapter are {list(ADAPTED_CHAINS)}")
    return chains


def watched_chains(settings: Settings) -> list[str]:
    """The chains a watcher follows here: each UTXO and EVM chain with a node (settings.nodes), and
    TRON's (TRC20) when its node's JSON-RPC URL is set; in ``ADAPTED_CHAINS`` order."""
    followed = set(settings.nodes) | ({TRON_CHAIN} if settings.tron_jsonrpc_url else set())
    return [chain for chain in ADAPTED_CHAINS if chain in followed]


def sending_chains(settings: Settings) -> list[str]:
    """The chains the Signer sends on: each UTXO and EVM chain with a node (settings.nodes; a UTXO one
    also needs its node wallet, else its withdrawals wait), and TRON (TRC20) when its HTTP API's URL is
    set; in ``ADAPTED_CHAINS`` order. Not the ``WATCH_ONLY`` ones."""
    sends = (set(settings.nodes) - set(WATCH_ONLY)) | ({TRON_CHAIN} if settings.tron_rpc_url else set())
    return [chain for chain in ADAPTED_CHAINS if chain in sends]


def deposit_chains(settings: Settings) -> list[str]:
    """The chains deposit addresses are given on: settings.deposit_chains, else the ones watched here. A
    user who pays to an address no watcher follows waits for a credit that does not come."""
    return settings.deposit_chains if settings.deposit_chains is not None else watched_chains(settings)


def withdraw_chains(settings: Settings) -> list[str]:
    """The chains withdrawals are taken on: settings.withdraw_chains, else the ones the Signer sends on
    here. A request on another would be locked and approved and then wait for a sender that never runs."""
    return settings.withdraw_chains if settings.withdraw_chains is not None else sending_chains(settings)
