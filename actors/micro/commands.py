"""The stake a second contract travels as from the edge to its MicroTimer: the route checks its
presence and format and builds it, ``Engine.stake`` carries it, ``MicroTimer.submit`` checks the
business rules (offered pair and duration, stake bounds, exposure). Typed, so a renamed field fails
the type checker rather than a contract in flight (docs/architecture.md "Typed calls")."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Stake:
    pair_id: int  # the wire's match_id
    currency_id: int
    side: int  # the wire's type: 1 up, 2 down
    lx: int  # the stake's kind (the wire's lx)
    seconds: int
    number: Decimal
