"""What the edge's tests share: the routes every answer is checked on, and reading the envelope and
the API description."""

from __future__ import annotations

import json
from typing import Any

import httpx

ROUTES: set[tuple[str, str]] = {
    ("get", "/api/news/categories"),
    ("get", "/api/news/list"),
    ("get", "/api/news/info"),
    ("get", "/api/default/area_list"),
    ("get", "/api/default/setting"),
    ("post", "/api/notify/send_email"),
    ("post", "/api/notify/send_sms"),
    ("post", "/api/user/register"),
    ("post", "/api/user/login"),
    ("get", "/api/user/info"),
    ("post", "/api/user/logout"),
    ("post", "/api/user/forget_password"),
    ("post", "/api/user/amend_password"),
    ("post", "/api/user/amend_pay_password"),
    ("post", "/api/user/bind_account"),
    ("get", "/api/user/authorization_code"),
    ("get", "/api/market/currency_matches"),
    ("get", "/api/dev/outbox"),
}
POST_ROUTES = sorted(path.removeprefix("/api/") for method, path in ROUTES if method == "post")


def post_ascii_json(api: httpx.Client, route: str, body: Any, headers: dict[str, str] | None = None) -> httpx.Response:
    """POST JSON written with ASCII escapes, so strings with lone surrogates (legal JSON) can be sent."""
    return api.post(
        route, content=json.dumps(body).encode(), headers={"content-type": "application/json", **(headers or {})}
    )


def body_of(response: httpx.Response) -> dict[str, Any]:
    body = response.json()
    assert isinstance(body, dict) and set(body) == {"code", "msg", "data"}, body
    assert isinstance(body["code"], int) and isinstance(body["msg"], str), body
    return body


def listed_operations(api: httpx.Client) -> dict[tuple[str, str], dict[str, Any]]:
    response = api.get("openapi.json")
    assert response.status_code == 200
    spec = response.json()
    assert spec["info"]["title"] == "Exchange API"
    return {(method, path): op for path, ops in spec["paths"].items() for method, op in ops.items()}
