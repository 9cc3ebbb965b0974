"""Development helpers. This router is only mounted when EXCHANGE_ENV is not production."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from serve.api.deps import Svc
from serve.errors import envelope

router = APIRouter(prefix="/dev", tags=["dev"])


@router.get("/outbox")
async def outbox(to: Annotated[str, Query(min_length=1, max_length=64)], svc: Svc) -> Any:
    """Codes sent to an e-mail or phone number, newest first."""
    return envelope(await svc.outbox.read(to.strip().lower()))


@router.post("/noop")
async def noop() -> Any:
    """Does nothing (no database, no Redis): the baseline of bench/serve_bench.py."""
    return envelope({"ok": True})
