"""The console's lever and second-contract terms of a pair (issue 16, the markets role):
``admin/pairs/lever`` and ``admin/pairs/micro``.

Each change is checked (``fields``), written with its audit row (before, after, reason) in one
transaction, then told to the running actors (``live``): every LeverShard, or every MicroTimer, reads
the terms again, so the next open or stake is made with them. Terms are frozen on what was made before
(a position's fee, spread and overnight rate; a contract's ratio and fee): no change here reaches a
position already open or decides a contract already accepted. Closing a pair for lever or second
contracts refuses new ones (LEVER_NOT_OFFERED, MICRO_NOT_OFFERED); those already made run to their end.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from serve.api.deps import EngineDep
from serve.api.routes.admin import fields
from serve.api.routes.admin.auth import Console, role
from serve.api.routes.admin.live import reload_lever, reload_micro
from serve.api.routes.admin.markets import pair_view
from serve.errors import envelope
from store.admin import audit
from store.db import transaction
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, CurrencyMatch
from store.money import money

router = APIRouter(tags=["back office"])
Markets = Annotated[Console, Depends(role("markets"))]
USDT = "USDT"  # the quote currency of every lever and second-contract pair
LEVER_FEE_MAX = Decimal("0.05")  # of the position's value: as a spot fee, beyond it a typo
SPREAD_MAX = Decimal(5)  # percent of the mark, each way
OVERNIGHT_MAX = Decimal("0.01")  # of the position's value a day
MICRO_FEE_MAX = Decimal(50)  # percent of a win's profit
MOST_MULTIPLE = 1000
MOST_HANDS = 1_000_000


class PairTermsIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: int = Field(ge=1, le=INT_MAX)
    reason: str = Field(default="", max_length=500)


class LeverIn(PairTermsIn):
    open_lever: bool | None = Field(default=None, description="false: new positions refused; open ones run on")
    lever_share_num: str | None = Field(default=None, max_length=32, description="base units in one hand")
    lever_fee_rate: str | None = Field(default=None, max_length=32, description="a fraction of the value: 0.001")
    lever_point_rate: str | None = Field(default=None, max_length=32, description="the spread, percent of the mark")
    lever_overnight_rate: str | None = Field(default=None, max_length=32, description="a fraction of the value a day")
    lever_max_exposure: str | None = Field(default=None, max_length=32, description="the house's net cap, USDT")
    lever_multiples: str | None = Field(default=None, max_length=64, description='the multiples offered: "5,10,20"')
    lever_shares: str | None = Field(default=None, max_length=64, description='the hand presets: "1,2,5"')
    lever_max_hands: int | None = Field(default=None, ge=1, le=MOST_HANDS)


class MicroIn(PairTermsIn):
    open_microtrade: bool | None = Field(default=None, description="false: new contracts refused; open ones settle")
    micro_seconds: str | None = Field(default=None, max_length=128, description='seconds:percent, "30:80,60:85"')
    micro_fee_rate: str | None = Field(default=None, max_length=32, description="percent of a win's profit")
    micro_max_exposure: str | None = Field(default=None, max_length=32,
                                           description="the house's worst case per duration, USDT")  # fmt: skip


def _lever_changes(body: LeverIn, pair: CurrencyMatch) -> dict[str, Any]:
    """The lever settings given, checked against the pair as it will be."""
    given = body.model_dump(exclude_unset=True, exclude_none=True, exclude={"id", "reason"})
    amounts = {"lever_share_num": (fields.MOST_AMOUNT, True), "lever_fee_rate": (LEVER_FEE_MAX, False),
               "lever_point_rate": (SPREAD_MAX, False), "lever_overnight_rate": (OVERNIGHT_MAX, False),
               "lever_max_exposure": (fields.MOST_AMOUNT, True)}  # fmt: skip
    changes: dict[str, Any] = {}
    for name, (high, above) in amounts.items():
        if name in given:
            changes[name] = fields.number(name, given[name], high=high, above=above)
    if "lever_multiples" in given:
        changes["lever_multiples"] = fields.whole_list("lever_multiples", given["lever_multiples"], low=1,
                                                       high=MOST_MULTIPLE)  # fmt: skip
    if "lever_shares" in given or "lever_max_hands" in given:  # every hand preset within the most hands
        hands = given.get("lever_max_hands", pair.lever_max_hands)
        shares = fields.whole_list("lever_shares", given.get("lever_shares", pair.lever_shares), low=1, high=hands)
        if "lever_shares" in given:
            changes["lever_shares"] = shares
    for name in ("open_lever", "lever_max_hands"):
        if name in given:
            changes[name] = given[name]
    if changes.get("open_lever") and pair.quote_currency.code != USDT:
        raise DomainError(ErrorCode.ADMIN_USDT_PAIR_ONLY)
    return changes


def _micro_changes(body: MicroIn, pair: CurrencyMatch) -> dict[str, Any]:
    """The second-contract settings given, checked."""
    given = body.model_dump(exclude_unset=True, exclude_none=True, exclude={"id", "reason"})
    changes: dict[str, Any] = {}
    if "micro_seconds" in given:
        changes["micro_seconds"] = fields.durations("micro_seconds", given["micro_seconds"])
    if "micro_fee_rate" in given:
        changes["micro_fee_rate"] = fields.number("micro_fee_rate", given["micro_fee_rate"], high=MICRO_FEE_MAX)
    if "micro_max_exposure" in given:
        changes["micro_max_exposure"] = fields.number("micro_max_exposure", given["micro_max_exposure"],
                                                      high=fields.MOST_AMOUNT, above=True)  # fmt: skip
    if "open_microtrade" in given:
        changes["open_microtrade"] = given["open_microtrade"]
    if changes.get("open_microtrade") and pair.quote_currency.code != USDT:
        raise DomainError(ErrorCode.ADMIN_USDT_PAIR_ONLY)
    return changes


def _shown(value: Any) -> Any:
    return money(value) if isinstance(value, Decimal) else value


async def change_pair(console: Console, pair_id: int, action: str, reason: str,
                      decide: Callable[[CurrencyMatch], dict[str, Any]]) -> CurrencyMatch:  # fmt: skip
    """Lock the pair's row, work out the changes from it (``decide`` raises DomainError to refuse), write
    them and the audit row (only the fields that change, before and after) in one transaction."""
    async with transaction() as conn:
        pair = await CurrencyMatch.filter(id=pair_id).select_for_update().using_db(conn).first()
        if pair is None:
            raise DomainError(ErrorCode.NOT_FOUND)
        await pair.fetch_related("quote_currency", using_db=conn)
        changes = decide(pair)
        if not changes:
            raise DomainError(ErrorCode.ADMIN_NOTHING_TO_CHANGE)
        before = {k: _shown(getattr(pair, k)) for k in changes}
        await CurrencyMatch.filter(id=pair.id).using_db(conn).update(**changes)
        await audit.record(console.actor("markets"), action, f"pair:{pair.id}", before=before,
                           after={k: _shown(v) for k, v in changes.items()}, reason=reason, conn=conn)  # fmt: skip
    return await CurrencyMatch.get(id=pair_id).prefetch_related("base_currency", "quote_currency")


@router.post("/pairs/lever")
async def lever(body: LeverIn, console: Markets, engine: EngineDep) -> Any:
    """Change a pair's lever terms; every lever shard makes its next position with them."""
    pair = await change_pair(console, body.id, "pair.lever", body.reason, lambda p: _lever_changes(body, p))
    return envelope({**pair_view(pair), "applied_live": await reload_lever(engine)})


@router.post("/pairs/micro")
async def micro(body: MicroIn, console: Markets, engine: EngineDep) -> Any:
    """Change a pair's second-contract terms; every MicroTimer makes its next contract with them."""
    pair = await change_pair(console, body.id, "pair.micro", body.reason, lambda p: _micro_changes(body, p))
    return envelope({**pair_view(pair), "applied_live": await reload_micro(engine)})
