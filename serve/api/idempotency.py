"""Idempotency keys on the money-moving POSTs (docs/decisions.md "The idempotency rule"): the HTTP side
of ``store.idempotency``.

A route opts in under its ``@router.post`` and gives its body model the ``client_id`` field::

    class SubmitIn(LeverBody, Keyed): ...

    @router.post("/submit")
    @idempotent(retry=True)
    async def submit(body: SubmitIn, ...) -> Any: ...

The key is the ``Idempotency-Key`` header or the body's ``client_id`` (both given and different:
refused), 1 to 64 printable ASCII characters, scoped to the logged-in user; both are in the OpenAPI
document. Without a key the route runs as before (with ``single_flight``, one request at a time per
user and route, as ``deps.SingleFlight`` does). With one, the key is reserved before the handler runs
and the handler's answer, a success or a refusal (status below 500), is kept: a repeat of the same
request gets it back, byte for byte, with ``Idempotent-Replayed: true``.

An answer of 500 or more (or an unexpected error) leaves the outcome unknown and is never kept. With
``retry`` the route hands the key down as its money movement's own reference (``attempt_of(request)``:
``Attempt.ref``, ``Attempt.remember``), so a repeat runs it again and the ledger or actor moves nothing
twice; without, a repeat is refused (409) until the key expires. A handler that finds its earlier run
may still land raises IDEMPOTENCY_IN_PROGRESS: the key stays open for a later repeat.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import re
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Header, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from serve.api.deps import CurrentUid, Services, Svc, in_flight
from serve.errors import domain_answer, lang_of, rule_answer
from store.errors import DomainError, ErrorCode
from store.idempotency import Answer, Attempt
from store.models import AccountLog

KEY_HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
KEY_RE = re.compile(r"[\x20-\x7e]{1,64}")
KEY_RULE = "1 to 64 printable ASCII characters, one per user action, reused on that action's retries"
UNNAMED = {"client_id", "pay_password"}  # fields that do not tell one request from another
Handler = TypeVar("Handler", bound=Callable[..., Awaitable[Any]])


class Keyed(BaseModel):
    """The body of a money-moving POST: its optional client key."""

    client_id: Annotated[Any, WithJsonSchema({"type": "string", "minLength": 1, "maxLength": 64})] = Field(
        default=None, description=f"the client's key of this request (or the Idempotency-Key header): {KEY_RULE}"
    )


@dataclass(frozen=True)
class Guard:
    """What a keyed route needs of its request: the user, the header key and the services."""

    request: Request
    svc: Services
    uid: int
    header: str | None


async def _guard(
    request: Request,
    svc: Svc,
    uid: CurrentUid,
    header: Annotated[
        str | None,
        Header(
            alias=KEY_HEADER,
            description=f"the client's key of this request: {KEY_RULE}; a repeat within 24 h answers the first answer",
        ),
    ] = None,  # fmt: skip
) -> Guard:
    return Guard(request, svc, uid, header)


def idempotent(*, retry: bool = False, single_flight: bool = False) -> Callable[[Handler], Handler]:
    """Make the route answer a repeat of a keyed request with its first answer. ``retry``: the route's
    money movement is idempotent by the attempt's references, so it may run again after an unknown
    outcome; ``single_flight``: without a key, one request at a time per user (996 for the others)."""

    def wrap(handler: Handler) -> Handler:
        signature = inspect.signature(handler, eval_str=True)
        body_name = next(name for name, p in signature.parameters.items()
                         if inspect.isclass(p.annotation) and issubclass(p.annotation, Keyed))  # fmt: skip
        guard = inspect.Parameter("_idempotency", inspect.Parameter.KEYWORD_ONLY,
                                  annotation=Annotated[Guard, Depends(_guard)])  # fmt: skip

        @functools.wraps(handler)
        async def keyed(*args: Any, _idempotency: Guard, **kwargs: Any) -> Any:
            return await _run(_idempotency, kwargs[body_name], lambda: handler(*args, **kwargs),
                              retry=retry, single_flight=single_flight)  # fmt: skip

        keyed.__signature__ = signature.replace(parameters=[*signature.parameters.values(), guard])  # type: ignore[attr-defined]
        return keyed  # type: ignore[return-value]

    return wrap


def attempt_of(request: Request) -> Attempt | None:
    """The running attempt of a keyed request (None without a key)."""
    return getattr(request.state, "idempotency", None)


def movement_ref(request: Request, prefix: str) -> str:
    """The ledger reference of this request's money movement: the key's own when the request has one
    (every run of the key moves under it), a new one otherwise."""
    attempt = attempt_of(request)
    return attempt.ref(prefix) if attempt is not None else f"{prefix}{uuid.uuid4().hex}"


async def journaled_before(request: Request, ref: str) -> bool:
    """Whether an earlier run of this key, whose answer was lost, already journaled ``ref``."""
    attempt = attempt_of(request)
    return attempt is not None and attempt.retry and await AccountLog.exists(ref=ref)


def key_of(header: str | None, client_id: object) -> str | None:
    """The request's key, if it has one. Raises IDEMPOTENCY_KEY_INVALID, IDEMPOTENCY_KEYS_DIFFER."""
    for given in (header, client_id):
        if given is not None and not (isinstance(given, str) and KEY_RE.fullmatch(given)):
            raise DomainError(ErrorCode.IDEMPOTENCY_KEY_INVALID)
    if header is not None and client_id is not None and header != client_id:
        raise DomainError(ErrorCode.IDEMPOTENCY_KEYS_DIFFER)
    return header if header is not None else client_id  # type: ignore[return-value]


def fingerprint(request: Request, body: Keyed) -> str:
    """The request a key names: the route and the body as validated, without the key itself and without
    the deal password (a hash of a short secret is not kept for a day; it is checked on every run)."""
    fields = json.dumps(body.model_dump(mode="json", exclude=UNNAMED), sort_keys=True, separators=(",", ":"),
                        default=str)  # fmt: skip
    return hashlib.sha256(f"{request.method} {request.url.path}\n{fields}".encode()).hexdigest()


async def _run(guard: Guard, body: Keyed, handler: Callable[[], Awaitable[Any]], *, retry: bool,
               single_flight: bool) -> Any:  # fmt: skip
    key = key_of(guard.header, body.client_id)
    request = guard.request
    if key is None:
        if not single_flight:
            return await handler()
        async with in_flight(guard.svc.redis, guard.uid, request.url.path):
            return await handler()
    lang = lang_of(request)

    async def run(attempt: Attempt) -> Answer:
        request.state.idempotency = attempt
        return answer_of(await handler())

    answer, replayed = await guard.svc.idempotency.once(guard.uid, key, fingerprint(request, body), run,
                                                        lambda exc: refusal(exc, lang), retry=retry)  # fmt: skip
    return Response(answer.body, answer.status, headers={REPLAYED: "true"} if replayed else None,
                    media_type="application/json")  # fmt: skip


def answer_of(response: Response) -> Answer:
    return Answer(response.status_code, bytes(response.body).decode())


def refusal(exc: BaseException, lang: str | None) -> Answer | None:
    """The answer a raised refusal means (a domain error, a form rule); None for anything else."""
    if isinstance(exc, DomainError):
        return answer_of(domain_answer(exc, lang))
    if isinstance(exc, PydanticCustomError):
        return answer_of(rule_answer(exc, lang))
    return None
