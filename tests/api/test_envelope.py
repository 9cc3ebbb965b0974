"""The edge: the {code, msg, data} envelope, HTTP statuses, translated messages and the API
description (junk input: test_junk_input.py)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from config.settings import Settings
from tests.utils.envelope import ROUTES, body_of, listed_operations
from tests.utils.users import error, member, ok, unique_email

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
