"""Request bodies are capped at the edge before they are read (issue 27, #7): a body declared over the
limit is answered 413 before a byte of it is taken, a chunked one is cut off at the limit; JSON routes
take ``request_max_bytes``, the upload route ``upload_max_bytes`` (plus the multipart framing)."""

from __future__ import annotations

import json
import socket
import time
from typing import Any

import httpx
import pytest

from config.settings import Settings
from serve.stack import Stack
from tests.utils.users import error, member, ok

MB = 1024 * 1024
TOO_LARGE = "The request is too large: at most {kb} KB"


def too_large(settings: Settings) -> str:
    return TOO_LARGE.format(kb=settings.request_max_bytes // 1024)


def raw_request(stack: Stack, head: str, body_parts: list[bytes], wait: float = 10) -> tuple[bytes, float]:
    """Send ``head`` and the parts of the body on a socket of its own, then read what the server
    answers within ``wait`` seconds: (the answer, the seconds it took after the head went out)."""
    with socket.create_connection((stack.settings.http_host, stack.settings.http_port), timeout=wait) as sock:
        started = time.monotonic()
        sock.sendall(head.encode("latin-1"))
        for part in body_parts:
            sock.sendall(part)
        answer = b""
        try:
            while b"\r\n\r\n" not in answer or not _complete(answer):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
        except TimeoutError:
            pass
        return answer, time.monotonic() - started


def _complete(answer: bytes) -> bool:
    head, _, body = answer.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(body) >= int(line.split(b":", 1)[1])
    return False


def envelope_of(answer: bytes) -> tuple[int, dict[str, Any]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 "), answer[:200]
    return int(head.split(b" ", 2)[1]), json.loads(body)


@pytest.mark.parametrize(("method", "path"), [("POST", "/api/tx_in/add"), ("GET", "/api/market/currency_matches")])
def test_a_declared_52_mb_body_is_refused_before_any_of_it_is_sent(
    stack: Stack, settings: Settings, method: str, path: str
) -> None:
    """The head alone: the server answers 413 at once, without waiting for (or reading) the body. Any
    method: Serve's proxy would read a GET's body as well, though no route asks for it."""
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        f"Content-Length: {52 * MB}\r\nlang: en\r\n\r\n"
    )
    answer, _ = raw_request(stack, head, [])
    status, body = envelope_of(answer)
    assert (status, body) == (413, {"code": 0, "msg": too_large(settings), "data": None})


def test_a_chunked_body_is_cut_off_at_the_limit(stack: Stack, settings: Settings) -> None:
    """No length declared: the server counts while it reads and answers 413 once the limit is passed,
    without waiting for the rest (the last chunk never comes)."""
    head = (
        "POST /api/user/login HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\nlang: fr\r\n\r\n"
    )
    chunk = b"x" * 65536
    parts = [b"%x\r\n%s\r\n" % (len(chunk), chunk)] * (settings.request_max_bytes // len(chunk) + 2)
    answer, _ = raw_request(stack, head, parts)
    status, body = envelope_of(answer)
    assert status == 413 and body["code"] == 0 and body["data"] is None
    assert body["msg"].startswith("La requête est trop volumineuse")  # in the language of the request


def test_a_52_mb_json_body_sent_in_full_is_refused_with_the_envelope(api: httpx.Client, settings: Settings) -> None:
    """The issue's request: 52 MB of JSON to an authenticated route. Refused with 413, not parsed to
    answer 401; the same connection's client then goes on as usual."""
    padding = "x" * (52 * MB)
    answer = api.post("tx_in/add", content=json.dumps({"pad": padding}).encode(),
                      headers={"content-type": "application/json"})  # fmt: skip
    assert error(answer, 413) == too_large(settings)
    ok(api.get("market/currency_matches"))


@pytest.mark.parametrize("over", [1, 4096])
def test_json_up_to_the_limit_is_read_and_beyond_is_refused(api: httpx.Client, settings: Settings, over: int) -> None:
    limit = settings.request_max_bytes
    body = {"account": "someone@example.com", "password": "Secret123", "pad": ""}
    base = len(json.dumps(body).encode())
    within = json.dumps({**body, "pad": "x" * (limit - base)}).encode()
    assert len(within) == limit
    answer = api.post("user/login", content=within, headers={"content-type": "application/json"})
    assert error(answer, 400) == "Incorrect account or password"  # read, parsed and checked
    beyond = json.dumps({**body, "pad": "x" * (limit - base + over)}).encode()
    assert error(api.post("user/login", content=beyond, headers={"content-type": "application/json"}), 413)


def test_the_upload_route_takes_images_up_to_its_own_limit(api: httpx.Client, settings: Settings) -> None:
    """An image larger than the JSON limit still uploads; a declared body past the upload limit (and
    its multipart framing) is refused at the edge with the upload's own message."""
    from tests.api.test_personal import PNG, upload

    assert settings.upload_max_bytes > settings.request_max_bytes
    user = member(api)
    image = PNG + bytes(settings.request_max_bytes * 2)
    assert ok(upload(api, user, image))["url"]
    huge = PNG + bytes(settings.upload_max_bytes + 256 * 1024)
    assert error(upload(api, user, huge), 413) == f"The image can be at most {settings.upload_max_bytes // MB} MB"
