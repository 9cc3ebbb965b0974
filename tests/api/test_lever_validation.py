"""What the lever calls refuse at the edge, before a lever shard is asked: no login, missing or
malformed fields (in the spec's order for a fixed price: price, multiple, hands), unknown pairs and
positions. Bad input is always a 4xx with a translated message, never a 500."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.utils.users import Member, error, member, ok

BTC_USDT, XRP_USDT = 1, 4  # XRP/USDT offers no leverage
LOGIN_FIRST = "Please log in first"
PRICE_FIRST = "Please enter the entrustment price"
MULTIPLE_FIRST = "Please choose a multiple"
HANDS_FIRST = "Please enter the number of hands"
ROUTES = ("deal", "submit", "cancel", "close", "setstop", "batch_close", "dealall", "my_trade")


@pytest.fixture(scope="module")
def bob(api: httpx.Client) -> Member:
    return member(api)


def post(api: httpx.Client, m: Member, route: str, body: Any, lang: str = "en") -> httpx.Response:
    return api.post(f"lever/{route}", json=body, headers={**m.auth, "lang": lang})


def fixed(**fields: Any) -> dict[str, Any]:
    """A fixed-price long on BTC/USDT with only ``fields`` filled in."""
    return {"currency_match_id": BTC_USDT, "type": 1, "status": 0, **fields}


@pytest.mark.parametrize("route", ROUTES)
def test_every_lever_call_needs_a_login(api: httpx.Client, route: str) -> None:
    body = {"currency_match_id": BTC_USDT, "id": 1, "type": 1, "status": 1, "share": 1, "multiple": 10}
    assert error(api.post(f"lever/{route}", json=body), 401, 999) == LOGIN_FIRST
    assert (
        error(api.post(f"lever/{route}", json=body, headers={"Authorization": "not-a-token"}), 401, 999) == LOGIN_FIRST
    )


def test_a_fixed_price_asks_for_the_price_then_the_multiple_then_the_hands(api: httpx.Client, bob: Member) -> None:
    assert error(post(api, bob, "submit", fixed()), 400) == PRICE_FIRST
    assert error(post(api, bob, "submit", fixed(target_price="", multiple="", share="")), 400) == PRICE_FIRST
    assert error(post(api, bob, "submit", fixed(target_price="0", multiple=0, share=0)), 400) == PRICE_FIRST
    assert error(post(api, bob, "submit", fixed(target_price=60000)), 400) == MULTIPLE_FIRST
    assert error(post(api, bob, "submit", fixed(target_price="60000", multiple=" ", share=5)), 400) == MULTIPLE_FIRST
    assert error(post(api, bob, "submit", fixed(target_price="60000", multiple="10")), 400) == HANDS_FIRST
    assert error(post(api, bob, "submit", fixed(target_price="60000", multiple=10, share=0)), 400) == HANDS_FIRST


def test_a_market_order_needs_no_price(api: httpx.Client, bob: Member) -> None:
    market = {"currency_match_id": BTC_USDT, "type": 2, "status": 1, "target_price": ""}
    assert error(post(api, bob, "submit", market), 400) == MULTIPLE_FIRST
    assert error(post(api, bob, "submit", {**market, "multiple": 20}), 400) == HANDS_FIRST


def test_the_prompts_are_in_the_request_language(api: httpx.Client, bob: Member) -> None:
    german = error(post(api, bob, "submit", fixed(), lang="gm"), 400)
    japanese = error(post(api, bob, "submit", fixed(target_price="1"), lang="jp"), 400)
    assert german not in (PRICE_FIRST, "") and japanese not in (MULTIPLE_FIRST, "")
    assert error(post(api, bob, "deal", {"currency_match_id": XRP_USDT}, lang="fr"), 400) != (
        "Leveraged trading is not offered on this pair"
    )


def test_an_unknown_pair_is_refused_after_the_prompts(api: httpx.Client, bob: Member) -> None:
    body = fixed(currency_match_id=999_999, target_price="1", multiple=10, share=1)
    assert error(post(api, bob, "submit", body), 404) == "Trading pair not found"
    assert error(post(api, bob, "submit", {**body, "target_price": ""}), 400) == PRICE_FIRST
    for route in ("deal", "dealall"):
        assert error(post(api, bob, route, {"currency_match_id": 999_999}), 404) == "Trading pair not found"
    assert error(post(api, bob, "batch_close", {"type": 0, "currency_match_id": 999_999}), 404)
    assert error(post(api, bob, "my_trade", {"status": 5, "currency_match_id": 999_999}), 404)
    assert error(post(api, bob, "my_trade", {"status": 5}), 404) == "Trading pair not found"


def test_a_pair_without_leverage_has_no_lever_panel(api: httpx.Client, bob: Member) -> None:
    msg = error(post(api, bob, "deal", {"currency_match_id": XRP_USDT}), 400)
    assert msg == "Leveraged trading is not offered on this pair"


@pytest.mark.parametrize(
    ("price", "message"),
    [
        ("abc", PRICE_FIRST),
        ("-5", PRICE_FIRST),
        ("NaN", PRICE_FIRST),
        ("Infinity", PRICE_FIRST),
        ("1_000", PRICE_FIRST),
        ("٣", PRICE_FIRST),  # another script's digit
        ("9" * 65, PRICE_FIRST),
        (True, PRICE_FIRST),
        ("60000.12345", "The amount can have at most 4 decimal places"),
        ("1e-9", "The amount can have at most 4 decimal places"),
        ("10000000.0001", "The amount can be at most 10000000"),
        ("1e30", "The amount can be at most 10000000"),
        (10**400, "The amount can be at most 10000000"),
    ],
)
def test_a_malformed_price_is_refused_with_a_reason(api: httpx.Client, bob: Member, price: Any, message: str) -> None:
    body = fixed(target_price=price, multiple=10, share=1)
    assert error(post(api, bob, "submit", body), 400) == message


@pytest.mark.parametrize(
    "body",
    [
        fixed(target_price="1", multiple=-10, share=1),
        fixed(target_price="1", multiple="ten", share=1),
        fixed(target_price="1", multiple=10.5, share=1),
        fixed(target_price="1", multiple=10, share=True),
        fixed(target_price="1", multiple=10, share=2**31),
        fixed(target_price="1", multiple=10**40, share=1),
        fixed(target_price="1", multiple=[10], share={"n": 1}),
        {**fixed(target_price="1", multiple=10, share=1), "type": 3},
        {**fixed(target_price="1", multiple=10, share=1), "type": "long"},
        {**fixed(target_price="1", multiple=10, share=1), "status": 2},
        {"type": 1, "status": 1, "multiple": 10, "share": 1},
        {**fixed(target_price="1", multiple=10, share=1), "currency_match_id": 2**31},
        {**fixed(target_price="1", multiple=10, share=1), "currency_match_id": -1},
        [1, 2, 3],
        "submit",
        None,
    ],
)
def test_malformed_orders_are_bad_requests(api: httpx.Client, bob: Member, body: Any) -> None:
    error(post(api, bob, "submit", body), 400)


@pytest.mark.parametrize(
    ("route", "body"),
    [
        ("cancel", {}),
        ("cancel", {"id": 0}),
        ("close", {"id": 2**63}),
        ("close", {"id": "x"}),
        ("setstop", {"id": -1}),
        ("batch_close", {"type": 3}),
        ("batch_close", {"currency_match_id": -1}),
        ("deal", {}),
        ("dealall", {"currency_match_id": BTC_USDT, "page": 0}),
        ("dealall", {"currency_match_id": BTC_USDT, "page": 2**31}),
        ("my_trade", {"status": 6}),
        ("my_trade", {"status": -1}),
        ("my_trade", {"status": 1, "page": "last"}),
    ],
)
def test_malformed_requests_are_bad_requests(api: httpx.Client, bob: Member, route: str, body: Any) -> None:
    error(post(api, bob, route, body), 400)


def test_setstop_of_an_unknown_position_is_not_found(api: httpx.Client, bob: Member) -> None:
    for position_id in (1, 2**62):
        body = {"id": position_id, "target_profit_price": "1", "stop_loss_price": ""}
        assert error(post(api, bob, "setstop", body), 404) == "Position not found"


@pytest.mark.parametrize("status", [0, 1, 2, 3, 4])
def test_a_new_trader_has_no_positions(api: httpx.Client, status: int) -> None:
    page = ok(post(api, member(api), "my_trade", {"status": status, "page": 1}))
    assert page == {"data": [], "total": 0, "per_page": 10, "current_page": 1, "last_page": 1}


def test_the_lever_calls_are_in_the_openapi_document(api: httpx.Client) -> None:
    paths = ok_schema(api)["paths"]
    for route in ROUTES:
        assert "post" in paths[f"/api/lever/{route}"], route
    submit = ok_schema(api)["components"]["schemas"]["SubmitIn"]["properties"]
    assert submit["type"]["minimum"] == 1 and submit["type"]["maximum"] == 2
    assert submit["share"]["anyOf"][0]["minimum"] == 0


def ok_schema(api: httpx.Client) -> dict[str, Any]:
    response = api.get("openapi.json")
    assert response.status_code == 200
    return response.json()
