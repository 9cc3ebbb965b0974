"""The FastAPI application: ``/api/`` routes, the error envelope, and the built SPA at ``/``.

Served by Ray Serve (``serve.deployment``); also runs under any ASGI server, which the CLI and the
tests do not need but makes the app easy to poke at.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, Response
from fastapi.routing import APIRoute, iter_route_contexts
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from actors.engine import Engine
from actors.runtime import freeze_startup_objects
from config.settings import Settings
from serve.api.deps import Services
from serve.api.routes import (
    account,
    admin,
    default,
    dev,
    draw,
    earn,
    health,
    lever,
    market,
    marks,
    micro,
    news,
    notify,
    p2p,
    personal,
    records,
    sales,
    spot,
    transfer,
    upload,
    user,
    wallet,
)
from serve.body_limit import BodyLimit, BodyLimits
from serve.errors import install_error_handlers
from store.cache import connect_redis
from store.db import close_db, init_db
from store.errors import DomainError, ErrorCode

API_PREFIX = "/api"


def api_router(settings: Settings) -> APIRouter:
    router = APIRouter()
    modules = (
        admin,
        health,
        news,
        default,
        notify,
        user,
        market,
        marks,
        spot,
        lever,
        micro,
        earn,
        account,
        transfer,
        records,
        wallet,
        draw,
        personal,
        upload,
        sales,
        p2p,
    )
    for module in modules:
        router.include_router(module.router)
    if settings.is_development:
        router.include_router(dev.router)
    return router


def lifespan_for(settings: Settings) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """What a Serve app of the exchange opens on start and closes on stop: the ORM, Redis, the
    services and the engine's actor handles (the API and walletMiddle share it)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await init_db(settings, "serve")
        redis = connect_redis(settings)
        app.state.services = Services.build(settings, redis)
        app.state.engine = Engine(
            settings.wallet_shards, redis, lever_shards=settings.lever_shards, micro_shards=settings.micro_shards
        )
        freeze_startup_objects()
        try:
            yield
        finally:
            await redis.aclose()
            await close_db()

    return lifespan


def create_app(settings: Settings) -> FastAPI:
    app = FastAPI(
        title="Exchange API",
        version="0.1.0",
        summary="Spot, contracts, wallets and content. Every answer is {code, msg, data}.",
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=f"{API_PREFIX}/docs",
        redoc_url=None,
        lifespan=lifespan_for(settings),
    )
    install_error_handlers(app)
    app.add_middleware(BodyLimit, limits=BodyLimits.of(settings))
    include_flat(app, api_router(settings), API_PREFIX)
    _mount_spa(app, settings.frontend_dist)
    return app


def include_flat(app: FastAPI, router: APIRouter, prefix: str) -> None:
    """Add every route of ``router``, and of the routers it includes, to ``app`` itself under ``prefix``:
    the routes, paths, OpenAPI document and answers of ``app.include_router(router, prefix=prefix)``.

    Since FastAPI 0.137 an included router stays a node of the tree, and a request walks every node's
    routes, twice, before its own runs: ~0.3 ms of a replica's CPU per request with this API's 21
    routers and 140 routes (docs/performance.md §21). Routes of the app itself are matched one after
    the other by their compiled path alone, as FastAPI did before. The routers inside ``router`` are
    included with a prefix only (each route carries its own router's tags, dependencies and answers);
    tests/unit/test_flat_routes.py compares the OpenAPI documents."""
    tree = APIRouter()
    tree.include_router(router, prefix=prefix)
    for context in iter_route_contexts(tree.routes):
        route = context.original_route
        if not isinstance(route, APIRoute) or context.path is None:
            raise TypeError(f"only API routes can be flattened, not {route!r}")
        app.router.add_api_route(
            context.path,
            route.endpoint,
            response_model=route.response_model,
            status_code=route.status_code,
            tags=route.tags,
            dependencies=route.dependencies,
            summary=route.summary,
            description=route.description,
            response_description=route.response_description,
            responses=route.responses,
            deprecated=route.deprecated,
            methods=route.methods,
            operation_id=route.operation_id,
            response_model_include=route.response_model_include,
            response_model_exclude=route.response_model_exclude,
            response_model_by_alias=route.response_model_by_alias,
            response_model_exclude_unset=route.response_model_exclude_unset,
            response_model_exclude_defaults=route.response_model_exclude_defaults,
            response_model_exclude_none=route.response_model_exclude_none,
            include_in_schema=route.include_in_schema,
            response_class=route.response_class,
            name=route.name,
            callbacks=route.callbacks,
            openapi_extra=route.openapi_extra,
            generate_unique_id_function=route.generate_unique_id_function,
            strict_content_type=route.strict_content_type,
            max_body_size=route.max_body_size,
        )


CATCH_ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def _matches_other_method(request: Request, catch_all: Any) -> bool:
    """Whether some route other than the catch-all serves this path with another method."""
    for route in request.app.router.routes:
        if getattr(route, "endpoint", None) is not catch_all and route.matches(request.scope)[0] is Match.PARTIAL:
            return True
    return False


def _mount_spa(app: FastAPI, dist: Path) -> None:
    """Serve the built single-page app; unknown paths get index.html so client routes deep-link."""
    root = dist.resolve()

    # Every method lands here, so an unknown /api/ path is 404 whatever the method (not the 405 a
    # GET-only catch-all would give), and a known /api/ path with the wrong method is 405 (not the 404
    # of a catch-all that fully matches GET).
    @app.api_route("/{path:path}", methods=CATCH_ALL_METHODS, include_in_schema=False)
    async def spa(path: str, request: Request) -> Any:
        if path == "api" or path.startswith("api/"):
            if _matches_other_method(request, spa):
                raise StarletteHTTPException(status_code=405)
            raise DomainError(ErrorCode.NOT_FOUND)
        if request.method != "GET":
            raise StarletteHTTPException(status_code=405)
        index = root / "index.html"
        if not index.is_file():
            return Response(
                "The web app is not built yet: run `make run` (or `npm run build` in frontend/).",
                media_type="text/plain",
            )
        target = (root / path).resolve()
        if path and target.is_file() and target.is_relative_to(root):
            cache = "public, max-age=31536000, immutable" if path.startswith("assets/") else "no-cache"
            return FileResponse(target, headers={"Cache-Control": cache})
        return FileResponse(index, headers={"Cache-Control": "no-cache"})
