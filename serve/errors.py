"""The edge: domain errors and bad input become the ``{code, msg, data}`` envelope and a status (the
codes, statuses and messages of every domain error are in ``serve.error_table``)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

import asyncpg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from pydantic_core import PydanticCustomError
from ray.exceptions import RayActorError, RayTaskError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException
from tortoise.exceptions import DBConnectionError

from serve.error_table import CODE_ERROR, CODE_OK, ERRORS
from serve.i18n import N_, translate
from store.errors import DomainError, ErrorCode

log = logging.getLogger(__name__)

# Generic texts for pydantic's own error types; our validators raise already-worded messages.
FIELD_REQUIRED = N_("{field} is required")
FIELD_INVALID = N_("{field} is invalid")
FIELD_TOO_LONG = N_("{field} is too long (at most {max} characters)")
MALFORMED_BODY = N_("The request body is not valid JSON")
METHOD_NOT_ALLOWED = N_("Method not allowed")
TOO_LONG_TYPES = {"string_too_long"}
REQUIRED_TYPES = {"missing", "string_too_short"}


def envelope(data: Any = None, msg: str = "", code: int = CODE_OK, status: int = 200) -> JSONResponse:
    """The answer ``{code, msg, data}``; ``data`` may be a response model (serve/api/responses.py) or a
    list of them."""
    if isinstance(data, BaseModel):
        data = data.model_dump(mode="json")
    elif isinstance(data, list) and data and isinstance(data[0], BaseModel):
        data = [item.model_dump(mode="json") for item in data]
    return JSONResponse({"code": code, "msg": msg, "data": data}, status_code=status)


def lang_of(request: Request) -> str | None:
    return request.headers.get("lang")


def validation_message(error: Mapping[str, Any], lang: str | None) -> str:
    """One readable sentence for the first pydantic error of a request."""
    etype = error.get("type", "")
    loc = [str(p) for p in error.get("loc", ()) if p not in ("body", "query", "path", "header")]
    field = translate(FIELD_LABELS.get(loc[-1], loc[-1]) if loc else "request", lang)
    if etype == "json_invalid":
        return translate(MALFORMED_BODY, lang)
    if etype.startswith("exchange."):
        return translate(str(error.get("msg", "")), lang)  # our rules word the message themselves
    if etype in REQUIRED_TYPES:
        return translate(FIELD_REQUIRED, lang, field=field)
    if etype in TOO_LONG_TYPES:
        return translate(FIELD_TOO_LONG, lang, field=field, max=error.get("ctx", {}).get("max_length"))
    return translate(FIELD_INVALID, lang, field=field)


FIELD_LABELS: dict[str, str] = {
    "account": N_("Account"),
    "password": N_("Password"),
    "re_password": N_("Repeat password"),
    "new_password": N_("New password"),
    "old_password": N_("Old password"),
    "login_password": N_("Login password"),
    "secondary_password": N_("Confirm password"),
    "sms_code": N_("Verification code"),
    "auth_code": N_("Verification code"),
    "to": N_("Recipient"),
    "type": N_("Type"),
    "login_type": N_("Login type"),
    "area_id": N_("Country or region"),
    "invite_code": N_("Invitation code"),
    "id": N_("ID"),
    "category_id": N_("Category"),
    "key": N_("Setting"),
    "page": N_("Page"),
    "limit": N_("Page size"),
    "vtype": N_("Verification method"),
    "currency_id": N_("Currency"),
    "balance": N_("Amount"),
    "number": N_("Amount"),
    "nums": N_("Amount"),
}


def domain_answer(exc: DomainError, lang: str | None) -> JSONResponse:
    """The envelope and status of a domain error (``serve.error_table``), in ``lang``."""
    outcome = ERRORS[exc.code]
    return envelope(None, translate(outcome.message, lang, **exc.params), outcome.code, outcome.status)


def rule_answer(exc: PydanticCustomError, lang: str | None) -> JSONResponse:
    """A form rule checked outside a pydantic model (serve.api.schemas.check_*): a 400."""
    return envelope(None, translate(exc.message(), lang), CODE_ERROR, 400)


class ErrorEnvelope(BaseModel):
    """Every error answer: the envelope with no data."""

    code: int = Field(description="0 business error, 999 log in first (token missing or expired), 996 ignore")
    msg: str = Field(description="what went wrong, in the language of the `lang` header")
    data: None = None


def document_errors(app: FastAPI) -> None:
    """List the error answers in the OpenAPI document: every operation may answer each status the
    error table uses (and 405), with the error envelope. Validation errors answer 400, not 422."""
    generate = app.openapi
    statuses = sorted({o.status for o in ERRORS.values() if o.status < 500} | {405, 503})

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = generate()
        schema.setdefault("components", {}).setdefault("schemas", {})["ErrorEnvelope"] = (
            ErrorEnvelope.model_json_schema()
        )
        body = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}}
        for item in schema.get("paths", {}).values():
            for operation in item.values():
                responses = operation.setdefault("responses", {})
                responses.pop("422", None)
                for status in statuses:
                    responses.setdefault(str(status), {"description": HTTPStatus(status).phrase, "content": body})
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def install_error_handlers(app: FastAPI) -> None:
    document_errors(app)

    @app.exception_handler(DomainError)
    async def _domain(request: Request, exc: DomainError) -> JSONResponse:
        return domain_answer(exc, lang_of(request))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        msg = validation_message(errors[0], lang_of(request)) if errors else translate("Invalid request")
        return envelope(None, msg, CODE_ERROR, 400)

    @app.exception_handler(PydanticCustomError)
    async def _rule(request: Request, exc: PydanticCustomError) -> JSONResponse:
        return rule_answer(exc, lang_of(request))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        text = {404: ERRORS[ErrorCode.NOT_FOUND].message, 405: METHOD_NOT_ALLOWED}.get(
            exc.status_code, ERRORS[ErrorCode.BAD_REQUEST].message
        )
        return envelope(None, translate(text, lang_of(request)), CODE_ERROR, exc.status_code)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        if unavailable(exc):
            log.warning("%s %s: a dependency is unavailable: %r", request.method, request.url.path, exc)
            engine = getattr(request.app.state, "engine", None)
            if engine is not None and caused_by(exc, RayActorError):  # a dead actor's handle never recovers:
                engine.forget_handles()  # look the names up again (an actor started in its place)
            outcome = ERRORS[ErrorCode.SERVICE_UNAVAILABLE]
        elif caused_by(exc, UNSTORABLE_TEXT):  # a NUL in any text field: the input's fault, not the server's
            log.info("%s %s: text the database cannot store: %r", request.method, request.url.path, exc)
            outcome = ERRORS[ErrorCode.BAD_REQUEST]
        else:
            log.exception("unhandled error on %s %s", request.method, request.url.path)
            outcome = ERRORS[ErrorCode.INTERNAL]
        return envelope(None, translate(outcome.message, lang_of(request)), outcome.code, outcome.status)


# A database, Redis or actor that cannot be reached right now (a restart, a failover): the request may
# succeed if sent again, so it is a 503, not a 500.
TRANSIENT: tuple[type[BaseException], ...] = (
    ConnectionError,  # refused, reset, aborted (asyncpg, aiosqlite and the standard library raise these)
    asyncpg.exceptions.InterfaceError,  # the connection is gone (ConnectionDoesNotExistError)
    asyncpg.exceptions.PostgresConnectionError,  # cannot connect now (starting up)
    asyncpg.exceptions.OperatorInterventionError,  # terminated by an administrator command (a restart)
    asyncpg.exceptions.InternalClientError,  # a pooled connection a restart left mid-operation ("cannot switch")
    DBConnectionError,
    RedisConnectionError,
    RedisTimeoutError,
    RayActorError,
)


# Text PostgreSQL refuses to store (a NUL character; one the encoding cannot hold): bad input, a 400.
UNSTORABLE_TEXT: tuple[type[BaseException], ...] = (
    asyncpg.exceptions.CharacterNotInRepertoireError,
    asyncpg.exceptions.UntranslatableCharacterError,
)


def unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it, also across a Ray call) means a dependency is unavailable."""
    return caused_by(exc, TRANSIENT)


def caused_by(exc: BaseException, kinds: type[BaseException] | tuple[type[BaseException], ...]) -> bool:
    """Whether ``exc`` or what caused it (also across a Ray call) is one of ``kinds``."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, kinds):
            return True
        cause = getattr(current, "cause", None) if isinstance(current, RayTaskError) else None
        current = cause if isinstance(cause, BaseException) else current.__cause__ or current.__context__
    return False
