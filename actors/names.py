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
PAIR_AT = f"{PREFIX}pair-at:"  # + symbol: the generation of the pair's live actor (each move adds one)

# A pair refuses an order sent longer ago than this, so a wallet shard's freeze whose order has no
# row after ORPHAN_GRACE_MS can be released without the order ever appearing later.
SUBMIT_DEADLINE_MS = 20_000
ORPHAN_GRACE_MS = 60_000


def pair_name(symbol: str, generation: int = 0) -> str:
    """The PairActor of ``symbol`` (BTC/USDT) in its ``generation``: a move starts the next one under a
    name of its own, as a warm standby, while the current one still trades (``pair:BTC/USDT@1``)."""
    return f"pair:{symbol}" if generation == 0 else f"pair:{symbol}@{generation}"


def pair_generation(name: str, symbol: str) -> int | None:
    """The generation ``name`` is of ``symbol``'s PairActor, or None if it names another actor."""
    first = pair_name(symbol)
    if name == first:
        return 0
    tail = name.removeprefix(first + "@")
    return int(tail) if tail != name and tail.isdigit() else None


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
