"""The console's Chain page (finance): per chain the watcher's node height, cursor, lag, pending
deposits and last error, and the Signer's side: the hot wallet's balances, the approved withdrawals not
yet signed, each transaction not yet final, and the last sweep with what the hot wallet holds above
its ceiling. The same figures as ``exchange chain status``, read from the actors themselves."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import ray
from fastapi import APIRouter, Depends

from actors.names import SIGNER_NAME, watcher_name
from config.chains import ADAPTED_CHAINS
from serve.api.routes.admin.auth import Console, role
from serve.errors import envelope

router = APIRouter(tags=["back office"])
Finance = Annotated[Console, Depends(role("finance"))]
ASK_S = 10.0  # a status is a few node calls; an actor that does not answer in this long is shown as such


async def _status(name: str) -> Any:
    """The actor's ``status()``, None when it does not run (no node configured), or an error entry."""
    try:
        actor = ray.get_actor(name)
    except ValueError:
        return None
    try:
        return await asyncio.wait_for(actor.status.remote(), timeout=ASK_S)
    except (TimeoutError, ray.exceptions.RayError) as exc:
        return {"error": f"{name} did not answer: {type(exc).__name__}"}


@router.get("/chain")
async def chain(console: Finance) -> Any:
    """``watchers``: one entry per running ChainWatcher; ``signer``: one entry per chain it sends on
    (empty when no chain node is configured)."""
    watchers = [found for chain in ADAPTED_CHAINS if (found := await _status(watcher_name(chain))) is not None]
    signer = await _status(SIGNER_NAME)
    if isinstance(signer, dict):  # it did not answer: one row saying so
        signer = [{"chain": "-", **signer}]
    return envelope({"watchers": watchers, "signer": signer or []})
