"""The console's markets (issue 16, the markets role): the pairs with their trading switches, fees,
bounds and mark impact notional (issue 27), changed in the database and on the running pair actor at
once (``reload_config``: the next batch uses them, no restart). The edge's copy of the pair table
follows within its refresh; the lever shards take a new price band or maximum price at once too.
(Lever and second-contract terms: ``contracts``; currencies: ``currencies``.)

The pair placement view: the cluster's nodes with the pairs each runs, and moving a pair's actor to
another node (``PairPlacement.move``, as ``exchange pairs move`` does: paused about a second, no order
lost), each move audited."""

from __future__ import annotations

import asyncio
from decimal import Decimal
from typing import Annotated, Any

import ray
from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from actors.names import PLACEMENT_NAME
from actors.nodes import alive_nodes
from serve.api.deps import EngineDep, Svc
from serve.api.routes.admin import fields
from serve.api.routes.admin.auth import Console, role
from serve.api.routes.admin.live import reload_lever
from serve.errors import envelope
from store.admin import audit
from store.db import transaction
from store.errors import DomainError, ErrorCode, OutcomeUnknown
from store.models import INT_MAX, CurrencyMatch
from store.money import money

router = APIRouter(tags=["back office"])
Markets = Annotated[Console, Depends(role("markets"))]
SWITCHES = ("open_change", "sell_disabled")
AMOUNTS = ("maker_fee", "taker_fee", "max_price", "max_quantity", "min_notional", "price_band", "impact_notional")
FEE_MAX = Decimal("0.05")  # 5 % a side: beyond it a typo, not a fee


class PairIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: int = Field(ge=1, le=INT_MAX)
    open_change: bool | None = None
    sell_disabled: bool | None = None
    maker_fee: str | None = Field(default=None, max_length=32, description="a fraction: 0.001 is 0.1 %")
    taker_fee: str | None = Field(default=None, max_length=32)
    max_price: str | None = Field(default=None, max_length=32)
    max_quantity: str | None = Field(default=None, max_length=32)
    min_notional: str | None = Field(default=None, max_length=32)
    price_band: str | None = Field(default=None, max_length=32)
    impact_notional: str | None = Field(default=None, max_length=32,
                                        description="the mark's impact notional, in the quote currency")  # fmt: skip
    max_open_orders: int | None = Field(default=None, ge=1, le=100_000)
    reason: str = Field(default="", max_length=500)


# The lever and second-contract terms the screen shows with each pair (changed by ``contracts``).
LEVER_AMOUNTS = ("lever_share_num", "lever_fee_rate", "lever_point_rate", "lever_overnight_rate", "lever_max_exposure")
MICRO_AMOUNTS = ("micro_fee_rate", "micro_max_exposure")
TEXTS = ("lever_multiples", "lever_shares", "micro_seconds")


def pair_view(p: CurrencyMatch) -> dict[str, Any]:
    """A pair as the markets screen shows it: switches, fees, bounds, lever and second-contract terms."""
    return {"id": p.id, "symbol": f"{p.base_currency.code}/{p.quote_currency.code}", "quote": p.quote_currency.code,
            "open_change": p.open_change, "sell_disabled": p.sell_disabled, "open_lever": p.open_lever,
            "open_microtrade": p.open_microtrade, **{k: money(getattr(p, k)) for k in AMOUNTS},
            "max_open_orders": p.max_open_orders, "price_decimals": p.price_decimals, "qty_decimals": p.qty_decimals,
            **{k: money(getattr(p, k)) for k in (*LEVER_AMOUNTS, *MICRO_AMOUNTS)},
            **{k: getattr(p, k) for k in TEXTS}, "lever_max_hands": p.lever_max_hands}  # fmt: skip


def _amount(name: str, text: str) -> Decimal:
    if name in ("maker_fee", "taker_fee"):
        return fields.number(name, text, high=FEE_MAX)
    return fields.number(name, text, high=fields.MOST_AMOUNT, above=True)


@router.get("/pairs")
async def pairs(console: Markets) -> Any:
    rows = await CurrencyMatch.all().order_by("sort", "id").prefetch_related("base_currency", "quote_currency")
    return envelope([pair_view(p) for p in rows])


@router.post("/pairs/update")
async def update(body: PairIn, console: Markets, engine: EngineDep, svc: Svc) -> Any:
    """Change a pair's switches, fees, bounds or impact notional; the running pair applies them from its
    next batch."""
    given = {k: getattr(body, k) for k in (*SWITCHES, "max_open_orders", *AMOUNTS) if getattr(body, k) is not None}
    changes: dict[str, Any] = {k: v for k, v in given.items() if k not in AMOUNTS}
    changes.update({k: _amount(k, v) for k, v in given.items() if k in AMOUNTS})
    if not changes:
        raise DomainError(ErrorCode.ADMIN_NOTHING_TO_CHANGE)
    async with transaction() as conn:
        pair = await CurrencyMatch.filter(id=body.id).select_for_update().using_db(conn).first()
        if pair is None:
            raise DomainError(ErrorCode.NOT_FOUND)
        before = {k: money(v) if isinstance(v, Decimal) else v for k in changes for v in [getattr(pair, k)]}
        await CurrencyMatch.filter(id=pair.id).using_db(conn).update(**changes)
        after = {k: money(v) if isinstance(v, Decimal) else v for k, v in changes.items()}
        await audit.record(console.actor("markets"), "pair.update", f"pair:{pair.id}", before=before, after=after,
                           reason=body.reason, conn=conn)  # fmt: skip
    svc.pairs.forget()
    pair = await CurrencyMatch.get(id=body.id).prefetch_related("base_currency", "quote_currency")
    applied = True
    try:  # a pair without an actor (closed when the exchange started) takes it at its next start
        await engine.ask(f"{pair.base_currency.code}/{pair.quote_currency.code}", "reload_config")
    except (DomainError, OutcomeUnknown):
        applied = False
    if pair.open_lever and changes.keys() & {"price_band", "max_price"}:  # an entrustment's target is bound by them
        applied = await reload_lever(engine) and applied
    return envelope({**pair_view(pair), "applied_live": applied})


class MoveIn(BaseModel):
    symbol: str = Field(min_length=3, max_length=32, pattern=r"^[A-Za-z0-9]+/[A-Za-z0-9]+$", description="BTC/USDT")
    node: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9._:-]+$",
                      description="the target node: its name, id (prefix) or IP")  # fmt: skip
    reason: str = Field(default="", max_length=500)


def _placement() -> Any:
    try:
        return ray.get_actor(PLACEMENT_NAME)
    except ValueError as exc:  # no placement actor on this cluster (it starts with the engine)
        raise DomainError(ErrorCode.SERVICE_UNAVAILABLE) from exc


@router.get("/placement")
async def placement(console: Markets) -> Any:
    """The alive nodes (name, id, IP, pair slots) with the pairs running on each, and every pair's
    node, pin, open orders and state (up, paused, down)."""
    nodes = await asyncio.to_thread(alive_nodes)  # ray.nodes() asks the GCS synchronously
    pairs = await _placement().pairs.remote()
    return envelope({
        "nodes": [{"name": n.label, "id": n.id, "ip": n.ip, "pair_slots": n.pair_slots,
                   "pairs": sorted(p["symbol"] for p in pairs if p["node_id"] == n.id)} for n in nodes],
        "pairs": [{k: p[k] for k in ("symbol", "pair_id", "node", "pin", "open_orders", "state")} for p in pairs],
    })  # fmt: skip


@router.post("/placement/move")
async def move(body: MoveIn, console: Markets) -> Any:
    """Move a pair's actor to another node; answers the move's report (pause, open orders, the book
    checked against the database). A pair already there answers ``moved`` false."""
    symbol = body.symbol.upper()
    report = await _placement().move.remote(symbol, body.node)
    failed = "error" in report
    after = {"error": report["error"]} if failed else {"node": report.get("to"), "pause_ms": report.get("pause_ms")}
    await audit.record(console.actor("markets"), "pair.move" + (".failed" if failed else ""), f"pair:{symbol}",
                       before={"node": report.get("from")}, after=after, reason=body.reason)  # fmt: skip
    if failed:
        raise DomainError(ErrorCode.PAIR_MOVE_FAILED, reason=report["error"])
    return envelope(report)
