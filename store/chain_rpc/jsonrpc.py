"""JSON-RPC 2.0 over HTTP, the one way this exchange talks to a chain node.

A chain watcher has to tell two failures apart: a node it cannot reach (try again later, the chain
did not say anything) and a node that answered with an error (the chain said no: a raw transaction
rejected, a block unknown). The first is ``NodeUnreachable``, the second ``NodeRefused`` with the
node's own code and message; a reply that is not JSON-RPC at all is ``NodeBadReply``. Every one is a
``NodeError``.

Numbers with a fraction in a reply are parsed as ``Decimal`` (Bitcoin Core sends amounts as JSON
numbers, ``0.001``): no amount ever passes through a float.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from decimal import Decimal
from typing import Any, Self

import httpx

DEFAULT_TIMEOUT_S = 30.0


class NodeError(Exception):
    """Anything that kept a node call from returning a result."""

    def __init__(self, message: str, *, url: str, method: str) -> None:
        super().__init__(message)
        self.url = url
        self.method = method


class NodeUnreachable(NodeError):
    """No answer: connection refused or reset, DNS, or the timeout. The call may or may not have
    reached the node (a sent transaction may be in its mempool): retry with the same call."""


class NodeBadReply(NodeError):
    """The node answered, but not with JSON-RPC: an HTTP error without a JSON body, a wrong id, junk."""


class NodeRefused(NodeError):
    """The node answered the call with a JSON-RPC error: ``code`` and ``message`` are the node's own
    (Bitcoin Core: -25 missing inputs, -26 rejected, -5 unknown transaction, -8 out of range; EVM
    nodes: -32000 for most refusals)."""

    def __init__(self, code: int, message: str, *, url: str, method: str, data: Any = None) -> None:
        super().__init__(f"{method}: node refused ({code}) {message}", url=url, method=method)
        self.code = code
        self.node_message = message
        self.data = data


def _redacted(url: str) -> str:
    """The URL without its password (bitcoind's RPC credentials ride in it)."""
    parsed = httpx.URL(url)
    return str(parsed.copy_with(password="***")) if parsed.password else url


def _json_default(value: Any) -> Any:
    """A ``Decimal`` parameter goes out as its exact digits in a string (Bitcoin Core takes an amount
    as a number or a string; a string keeps it off floats)."""
    if isinstance(value, Decimal):
        return format(value, "f")
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


class Closing:
    """``async with`` for a client: the client, closed (``aclose``) on the way out."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        raise NotImplementedError


class JsonRpcClient(Closing):
    """An async JSON-RPC client for one node URL (credentials may ride in the URL as user:password).

    One connection pool per client: open it as ``async with`` or call ``aclose()``. Calls are safe to
    make concurrently; each request carries its own id.
    """

    def __init__(self, url: str, *, timeout: float = DEFAULT_TIMEOUT_S, headers: dict[str, str] | None = None) -> None:
        parsed = httpx.URL(url)
        auth = (parsed.username, parsed.password) if parsed.username else None
        self.url = str(parsed.copy_with(username=None, password=None))
        self.label = _redacted(url)
        self._ids = itertools.count(1)
        self._http = httpx.AsyncClient(timeout=timeout, auth=auth, headers=headers)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def call(self, method: str, *params: Any) -> Any:
        """The result of one call; raises ``NodeUnreachable``, ``NodeRefused`` or ``NodeBadReply``."""
        request_id = next(self._ids)
        reply = await self._post({"jsonrpc": "2.0", "id": request_id, "method": method, "params": list(params)}, method)
        if not isinstance(reply, dict):
            raise NodeBadReply(f"{method}: reply is not an object", url=self.label, method=method)
        return self._result(reply, request_id, method)

    async def batch(self, calls: Sequence[tuple[str, Sequence[Any]]]) -> list[Any]:
        """Several calls in one request; results in the order of ``calls``. Any call refused raises
        ``NodeRefused`` for the first one (in ``calls`` order) that was; use ``batch_outcomes`` to
        keep the others."""
        outcomes = await self.batch_outcomes(calls)
        for outcome in outcomes:
            if isinstance(outcome, NodeError):
                raise outcome
        return outcomes

    async def batch_outcomes(self, calls: Sequence[tuple[str, Sequence[Any]]]) -> list[Any]:
        """Like ``batch``, but each refused call is its ``NodeRefused`` in place of its result. The
        request as a whole can still raise ``NodeUnreachable`` or ``NodeBadReply``."""
        if not calls:
            return []
        ids = [next(self._ids) for _ in calls]
        body = [
            {"jsonrpc": "2.0", "id": request_id, "method": method, "params": list(params)}
            for request_id, (method, params) in zip(ids, calls, strict=True)
        ]
        label = f"batch of {len(calls)}"
        reply = await self._post(body, label)
        if not isinstance(reply, list):
            if isinstance(reply, dict) and isinstance(reply.get("error"), dict):  # the batch itself refused
                self._result(reply, reply.get("id"), label)
            raise NodeBadReply(f"{label}: reply is not a list", url=self.label, method=label)
        by_id = {item.get("id"): item for item in reply if isinstance(item, dict)}
        outcomes: list[Any] = []
        for request_id, (method, _) in zip(ids, calls, strict=True):
            item = by_id.get(request_id)
            if item is None:
                raise NodeBadReply(
                    f"{method}: no reply with id {request_id} in the batch", url=self.label, method=method
                )
            try:
                outcomes.append(self._result(item, request_id, method))
            except NodeRefused as refused:
                outcomes.append(refused)
        return outcomes

    async def _post(self, body: Any, method: str) -> Any:
        try:
            content = json.dumps(body, default=_json_default).encode()
            response = await self._http.post(self.url, content=content, headers={"Content-Type": "application/json"})
        except httpx.TransportError as exc:  # connect, read, write, pool, timeout, protocol
            detail = str(exc) or type(exc).__name__
            raise NodeUnreachable(
                f"{method}: {self.label} unreachable: {detail}", url=self.label, method=method
            ) from exc
        try:
            # Bitcoin Core answers a refused call with HTTP 500 and a JSON-RPC error body: read the body first.
            return json.loads(response.content, parse_float=Decimal)
        except ValueError as exc:
            raise NodeBadReply(
                f"{method}: HTTP {response.status_code} without JSON from {self.label}", url=self.label, method=method
            ) from exc

    def _result(self, reply: dict[str, Any], request_id: Any, method: str) -> Any:
        error = reply.get("error")
        if error is not None:
            if not isinstance(error, dict):
                raise NodeBadReply(f"{method}: error is not an object: {error!r}", url=self.label, method=method)
            raise NodeRefused(
                int(error.get("code", 0)),
                str(error.get("message", "")),
                url=self.label,
                method=method,
                data=error.get("data"),
            )
        if reply.get("id") != request_id:
            raise NodeBadReply(
                f"{method}: reply id {reply.get('id')!r} is not {request_id}", url=self.label, method=method
            )
        if "result" not in reply:
            raise NodeBadReply(f"{method}: reply has neither result nor error", url=self.label, method=method)
        return reply["result"]
