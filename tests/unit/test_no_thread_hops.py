"""No request waits for a worker thread: FastAPI runs a plain ``def`` route or dependency in its thread
pool (a thread hop per request and per dependency), which cost the order path a tenth of the API
replica's CPU (py-spy) when the engine's dependency was one. Every route of the API and the wallet
middle office, and every dependency they use, is ``async``."""

from __future__ import annotations

import inspect
from typing import Any

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from config.settings import Settings
from serve.app import create_app
from serve.wallet_middle import create_wallet_middle_app


def _sync_calls(dependant: Dependant, where: str) -> list[str]:
    found = []
    call: Any = dependant.call
    if call is not None and not (inspect.iscoroutinefunction(call) or inspect.isasyncgenfunction(call)):
        found.append(f"{where}: {getattr(call, '__qualname__', call)}")
    for sub in dependant.dependencies:
        found += _sync_calls(sub, where)
    return found


def _routes(routes: list[Any]) -> list[APIRoute]:
    """Every API route, including those of routers included as a whole (``original_router``)."""
    found: list[APIRoute] = []
    for route in routes:
        if isinstance(route, APIRoute):
            found.append(route)
        elif (router := getattr(route, "original_router", None)) is not None:
            found += _routes(router.routes)
    return found


def test_every_route_and_dependency_runs_on_the_event_loop() -> None:
    settings = Settings(env="test")
    apps = [create_app(settings), create_wallet_middle_app(settings)]
    routes = [route for app in apps for route in _routes(app.routes)]
    assert len(routes) > 100  # the whole API, not an empty app
    sync = [call for route in routes for call in _sync_calls(route.dependant, f"{sorted(route.methods)} {route.path}")]
    assert sync == []
