"""The Ray nodes of the cluster as operators name them, and pinning an actor to one.

A node is named by its Ray node name (``ray start --node-name``, the IP when not given), its node id
or a unique prefix of it (6 hex digits or more), or its IP when only one node has it. Pair actors
need one unit of the ``pairs`` resource: only nodes started with ``--resources='{"pairs": N}'`` host
pairs, N of them at most (``ray-cluster.yaml``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

PAIR_RESOURCE = "pairs"
MIN_ID_PREFIX = 6


@dataclass(frozen=True)
class Node:
    id: str
    name: str
    ip: str
    pair_slots: int

    @property
    def label(self) -> str:
        """How the CLI shows the node: its name, else the start of its id."""
        return self.name if self.name and self.name != self.ip else self.id[:8]


def alive_nodes() -> list[Node]:
    """The alive nodes, by name."""
    found = [
        Node(
            id=n["NodeID"],
            name=n.get("NodeName") or n["NodeManagerAddress"],
            ip=n["NodeManagerAddress"],
            pair_slots=int(n["Resources"].get(PAIR_RESOURCE, 0)),
        )
        for n in ray.nodes()
        if n["Alive"]
    ]
    return sorted(found, key=lambda n: (n.name, n.id))


def find_node(ref: str, nodes: list[Node]) -> Node:
    """The alive node ``ref`` names. Raises LookupError saying which nodes there are."""
    ref = ref.strip()
    for matches in (
        [n for n in nodes if n.name == ref or n.id == ref],
        [n for n in nodes if len(ref) >= MIN_ID_PREFIX and n.id.startswith(ref.lower())],
        [n for n in nodes if n.ip == ref],
    ):
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise LookupError(f"{ref!r} names {len(matches)} nodes; use a node id: " + _listing(matches))
    raise LookupError(f"no alive node {ref!r}; the nodes are: " + _listing(nodes))


def _listing(nodes: list[Node]) -> str:
    return ", ".join(f"{n.label} ({n.id[:8]}, {n.ip})" for n in nodes) or "none"


def pinned_to(node_id: str | None, *, soft: bool = True) -> dict[str, Any]:
    """Options that place an actor on ``node_id`` while that node lives, anywhere else otherwise;
    with no node, spread over the nodes (pairs not pinned share the pair hosts out evenly).

    Soft affinity: when the node dies the actor restarts on another node that hosts pairs (trading
    goes on), and ``exchange pairs`` shows it away from its pin until an operator moves it back.
    """
    if node_id is None:
        return {"scheduling_strategy": "SPREAD"}
    return {"scheduling_strategy": NodeAffinitySchedulingStrategy(node_id, soft=soft)}
