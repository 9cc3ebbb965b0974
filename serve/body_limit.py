"""Request bodies capped before they are read (issue 27; docs/decisions.md "The access edge").

A body declared (``Content-Length``) over its limit is answered 413 at once: the app never asks for
it, so nothing reads it (a client that sent ``Expect: 100-continue`` is never told to send it). A body
without a declared length (chunked) is counted as it streams; past the limit the rest is not passed on,
the answer is 413 and the connection closes. The answer is the envelope, ``{code: 0, msg, data: null}``,
in the language of the ``lang`` header.

Limits: ``upload_max_bytes`` plus the multipart framing on the upload route, ``request_max_bytes`` on
every other route.

Where it sits: Ray Serve's proxies read the whole body into memory on their own (and the replicas fetch
it from them) before the app asks for it, so the cap must run in front of them: Serve calls
:func:`proxy_middlewares` (``RAY_SERVE_HTTP_PROXY_CALLBACK_IMPORT_PATH``, set by ``serve.ingress``) in
every HTTP server it starts, its proxies and the replicas' own ports (direct ingress, HAProxy). The app
carries it too (``serve.app``), for any other ASGI server.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from starlette.middleware import Middleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from config.settings import Settings
from serve.error_table import ERRORS
from serve.i18n import translate
from store.errors import ErrorCode

UPLOAD_PATHS = frozenset({"/api/common/image_upload"})
MULTIPART_OVERHEAD = 64 * 1024  # boundaries and part headers around an uploaded file
# The settings a proxy's callback reads from its environment (serve.ingress puts them there).
LIMIT_SETTINGS = ("request_max_bytes", "upload_max_bytes")


@dataclass(frozen=True)
class BodyLimits:
    request_bytes: int
    upload_bytes: int

    @classmethod
    def of(cls, settings: Settings) -> BodyLimits:
        return cls(settings.request_max_bytes, settings.upload_max_bytes)

    def for_path(self, path: str) -> tuple[int, ErrorCode, dict[str, Any]]:
        """The most a body on ``path`` may hold, and the refusal beyond it (its code and message params)."""
        if path in UPLOAD_PATHS:
            return self.upload_bytes + MULTIPART_OVERHEAD, ErrorCode.UPLOAD_TOO_LARGE, {"mb": mb(self.upload_bytes)}
        return self.request_bytes, ErrorCode.REQUEST_TOO_LARGE, {"kb": self.request_bytes // 1024}


def mb(size: int) -> str:
    return f"{size / 1024 / 1024:g}"


class BodyLimit:
    """ASGI middleware: refuses (413) a body over its path's limit, declared or streamed."""

    def __init__(self, app: ASGIApp, limits: BodyLimits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # every method: Serve's proxy reads a GET's body too, asked for or not
            await self.app(scope, receive, send)
            return
        limit, code, params = self.limits.for_path(scope.get("path", ""))
        declared = _header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _refuse(send, scope, code, params, close=False)  # the body was never asked for
            return
        received = 0
        answered = False  # the 413 went out: the app's own answer, if it makes one, is dropped
        started = False  # the app began its answer: too late for a 413, the body is only cut

        async def counted() -> Message:
            nonlocal received, answered
            if received > limit:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    # Past the limit nothing more is read: the caller sees the client leave.
                    if not started:
                        answered = True
                        await _refuse(send, scope, code, params, close=True)
                    return {"type": "http.disconnect"}
            return message

        async def guarded(message: Message) -> None:
            nonlocal started
            if answered:
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, counted, guarded)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1").strip()
    return None


async def _refuse(send: Send, scope: Scope, code: ErrorCode, params: dict[str, Any], *, close: bool) -> None:
    outcome = ERRORS[code]
    msg = translate(outcome.message, _header(scope, b"lang"), **params)
    body = json.dumps({"code": outcome.code, "msg": msg, "data": None}, ensure_ascii=False).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:  # the rest of a chunked body is of unknown size: end the connection rather than read it
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": outcome.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def limit_environment(settings: Settings) -> dict[str, str]:
    """The environment a Serve HTTP server needs to cap bodies as ``settings`` say."""
    return {
        "RAY_SERVE_HTTP_PROXY_CALLBACK_IMPORT_PATH": f"{__name__}.proxy_middlewares",
        **{f"EXCHANGE_{name.upper()}": str(getattr(settings, name)) for name in LIMIT_SETTINGS},
    }


def proxy_middlewares() -> list[Middleware]:
    """Ray Serve's HTTP proxy callback: the cap, with the limits ``limit_environment`` passed down."""
    defaults = {name: Settings.model_fields[name].default for name in LIMIT_SETTINGS}
    values = {name: int(os.environ.get(f"EXCHANGE_{name.upper()}", defaults[name])) for name in LIMIT_SETTINGS}
    return [Middleware(BodyLimit, limits=BodyLimits(values["request_max_bytes"], values["upload_max_bytes"]))]
