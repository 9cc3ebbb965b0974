"""The directory of what crosses actors: every named actor's name, the Redis keys one actor leaves for
another, and the time contracts between them. A caller that only needs to find an actor imports this,
not the actor's module (and everything that module imports), and each is spelled once.

Ray finds a named actor by name in the exchange's namespace (``ray.get_actor(name)``)."""

from __future__ import annotations

# The Scheduler's name is kept by the store, whose earn clock reads that actor's offset.
from store.scheduler import SCHEDULER_NAME as SCHEDULER_NAME
from store.sessions import PREFIX

FANOUT_PREFIX = "fanout:"  # one Fanout per node: fanout:<node label>
PLACEMENT_NAME = "pair-placement"
MAKER_NAME = "market-maker"
SMS_SENDER_NAME = "sms-sender"
SIGNER_NAME = "chain-signer"  # the one holder of the hot wallet's keys (actors/chain/signer.py)

# While a pair moves to another node (actors.pair.placement) these Redis keys say so to the engine:
PAIR_MOVING = f"{PREFIX}pair-moving:"  # + symbol: a move of this pair is under way
PAIR_MOVED = f"{PREFIX}pair-moved:"  # + actor id: this actor was stopped by a move, after its pause

# A pair refuses an order sent longer ago than this, so a wallet shard's freeze whose order has no
# row after ORPHAN_GRACE_MS can be released without the order ever appearing later.
SUBMIT_DEADLINE_MS = 20_000
ORPHAN_GRACE_MS = 60_000


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


def watcher_name(chain: str) -> str:
    """The ChainWatcher of a chain (a currency protocol's chain: LTC, ERC20)."""
    return f"chain-watcher-{chain.lower()}"


def fanout_name(node_label: str) -> str:
    """The Fanout of the node labelled ``node_label`` (node-1, node-2, …)."""
    return FANOUT_PREFIX + node_label
