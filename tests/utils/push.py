"""Reading push messages from a websocket in tests."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from websockets.asyncio.client import ClientConnection


async def next_of(ws: ClientConnection, kind: str, wait: float = 10) -> dict[str, Any]:
    async def read() -> dict[str, Any]:
        while True:
            message = json.loads(await ws.recv())
            if message.get("type") == kind:
                return message

    return await asyncio.wait_for(read(), wait)


async def first_of_each(ws: ClientConnection, kinds: set[str], wait: float = 10) -> dict[str, dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}

    async def read() -> None:
        while not kinds <= seen.keys():
            message = json.loads(await ws.recv())
            seen.setdefault(message.get("type"), message)

    await asyncio.wait_for(read(), wait)
    return seen
