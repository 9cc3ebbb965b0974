"""The console's SMS page (issue 30): the queue's messages with their state (support), and the
per-country ceilings of codes a minute against SMS pumping (risk), each change audited."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict, Field

from serve.api.deps import Svc
from serve.api.routes.admin.auth import Console, role
from serve.errors import envelope
from store.admin import audit
from store.sms import ceiling, queue
from store.sms.ceiling import CountryCeiling

router = APIRouter(prefix="/sms", tags=["back office"])
Support = Annotated[Console, Depends(role("support", "risk"))]
Risk = Annotated[Console, Depends(role("risk"))]
PER_PAGE = 50


class CeilingIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    region: str = Field(pattern="^[A-Z]{2}$", description="ISO 3166 country code")
    per_minute: int | None = Field(default=None, ge=0, le=1_000_000, description="none: back to the default")


@router.get("/messages")
async def messages(
    console: Support,
    state: Literal["", "queued", "sending", "sent", "delivered", "failed"] = "",
    to: Annotated[str, Query(max_length=20, pattern=r"^\+?[0-9]*$")] = "",
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
) -> Any:
    """Messages newest first (of one state, to one number), the code masked in each text."""
    rows, total = await queue.recent(state=state, to=to, limit=PER_PAGE, offset=(page - 1) * PER_PAGE)
    return envelope({"list": [queue.public(r) for r in rows], "page": page, "total": total, "limit": PER_PAGE})


@router.get("/ceilings")
async def ceilings(console: Risk, svc: Svc) -> Any:
    """The default ceiling, each country's own, and what each has used this minute."""
    overrides = await ceiling.overrides()
    used = await CountryCeiling(svc.redis, svc.settings).used(sorted(overrides))
    rows = [{"region": r, "per_minute": n, "used": used[r]} for r, n in sorted(overrides.items())]
    return envelope({"default": svc.settings.sms_country_per_minute, "list": rows})


@router.post("/ceilings/save")
async def ceilings_save(body: CeilingIn, console: Risk) -> Any:
    """Set a country's ceiling (0 closes it; none: back to the default)."""
    before = (await ceiling.overrides()).get(body.region)
    found = await ceiling.set_override(body.region, body.per_minute)
    await audit.record(console.actor("risk"), "sms.ceiling", f"sms_country:{body.region}",
                       before={"per_minute": before}, after={"per_minute": body.per_minute})  # fmt: skip
    return envelope({"region": body.region, "per_minute": found.get(body.region)})
