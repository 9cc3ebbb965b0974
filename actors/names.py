"""Every named actor's name, in one directory: a caller that only needs to find an actor imports this,
not the actor's module (and everything that module imports), and a name is spelled once.

Ray finds a named actor by name in the exchange's namespace (``ray.get_actor(name)``)."""

from __future__ import annotations

FANOUT_PREFIX = "fanout:"  # one Fanout per node: fanout:<node label>
PLACEMENT_NAME = "pair-placement"
SCHEDULER_NAME = "scheduler"
MAKER_NAME = "market-maker"


def pair_name(symbol: str) -> str:
    """The PairActor of ``symbol`` (BTC/USDT)."""
    return f"pair:{symbol}"


def wallet_name(index: int) -> str:
    """The WalletShard ``index`` (a user's shard is ``actors.wallet.legs.shard_of``)."""
    return f"wallet:{index}"


def lever_name(index: int) -> str:
    """The LeverShard ``index``."""
    return f"lever:{index}"


def micro_name(index: int) -> str:
    """The MicroTimer shard ``index``."""
    return f"micro:{index}"


def fanout_name(node_label: str) -> str:
    """The Fanout of the node labelled ``node_label`` (node-1, node-2, …)."""
    return FANOUT_PREFIX + node_label
