"""The API's routes are the app's own (``serve.app.include_flat``), not routers included as a whole:
FastAPI walks an included router's every route on each request, twice, which cost each REST request
~0.3 ms of the replica's CPU (docs/performance.md §21). Flattening must change nothing a client sees:
the same paths, methods, OpenAPI document and answers as ``include_router``."""

from __future__ import annotations

import asyncio
import warnings
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.routing import APIRoute

from config.settings import Settings
from serve.app import API_PREFIX, api_router, create_app
from serve.wallet_middle import create_wallet_middle_app
from serve.wallet_middle import router as wallet_middle_router


def _included(router: Any, prefix: str) -> dict[str, Any]:
    app = FastAPI()
    app.include_router(router, prefix=prefix)
    return app.openapi()


def _flat(app: FastAPI) -> dict[str, Any]:
    bare = FastAPI()
    bare.router.routes.extend(r for r in app.router.routes if isinstance(r, APIRoute) and r.include_in_schema)
    return bare.openapi()


def test_the_api_and_wallet_middle_routes_are_the_apps_own() -> None:
    settings = Settings(env="development")
    for app in (create_app(settings), create_wallet_middle_app(settings)):
        nested = [r for r in app.router.routes if getattr(r, "original_router", None) is not None]
        assert nested == []
        assert sum(isinstance(r, APIRoute) for r in app.router.routes) >= 3


def test_flattening_gives_the_document_include_router_gives() -> None:
    settings = Settings(env="development")
    flat, included = _flat(create_app(settings)), _included(api_router(settings), API_PREFIX)
    assert len(flat["paths"]) > 100
    assert flat["paths"] == included["paths"]
    assert flat["components"] == included["components"]
    with warnings.catch_warnings():  # its one route for GET and POST has one operation id, either way
        warnings.filterwarnings("ignore", "Duplicate Operation ID", UserWarning)
        middle = _flat(create_wallet_middle_app(settings))
        assert middle["paths"] == _included(wallet_middle_router, "")["paths"]


def test_a_flat_route_answers_as_before() -> None:
    app = create_app(Settings(env="development"))

    async def ask() -> list[httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://api") as client:
            return [await client.post(f"{API_PREFIX}/dev/noop", json={}), await client.get(f"{API_PREFIX}/dev/noop"),
                    await client.post(f"{API_PREFIX}/dev/no-such-route", json={})]  # fmt: skip

    noop, wrong_method, unknown = asyncio.run(ask())
    assert noop.status_code == 200 and noop.json()["data"] == {"ok": True}
    assert wrong_method.status_code == 405
    assert unknown.status_code == 404 and unknown.json()["code"] == 0
