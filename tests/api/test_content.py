"""Content and reference data: notices, areas, public settings and the market list (spec §3, §7, §9)."""

from __future__ import annotations

import re
from decimal import Decimal

import httpx
import pytest

from tests.utils.users import error, ok

NUMBER = re.compile(r"^-?\d+(\.\d+)?$")  # a decimal as text: no exponent, no float artefacts
INT32_MAX = 2**31 - 1


# --- news/categories -------------------------------------------------------------------------------


def test_categories_are_the_five_spec_categories_in_order(api: httpx.Client) -> None:
    data = ok(api.get("news/categories"))
    assert data == [
        {"id": 22, "name": "Announcements"},
        {"id": 23, "name": "Banners"},
        {"id": 24, "name": "News"},
        {"id": 25, "name": "About"},
        {"id": 26, "name": "Support"},
    ]


# --- news/list -------------------------------------------------------------------------------------


def test_list_of_a_category_is_newest_first_without_bodies(api: httpx.Client) -> None:
    page = ok(api.get("news/list", params={"category_id": 22}))
    assert [n["id"] for n in page["data"]] == [53, 52, 51]
    assert (page["total"], page["per_page"], page["current_page"], page["last_page"]) == (3, 10, 1, 1)
    for item in page["data"]:
        assert set(item) == {"id", "category_id", "title", "banner", "created_at"}
        assert item["category_id"] == 22 and item["title"]
    assert page["data"][0]["title"] == "Second contracts now available on BTC, ETH and LTC"
    assert page["data"][0]["created_at"].startswith("2026-11-15T09:30:00")


def test_banner_category_carries_banner_images(api: httpx.Client) -> None:
    items = ok(api.get("news/list", params={"category_id": 23}))["data"]
    assert {n["id"] for n in items} == {54, 55, 56}
    assert all(n["banner"].startswith("/banners/") for n in items)


def test_list_pagination(api: httpx.Client) -> None:
    first = ok(api.get("news/list", params={"category_id": 22, "limit": 2}))
    assert [n["id"] for n in first["data"]] == [53, 52]
    assert (first["total"], first["per_page"], first["current_page"], first["last_page"]) == (3, 2, 1, 2)
    second = ok(api.get("news/list", params={"category_id": 22, "limit": 2, "page": 2}))
    assert [n["id"] for n in second["data"]] == [51]
    assert (second["current_page"], second["last_page"]) == (2, 2)
    beyond = ok(api.get("news/list", params={"category_id": 22, "limit": 2, "page": 3}))
    assert beyond["data"] == [] and beyond["total"] == 3


def test_support_category_lists_the_privacy_policy(api: httpx.Client) -> None:
    items = ok(api.get("news/list", params={"category_id": 26}))["data"]
    assert 66 in [n["id"] for n in items]
    assert {n["category_id"] for n in items} == {26}


@pytest.mark.parametrize("category_id", [1, 21, 27, 999999, INT32_MAX, 2**40, -5])
def test_list_of_an_unknown_category_is_not_found(api: httpx.Client, category_id: int) -> None:
    assert error(api.get("news/list", params={"category_id": category_id}), 404) == "Not found"


def test_list_needs_a_category(api: httpx.Client) -> None:
    assert error(api.get("news/list"), 400) == "Category is required"
    assert error(api.get("news/list", params={"category_id": "abc"}), 400) == "Category is invalid"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"page": 0}, "Page is invalid"),
        ({"page": -1}, "Page is invalid"),
        ({"page": "x"}, "Page is invalid"),
        ({"page": 2**62}, "Page is invalid"),
        ({"limit": 0}, "Page size is invalid"),
        ({"limit": 101}, "Page size is invalid"),
    ],
)
def test_list_paging_bounds(api: httpx.Client, params: dict[str, object], message: str) -> None:
    assert error(api.get("news/list", params={"category_id": 22, **params}), 400) == message


# --- news/info -------------------------------------------------------------------------------------


def test_info_of_notice_66_is_the_privacy_policy_in_category_26(api: httpx.Client) -> None:
    item = ok(api.get("news/info", params={"id": 66}))
    assert item["id"] == 66 and item["category_id"] == 26
    assert item["title"] == "Privacy policy"
    assert item["content"].startswith("<h3>Privacy policy</h3>")
    assert "We do not sell personal data." in item["content"]
    assert item["created_at"].startswith("2026-11-01T00:00:00")
    assert set(item) == {"id", "category_id", "title", "banner", "created_at", "content"}


def test_info_matches_its_list_entry(api: httpx.Client) -> None:
    listed = {n["id"]: n for n in ok(api.get("news/list", params={"category_id": 24}))["data"]}
    for news_id, entry in listed.items():
        item = ok(api.get("news/info", params={"id": news_id}))
        assert {k: item[k] for k in entry} == entry
        assert item["content"].startswith("<p>")


@pytest.mark.parametrize("news_id", [0, 1, 50, 67, 999999, INT32_MAX, 2**31, 2**63, -1])
def test_info_of_an_unknown_id_is_not_found(api: httpx.Client, news_id: int) -> None:
    assert error(api.get("news/info", params={"id": news_id}), 404) == "Not found"


def test_info_needs_a_numeric_id(api: httpx.Client) -> None:
    assert error(api.get("news/info"), 400) == "ID is required"
    assert error(api.get("news/info", params={"id": "sixty-six"}), 400) == "ID is invalid"


# --- default/area_list -----------------------------------------------------------------------------


def test_area_list_has_every_area_with_its_global_code(api: httpx.Client) -> None:
    areas = ok(api.get("default/area_list"))
    assert len(areas) == 34
    assert areas[0] == {"id": 1, "name": "United States", "global_code": "1"}
    by_id = {a["id"]: a for a in areas}
    assert len(by_id) == len(areas)
    assert by_id[3] == {"id": 3, "name": "United Kingdom", "global_code": "44"}
    assert by_id[12] == {"id": 12, "name": "Hong Kong", "global_code": "852"}
    assert by_id[34] == {"id": 34, "name": "China", "global_code": "86"}
    assert by_id[2]["global_code"] == by_id[1]["global_code"] == "1"  # Canada shares +1
    for area in areas:
        assert set(area) == {"id", "name", "global_code"}
        assert re.fullmatch(r"[0-9]{1,3}", area["global_code"]), area
        assert area["name"]


# --- default/setting -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("kefu", ""),
        ("login_use_sms", "0"),
        ("tips", "Digital assets are volatile. Trade only what you can afford to lose."),
        ("contact_mobile", "+1 212 555 0142"),
        ("contact_email", "support@exchange.local"),
    ],
)
def test_public_settings(api: httpx.Client, key: str, value: str) -> None:
    assert ok(api.get("default/setting", params={"key": key})) == value


@pytest.mark.parametrize("key", ["unknown", "usd_cny_rate", "secret_key", "KEFU", "kefu ", "\x00"])
def test_unknown_or_private_setting_is_refused(api: httpx.Client, key: str) -> None:
    assert error(api.get("default/setting", params={"key": key}), 404) == "Unknown setting"


def test_setting_needs_a_key(api: httpx.Client) -> None:
    assert error(api.get("default/setting"), 400) == "Setting is required"
    assert (
        error(api.get("default/setting", params={"key": "k" * 65}), 400)
        == "Setting is too long (at most 64 characters)"
    )


# --- market/currency_matches -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def groups(api: httpx.Client) -> list[dict]:
    return ok(api.get("market/currency_matches"))


def _is_number(text: object) -> bool:
    return isinstance(text, str) and bool(NUMBER.match(text))


def test_market_groups_are_the_quote_currencies(groups: list[dict]) -> None:
    assert [g["code"] for g in groups] == ["USDT", "BTC", "ETH"]
    for group in groups:
        assert {"id", "code", "name", "is_quote", "usd_price", "cny_price", "matches"} <= set(group)
        assert group["name"] == group["code"] and group["is_quote"] == 1
        assert _is_number(group["usd_price"]) and _is_number(group["cny_price"])
        # The CNY price is the USD price at the site rate (seeded 6.8, the spec's fallback).
        assert Decimal(group["cny_price"]) == Decimal(group["usd_price"]) * Decimal("6.8")
        assert group["matches"], group["code"]
    usdt = groups[0]
    assert (usdt["usd_price"], usdt["cny_price"]) == ("1", "6.8")


def test_market_pairs(groups: list[dict]) -> None:
    matches = [m for g in groups for m in g["matches"]]
    ids = [m["id"] for m in matches]
    assert len(matches) >= 14 and len(set(ids)) == len(ids)
    assert {1, 2, 3, 64, 65, 20, 21, 30} <= set(ids)
    by_quote = {g["code"]: {m["id"] for m in g["matches"]} for g in groups}
    assert {64, 65, 1} <= by_quote["USDT"] and {20, 21} <= by_quote["BTC"] and 30 in by_quote["ETH"]
    acb = next(m for m in matches if m["id"] == 64)
    assert acb["symbol"] == "ACB/USDT" and acb["name"] == "ACB" and acb["added"] == 1


def test_market_pair_shape_and_decimals_as_strings(groups: list[dict]) -> None:
    for group in groups:
        for m in group["matches"]:
            assert m["quote_currency_code"] == group["code"]
            assert m["symbol"] == f"{m['base_currency_code']}/{group['code']}"
            assert m["name"] == m["base_currency_code"]
            assert m["base_currency"]["code"] == m["base_currency_code"] and "logo" in m["base_currency"]
            assert m["open_change"] in (0, 1) and m["added"] in (0, 1)
            assert m["open_lever"] in (0, 1) and m["open_microtrade"] in (0, 1)
            for field in ("maker_fee", "taker_fee", "lever_point_rate", "lever_share_num", "lever_fee_rate"):
                assert _is_number(m[field]), (m["id"], field, m[field])
            q = m["currency_quotation"]
            # spec Quotation: the last price also in USD and CNY (issue 10: at the quote's live price)
            assert set(q) == {"currency_match_id", "close", "change", "high", "low", "volume", "usd_price", "cny_price"}
            assert q["currency_match_id"] == m["id"]
            for field in ("close", "change", "high", "low", "volume", "usd_price", "cny_price"):
                assert _is_number(q[field]), (m["id"], field, q[field])
            close, high, low = Decimal(q["close"]), Decimal(q["high"]), Decimal(q["low"])
            assert 0 < low <= close <= high, (m["id"], q)
            assert Decimal(q["volume"]) >= 0


def test_market_pairs_publish_their_fees(groups: list[dict]) -> None:
    """The fee page reads every pair's fees from here: the seeded 0.2 % spot fees and BTC/USDT's 0.1 %
    lever fee (config/seed/pairs.toml), as the pair and the lever book charge them."""
    btc = next(m for g in groups for m in g["matches"] if m["id"] == 1)
    assert (btc["maker_fee"], btc["taker_fee"], btc["lever_fee_rate"]) == ("0.002", "0.002", "0.001")


def test_market_quotation_keeps_every_digit(groups: list[dict]) -> None:
    btc = next(g for g in groups if g["code"] == "BTC")
    ltc_btc = next(m for m in btc["matches"] if m["id"] == 21)
    assert ltc_btc["symbol"] == "LTC/BTC" and ltc_btc["price_decimals"] == 8
    close = ltc_btc["currency_quotation"]["close"]
    assert len(close.split(".")[1]) <= 8 and Decimal(close) < 1
    assert not close.endswith("0")  # no trailing zeros from NUMERIC(36, 18)
