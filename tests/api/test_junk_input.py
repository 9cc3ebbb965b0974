"""Junk input never ends in a 500: malformed bodies, junk values in every field of the listed POST
routes, junk codes, query parameters and tokens, and junk to every operation the API describes (each
refused cleanly, in the {code, msg, data} envelope)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.utils.envelope import POST_ROUTES, body_of, listed_operations, post_ascii_json
from tests.utils.users import PASSWORD, Member, auth, error, member, ok, send_code, unique_email, unique_mobile

# --- junk input ------------------------------------------------------------------------------------

JUNK_BODIES: list[bytes] = [
    b"",
    b"null",
    b"[]",
    b"[1, 2, 3]",
    b'"text"',
    b"12345",
    b"true",
    b"{}",
    b"\xff\xfe\x00garbage",
    b"[" * 3000 + b"]" * 3000,
    b'{"a":' * 2000 + b"1" + b"}" * 2000,
    b'{"type": NaN, "account": Infinity}',
    json.dumps({"account": "\ud800@example.com", "to": "\udfff"}).encode(),
]

# (JSON true is not here: pydantic reads it as 1 for numeric fields, a documented lax coercion.)
JUNK_VALUES: list[Any] = [
    None,
    [],
    {},
    {"$gt": ""},
    [1, 2],
    1.5,
    -1,
    0,
    2**31,
    2**63,
    10**30,
    "x" * 5000,
    "\x00",
    "a\x00b",
    "\ud800",
    "ab\udfffcd12",
    "ü12345",
    "😀😀😀😀😀😀",
    "１２３４５６",
    " ",
    "'; DROP TABLE users; --",
]

FIELDS: dict[str, list[str]] = {
    "notify/send_email": ["to", "type", "area_id", "ltc"],
    "notify/send_sms": ["to", "type", "area_id", "ltc"],
    "user/register": ["type", "account", "password", "re_password", "sms_code", "invite_code", "area_id"],
    "user/login": ["account", "password", "login_type", "sms_code", "country_code"],
    "user/logout": ["token"],
    "user/forget_password": ["type", "account", "new_password", "secondary_password", "auth_code", "country_code"],
    "user/amend_password": ["old_password", "new_password", "secondary_password"],
    "user/amend_pay_password": ["password", "re_password", "auth_code", "vtype", "login_password"],
    "user/bind_account": ["type", "account", "sms_code", "area_id", "login_password"],
}


# Fields where some of the junk is acceptable input, so the send may succeed: e-mail sends do not use
# area_id and SMS sends may leave it out (null), no send uses ltc, and a big integer sent as ``to`` is
# read as its digits, a valid number.
# Any other outcome there must still be a clean refusal.
LENIENT = {
    ("notify/send_email", "area_id"),
    ("notify/send_email", "ltc"),
    ("notify/send_sms", "ltc"),
    ("notify/send_sms", "to"),
    ("notify/send_sms", "area_id"),
}


def test_junk_to_every_listed_route_never_fails_with_500(api: httpx.Client) -> None:
    """Also covers routes added later: every operation the API lists gets junk, without a token."""
    for (method, path), op in listed_operations(api).items():
        route = path.removeprefix("/api/")
        if "{" in route:
            continue  # no path parameters in this API so far
        for raw in JUNK_BODIES[:9]:
            response = api.request(method, route, content=raw, headers={"content-type": "application/json"})
            assert response.status_code < 500, (method, path, raw, response.text[:200])
            body_of(response)
        names = [p["name"] for p in op.get("parameters", []) if p.get("in") == "query"]
        for name in names:
            for value in (10**30, -(10**30), "x" * 3000, "\x00", "ü", "", "1e999", "NaN"):
                response = api.request(method, route, params={name: value})
                assert response.status_code < 500, (method, path, name, value, response.text[:200])
                body_of(response)


def assert_refused(response: httpx.Response) -> None:
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])
    body = body_of(response)
    assert body["code"] in (0, 999) and body["data"] is None and body["msg"], body


@pytest.fixture(scope="module")
def junk_user(api: httpx.Client) -> Member:
    return member(api)


@pytest.mark.parametrize("route", POST_ROUTES)
def test_junk_bodies_are_refused_cleanly(api: httpx.Client, junk_user: Member, route: str) -> None:
    # Logout reads no body: with a token it would succeed (and end the session), so it goes without one.
    for headers in ({},) if route == "user/logout" else ({}, junk_user.auth):
        for raw in JUNK_BODIES:
            response = api.post(route, content=raw, headers={"content-type": "application/json", **headers})
            assert_refused(response)
        for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
            response = api.post(route, content=b"account=a&password=b", headers={"content-type": content_type})
            assert_refused(response)


def _valid_body(route: str) -> dict[str, Any]:
    """A body that passes the form rules, so a junk field reaches the deeper layers."""
    return {
        "notify/send_email": {"to": unique_email("junk"), "type": 1},
        "notify/send_sms": {"to": unique_mobile(), "type": 1, "area_id": 1},
        "user/register": {
            "type": "mobile",
            "account": unique_mobile(),
            "password": "abc123",
            "re_password": "abc123",
            "sms_code": "123456",
            "invite_code": "",
            "area_id": 1,
        },
        "user/login": {"account": unique_mobile(), "password": "abc123", "login_type": "mobile", "country_code": "1"},
        "user/logout": {},
        "user/forget_password": {
            "type": "mobile",
            "account": unique_mobile(),
            "new_password": "abc1234",
            "secondary_password": "abc1234",
            "auth_code": "123456",
            "country_code": "1",
        },
        "user/amend_password": {"old_password": "wrong1", "new_password": "abc1234", "secondary_password": "abc1234"},
        "user/amend_pay_password": {
            "password": "abc123",
            "re_password": "abc123",
            "auth_code": "123456",
            "login_password": PASSWORD,
        },
        "user/bind_account": {
            "type": 1,
            "account": unique_mobile(),
            "sms_code": "123456",
            "area_id": 1,
            "login_password": PASSWORD,
        },
    }[route]


@pytest.mark.parametrize("route", POST_ROUTES)
def test_junk_fields_are_refused_cleanly(api: httpx.Client, route: str) -> None:
    user = member(api)  # its own, so wrong-password attempts here lock nobody else
    for field in FIELDS[route]:
        for value in JUNK_VALUES:
            body = {**_valid_body(route), field: value}
            response = post_ascii_json(api, route, body, user.auth)
            if route == "user/logout":
                ok(response)  # extra body fields are ignored; the session ends
                user = member(api)
            elif (route, field) in LENIENT and response.status_code == 200:
                assert body_of(response)["code"] == 1
            else:
                assert_refused(response)


def test_junk_codes_against_a_live_code_are_refused_cleanly(api: httpx.Client, settings: Any) -> None:
    """A code that is sent and waiting is compared with whatever the client types."""
    junk_codes = ["ü12345", "\ud800", "😀", "１２３４５６", "\x00" * 6, "123\udfff"]
    for start in range(0, len(junk_codes), settings.code_max_attempts - 1):
        to = unique_email("live")  # a fresh code for each batch, so no batch reaches the burning limit
        code = send_code(api, to, 1)
        form = {"type": "email", "account": to, "password": "abc123", "re_password": "abc123"}
        for junk in junk_codes[start : start + settings.code_max_attempts - 1]:
            response = post_ascii_json(api, "user/register", {**form, "sms_code": junk})
            assert error(response, 400) == "The verification code is wrong or has expired"
        ok(api.post("user/register", json={**form, "sms_code": code}))


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("news/list", {"category_id": 2**63}),
        ("news/list", {"category_id": 10**30}),
        ("news/list", {"category_id": 22, "page": 10**30}),
        ("news/list", {"category_id": 22, "limit": 10**30}),
        ("news/list", {"category_id": "1e3"}),
        ("news/info", {"id": 10**30}),
        ("news/info", {"id": "1.5"}),
        ("news/info", {"id": "\x00"}),
        ("default/setting", {"key": "\x00" * 10}),
        ("dev/outbox", {"to": "x" * 65}),
        ("dev/outbox", {"to": ""}),
    ],
)
def test_junk_query_parameters_are_refused_cleanly(api: httpx.Client, path: str, params: dict[str, Any]) -> None:
    assert_refused(api.get(path, params=params))


@pytest.mark.parametrize(
    "authorization",
    ["garbage", "Bearer", "Bearer  \t x", "x" * 5000, "Basic dXNlcjpwYXNz", "Bearer a b c", "null"],
)
def test_junk_tokens_are_refused_cleanly(api: httpx.Client, authorization: str) -> None:
    for method, route in (("GET", "user/info"), ("POST", "user/logout"), ("GET", "user/authorization_code")):
        response = api.request(method, route, headers=auth(authorization))
        assert error(response, 401, 999) == "Please log in first"
