"""The console's currencies (issue 16, the markets role): ``admin/currencies`` and
``admin/currencies/update``.

Deposits and withdrawals read a currency's row on every request (its switches, fee and bounds, the
confirmations a chain deposit needs), so a change here applies to the next one; the second-contract
stakes (presets, bounds, the most one user may have open) are held by the MicroTimer shards, which
read them again at once (``live.reload_micro``). A stake already made keeps what it was made with.
Each change is written with its audit row (before, after, reason) in one transaction.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from serve.api.deps import EngineDep
from serve.api.routes.admin import fields
from serve.api.routes.admin.auth import Console, role
from serve.api.routes.admin.live import reload_micro
from serve.errors import envelope
from store.admin import audit
from store.db import transaction
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, AccountType, Currency
from store.money import money

router = APIRouter(tags=["back office"])
Markets = Annotated[Console, Depends(role("markets"))]
SWITCHES = ("open_recharge", "open_draw")
AMOUNTS = ("draw_rate", "draw_min", "draw_max", "recharge_min", "micro_min", "micro_max", "micro_max_open")
MICRO = ("micro_numbers", "micro_min", "micro_max", "micro_max_open")  # held by the MicroTimer shards
DRAW_RATE_MAX = Decimal("0.1")  # a withdrawal fee above 10 % of the amount is a typo


class CurrencyIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: int = Field(ge=1, le=INT_MAX)
    open_recharge: bool | None = Field(default=None, description="deposits credited")
    open_draw: bool | None = Field(default=None, description="withdrawals taken")
    draw_rate: str | None = Field(default=None, max_length=32, description="the withdrawal fee, a fraction: 0.001")
    draw_min: str | None = Field(default=None, max_length=32)
    draw_max: str | None = Field(default=None, max_length=32, description="0: no maximum")
    recharge_min: str | None = Field(default=None, max_length=32, description="smaller deposits are not credited")
    confirmations: int | None = Field(default=None, ge=1, le=1000, description="to credit a chain deposit")
    micro_numbers: str | None = Field(default=None, max_length=128,
                                      description='preset stakes, "10,50,100"; empty: no stakes in it')  # fmt: skip
    micro_min: str | None = Field(default=None, max_length=32)
    micro_max: str | None = Field(default=None, max_length=32)
    micro_max_open: str | None = Field(default=None, max_length=32, description="one user's open stakes at most")
    reason: str = Field(default="", max_length=500)


def currency_view(c: Currency) -> dict[str, Any]:
    """A currency as the console shows it."""
    return {"id": c.id, "code": c.code, "name": c.name, "decimals": c.decimals, "open_recharge": c.open_recharge,
            "open_draw": c.open_draw, **{k: money(getattr(c, k)) for k in AMOUNTS},
            "confirmations": c.confirmations, "micro_numbers": c.micro_numbers, "max_amount": money(c.max_amount),
            "stake": str(int(AccountType.MICRO)) in c.account_types.split(",")}  # fmt: skip


def _changes(body: CurrencyIn, coin: Currency) -> dict[str, Any]:
    """The settings given, checked against the currency as it will be (a minimum not above its maximum,
    the presets within the stake bounds)."""
    given = body.model_dump(exclude_unset=True, exclude_none=True, exclude={"id", "reason"})
    places = coin.decimals
    changes: dict[str, Any] = {k: given[k] for k in (*SWITCHES, "confirmations") if k in given}
    if "draw_rate" in given:
        changes["draw_rate"] = fields.number("draw_rate", given["draw_rate"], high=DRAW_RATE_MAX)
    for name in ("draw_min", "draw_max", "recharge_min"):
        if name in given:
            changes[name] = fields.number(name, given[name], high=fields.MOST_AMOUNT, places=places)
    for name in ("micro_min", "micro_max", "micro_max_open"):
        if name in given:
            changes[name] = fields.number(name, given[name], high=fields.MOST_AMOUNT, above=True, places=places)
    after = {k: changes.get(k, getattr(coin, k)) for k in (*AMOUNTS, "micro_numbers")}
    if changes.keys() & {"draw_min", "draw_max"} and after["draw_max"] > 0:  # 0: no maximum
        fields.ordered("draw_min", after["draw_min"], "draw_max", after["draw_max"])
    if changes.keys() & {"micro_min", "micro_max"}:
        fields.ordered("micro_min", after["micro_min"], "micro_max", after["micro_max"])
    if changes.keys() & {"micro_min", "micro_max_open"}:
        fields.ordered("micro_min", after["micro_min"], "micro_max_open", after["micro_max_open"])
    if changes.keys() & {"micro_min", "micro_max"} or "micro_numbers" in given:
        presets = fields.presets("micro_numbers", given.get("micro_numbers", coin.micro_numbers),
                                 low=after["micro_min"], high=after["micro_max"], places=places)  # fmt: skip
        if "micro_numbers" in given:
            changes["micro_numbers"] = presets
    return changes


def _shown(value: Any) -> Any:
    return money(value) if isinstance(value, Decimal) else value


@router.get("/currencies")
async def currencies(console: Markets) -> Any:
    """Every currency with its deposit and withdrawal switches and bounds and its second-contract stakes."""
    return envelope([currency_view(c) for c in await Currency.all().order_by("sort", "id")])


@router.post("/currencies/update")
async def update(body: CurrencyIn, console: Markets, engine: EngineDep) -> Any:
    """Change a currency's switches, withdrawal fee and bounds, deposit minimum, confirmations or stakes;
    deposits and withdrawals apply it to the next request, the MicroTimer shards to the next stake."""
    async with transaction() as conn:
        coin = await Currency.filter(id=body.id).select_for_update().using_db(conn).first()
        if coin is None:
            raise DomainError(ErrorCode.NOT_FOUND)
        changes = _changes(body, coin)
        if not changes:
            raise DomainError(ErrorCode.ADMIN_NOTHING_TO_CHANGE)
        before = {k: _shown(getattr(coin, k)) for k in changes}
        await Currency.filter(id=coin.id).using_db(conn).update(**changes)
        await audit.record(console.actor("markets"), "currency.update", f"currency:{coin.code}", before=before,
                           after={k: _shown(v) for k, v in changes.items()}, reason=body.reason, conn=conn)  # fmt: skip
    applied = await reload_micro(engine) if changes.keys() & set(MICRO) else True
    return envelope({**currency_view(await Currency.get(id=body.id)), "applied_live": applied})
