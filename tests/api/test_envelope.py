"""The edge: the {code, msg, data} envelope, HTTP statuses, translated messages, the API description,
and that junk input never ends in a 500."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from config.settings import Settings
from tests.utils.users import PASSWORD, Member, auth, error, member, ok, send_code, unique_email, unique_mobile

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


# --- the envelope ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "params", "status", "code"),
    [
        ("GET", "news/categories", None, 200, 1),
        ("GET", "news/list", {"category_id": 22}, 200, 1),
        ("GET", "news/info", {"id": 66}, 200, 1),
        ("GET", "news/info", {"id": 1}, 404, 0),
        ("GET", "news/info", None, 400, 0),
        ("GET", "default/area_list", None, 200, 1),
        ("GET", "default/setting", {"key": "tips"}, 200, 1),
        ("GET", "default/setting", {"key": "nope"}, 404, 0),
        ("GET", "market/currency_matches", None, 200, 1),
        ("GET", "user/info", None, 401, 999),
        ("GET", "user/authorization_code", None, 401, 999),
        ("POST", "user/logout", None, 401, 999),
        ("POST", "user/login", None, 400, 0),
        ("GET", "dev/outbox", {"to": "nobody@example.com"}, 200, 1),
        ("GET", "no/such/route", None, 404, 0),
    ],
)
def test_every_answer_is_an_envelope(
    api: httpx.Client, method: str, path: str, params: dict[str, Any] | None, status: int, code: int
) -> None:
    response = api.request(method, path, params=params)
    assert response.status_code == status
    assert response.headers["content-type"].startswith("application/json")
    body = body_of(response)
    assert body["code"] == code
    if code != 1:
        assert body["data"] is None and body["msg"]


def test_success_envelope_of_a_post_carries_its_message(api: httpx.Client) -> None:
    response = api.post("notify/send_email", json={"to": unique_email("env"), "type": 1})
    assert body_of(response) == {"code": 1, "msg": "The verification code has been sent", "data": None}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "nope"),
        ("GET", "user/nope"),
        ("GET", "news"),
        ("GET", ""),
        ("POST", "nope"),
        ("POST", "user/nope/deeper"),
        ("PUT", "nope"),
        ("DELETE", "news/nope"),
    ],
)
def test_unknown_api_route_is_404(api: httpx.Client, method: str, path: str) -> None:
    assert error(api.request(method, path), 404) == "Not found"


def test_unknown_api_route_is_404_at_the_bare_prefix(api: httpx.Client) -> None:
    response = api.get(api.base_url.join("/api"))
    assert (response.status_code, body_of(response)["code"]) == (404, 0)


@pytest.mark.parametrize("route", ["user/login", "user/register", "notify/send_email", "user/bind_account"])
def test_malformed_json_is_400(api: httpx.Client, route: str) -> None:
    for raw in (b"{bad", b'{"account": "a@b.com",}', b"{'account': 1}", b'{"a": 1'):
        response = api.post(route, content=raw, headers={"content-type": "application/json"})
        assert error(response, 400) == "The request body is not valid JSON"


def test_text_the_database_cannot_store_is_bad_input_on_any_route(api: httpx.Client, settings: Settings) -> None:
    """A NUL in a text field is refused by PostgreSQL (SQLite keeps it): the caller gets a clear 400,
    never a 500, also on a route that has no rule of its own about it."""
    m = member(api)
    response = api.post("dev/verify", json={"name": "Ann\u0000Lee"}, headers=m.auth)
    if settings.db_url.startswith("postgres"):
        assert error(response, 400) == "Invalid request"
    else:
        assert ok(response)["review_status"] == 2
    clean = ok(api.post("dev/verify", json={"name": "Ann Lee"}, headers=m.auth))
    assert clean["name"] == "Ann Lee"  # the refusal left the account usable


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "user/login"),
        ("GET", "user/register"),
        ("GET", "notify/send_sms"),
        ("PUT", "user/login"),
        ("DELETE", "user/logout"),
        ("POST", "news/categories"),
        ("POST", "user/info"),
        ("PATCH", "market/currency_matches"),
        ("DELETE", "default/area_list"),
    ],
)
def test_wrong_method_is_405(api: httpx.Client, method: str, path: str) -> None:
    assert error(api.request(method, path), 405) == "Method not allowed"


# --- languages -------------------------------------------------------------------------------------

NOT_FOUND = {"en": "Not found", "hk": "找不到資源", "jp": "見つかりません", "gm": "Nicht gefunden", "fr": "Introuvable"}
LOGIN_FIRST = {
    "en": "Please log in first",
    "hk": "請先登入",
    "jp": "先にログインしてください",
    "gm": "Bitte melden Sie sich zuerst an",
    "fr": "Veuillez d’abord vous connecter",
}
CATEGORY_REQUIRED = {
    "en": "Category is required",
    "hk": "分類為必填項",
    "jp": "カテゴリーは必須です",
    "gm": "Kategorie ist erforderlich",
    "fr": "Catégorie est obligatoire",
}
BAD_EMAIL = {
    "en": "Please enter a valid e-mail address",
    "hk": "請輸入有效的電子郵件地址",
    "jp": "有効なメールアドレスを入力してください",
    "gm": "Bitte geben Sie eine gültige E-Mail-Adresse ein",
    "fr": "Veuillez saisir une adresse e-mail valide",
}
BAD_JSON = {
    "en": "The request body is not valid JSON",
    "hk": "請求內容不是有效的 JSON",
    "jp": "リクエスト本文が有効な JSON ではありません",
    "gm": "Der Anfragetext ist kein gültiges JSON",
    "fr": "Le corps de la requête n’est pas un JSON valide",
}
METHOD = {
    "en": "Method not allowed",
    "hk": "不允許的請求方法",
    "jp": "許可されていないメソッドです",
    "gm": "Methode nicht erlaubt",
    "fr": "Méthode non autorisée",
}
SENT = {"en": "The verification code has been sent"}
LANGS = ["en", "hk", "jp", "gm", "fr"]


@pytest.mark.parametrize("lang", LANGS)
def test_messages_follow_the_lang_header(api: httpx.Client, lang: str) -> None:
    h = {"lang": lang}
    assert error(api.get("news/info", params={"id": 1}, headers=h), 404) == NOT_FOUND[lang]
    assert error(api.get("user/info", headers=h), 401, 999) == LOGIN_FIRST[lang]
    assert error(api.get("news/list", headers=h), 400) == CATEGORY_REQUIRED[lang]
    assert error(api.post("user/login", json={"account": "x@y", "password": "p"}, headers=h), 400) == BAD_EMAIL[lang]
    bad_json = api.post("user/login", content=b"{", headers={**h, "content-type": "application/json"})
    assert error(bad_json, 400) == BAD_JSON[lang]
    assert error(api.post("news/categories", headers=h), 405) == METHOD[lang]
    assert error(api.get("nope", headers=h), 404) == NOT_FOUND[lang]


def test_messages_with_a_number_are_translated_with_the_number(api: httpx.Client) -> None:
    to = unique_email("lang")
    ok(api.post("notify/send_email", json={"to": to, "type": 1}))
    expected = {
        "en": "A code was just sent, please try again in {} seconds",
        "hk": "驗證碼剛剛已發送，請於 {} 秒後再試",
        "jp": "認証コードを送信したばかりです。{} 秒後に再度お試しください",
        "gm": "Es wurde gerade ein Code gesendet, bitte versuchen Sie es in {} Sekunden erneut",
        "fr": "Un code vient d’être envoyé, veuillez réessayer dans {} secondes",
    }
    for lang, text in expected.items():
        msg = error(api.post("notify/send_email", json={"to": to, "type": 1}, headers={"lang": lang}), 429)
        prefix, suffix = text.split("{}")
        assert msg.startswith(prefix) and msg.endswith(suffix), (lang, msg)
        assert 1 <= int(msg[len(prefix) : len(msg) - len(suffix)].strip()) <= 60


@pytest.mark.parametrize("lang", ["xx", "zh", "it", "de", "", "en-US", "../fr"])
def test_unknown_lang_falls_back_to_english(api: httpx.Client, lang: str) -> None:
    h = {"lang": lang}
    assert error(api.get("news/info", params={"id": 1}, headers=h), 404) == "Not found"
    assert error(api.get("user/info", headers=h), 401, 999) == "Please log in first"


def test_lang_header_is_case_insensitive(api: httpx.Client) -> None:
    assert error(api.get("news/info", params={"id": 1}, headers={"lang": "FR"}), 404) == "Introuvable"
    assert error(api.get("news/info", params={"id": 1}, headers={"lang": "Jp"}), 404) == "見つかりません"


def test_success_messages_are_translated_too(api: httpx.Client) -> None:
    response = api.post("notify/send_email", json={"to": unique_email("lang"), "type": 1}, headers={"lang": "gm"})
    assert ok(response) is None
    assert response.json()["msg"] not in ("", SENT["en"])


# --- the API description ---------------------------------------------------------------------------


def listed_operations(api: httpx.Client) -> dict[tuple[str, str], dict[str, Any]]:
    response = api.get("openapi.json")
    assert response.status_code == 200
    spec = response.json()
    assert spec["info"]["title"] == "Exchange API"
    return {(method, path): op for path, ops in spec["paths"].items() for method, op in ops.items()}


def test_openapi_lists_every_route(api: httpx.Client) -> None:
    listed = set(listed_operations(api))
    assert ROUTES <= listed, ROUTES - listed
    assert all(path.startswith("/api/") for _, path in listed)
    assert not any("{path}" in path for _, path in listed)  # the SPA catch-all stays out
    # Everything listed exists: its method is served (never 405) and the path is known (another method
    # gets 405, where an unknown path gets 404).
    for method, path in listed:
        route = path.removeprefix("/api/")
        assert api.request(method, route).status_code != 405, (method, path)
        assert error(api.request("PATCH", route), 405) == "Method not allowed"


def test_docs_page_answers(api: httpx.Client) -> None:
    response = api.get("docs")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "swagger" in response.text.lower() and "/api/openapi.json" in response.text


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
