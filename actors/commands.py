"""The typed commands that carry an order from the edge to an actor (docs/architecture.md "Typed
calls"): the route checks presence and format and builds one, an ``Engine`` method carries it, the
actor checks the business rules. Typed, so a renamed field fails the type checker rather than an order
in flight. Below the engine and every actor kind, which all import it.

- ``LeverOrder``: a leveraged position to open (``Engine.lever_submit`` -> ``LeverShard.submit``, which
  checks multiples, hands, the target against the mark, exposure and balance).
- ``Stake``: a second contract (``Engine.stake`` -> ``MicroTimer.submit``, which checks the offered pair
  and duration, the stake bounds and the exposure).

And the one typed answer a route reads by key: ``LeverOverview`` (``Engine.lever_overview`` <-
``LeverShard.overview``), whose fields ``lever/deal`` and ``lever/dealall`` pass on.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TypedDict


@dataclass(frozen=True)
class LeverOrder:
    pair_id: int  # the wire's currency_match_id
    side: int  # the wire's type: 1 long, 2 short
    hands: int  # the wire's share
    multiple: int
    target: Decimal | None = None  # an entrustment's price (the wire's target_price); None: at the market
    id: int | None = None  # the position's id, when an idempotency key fixed it (serve.api.idempotency)

    @property
    def limit(self) -> bool:
        """An entrustment: it opens when the mark reaches ``target``."""
        return self.target is not None


@dataclass(frozen=True)
class Stake:
    pair_id: int  # the wire's match_id
    currency_id: int
    side: int  # the wire's type: 1 up, 2 down
    lx: int  # the stake's kind (the wire's lx)
    seconds: int
    number: Decimal


class LeverOverview(TypedDict):
    """A lever account at a glance, amounts as strings (``store.money.money``)."""

    balance: str  # free USDT
    margins: str  # held by open positions
    hazard_rate: str | None  # the risk rate, percent; None with no open position
    profits_all: str  # unrealised at the marks, of the positions asked about
    marks: dict[int, str]  # the shard's mark of each lever pair
