"""Live USD and CNY values (issue 10): quote groups, quotations and account values follow the marks,
through a BTC or ETH pair when a currency has no USDT mark, and fall back to the seed (not live) when
no mark is known."""

from __future__ import annotations

import asyncio
from decimal import ROUND_DOWN, Decimal
from typing import Any

import httpx
import pytest

from config.settings import Settings
from serve.stack import Stack
from store import marks
from store.cache import connect_redis
from store.models import Currency, SiteSetting
from store.money import money
from store.prices import CATALOG_TTL_S, CNY_RATE_KEY, rounded
from tests.utils.prices import live_mark, mark_traders, move_mark, wait_for
from tests.utils.sales import get
from tests.utils.users import Member, member, ok
from tests.utils.wallets import fund

BTC_USDT, ETH_USDT, LINK_ETH = 1, 2, 30
CNY_RATE = Decimal("6.8")  # the seeded site setting


@pytest.fixture
async def traders(api: httpx.Client, db: None) -> tuple[Member, Member]:
    return await mark_traders(api)


def groups(api: httpx.Client) -> dict[str, dict[str, Any]]:
    return {g["code"]: g for g in ok(api.get("market/currency_matches"))}


def pair_of(api: httpx.Client, pair_id: int) -> dict[str, Any]:
    return next(m for g in groups(api).values() for m in g["matches"] if m["id"] == pair_id)


def shown(value: Decimal) -> str:
    return money(rounded(value))


def usd_of(api: httpx.Client, m: Member, currency_id: int) -> dict[str, Any]:
    return ok(api.get("account/detail", params={"currency_id": currency_id}, headers=m.auth))


def change_group(api: httpx.Client, m: Member) -> dict[str, Any]:
    return next(g for g in ok(api.get("account/list", headers=m.auth)) if g["account_code"] == "change_account")


def test_quote_groups_and_quotations_follow_the_mark(api: httpx.Client, traders: tuple[Member, Member]) -> None:
    for _ in range(2):  # two different marks: the values follow each within the second's cache
        mark = move_mark(api, *traders, BTC_USDT, "0.001")
        price = Decimal(mark["price"])
        btc = wait_for(lambda m=mark: (g := groups(api)["BTC"])["usd_price"] == m["price"] and g, "BTC's USD price")
        assert (btc["cny_price"], btc["usd_live"]) == (shown(price * CNY_RATE), True)
        usdt = groups(api)["USDT"]
        assert (usdt["usd_price"], usdt["cny_price"], usdt["usd_live"]) == ("1", "6.8", True)
        # a USDT pair's quotation: its last price is its USD price
        quotation = pair_of(api, BTC_USDT)["currency_quotation"]
        close = Decimal(quotation["close"])
        assert (quotation["usd_price"], quotation["cny_price"]) == (shown(close), shown(close * CNY_RATE))
        # market/deal's quotation (the pair's own, enriched by the route)
        live = ok(api.get("market/deal", params={"currency_match_id": BTC_USDT}))["quotation"]
        assert Decimal(live["close"]) == price  # the trade that made the mark
        assert (live["usd_price"], live["cny_price"]) == (mark["price"], shown(price * CNY_RATE))
    # a BTC-quoted pair: close × BTC's USD price (ETH/BTC has no actor here: its stored close)
    eth_btc = pair_of(api, 20)["currency_quotation"]
    assert eth_btc["usd_price"] == shown(Decimal(eth_btc["close"]) * price)


async def test_account_values_use_the_live_price(
    api: httpx.Client, traders: tuple[Member, Member], settings: Settings
) -> None:
    holder = member(api)
    await fund(holder, "BTC", "0.123456")
    await fund(holder, "USDT", "10.5")
    await fund(holder, "DOGE", "1000")  # DOGE/USDT has no actor in the tests: no mark, the seed
    mark = move_mark(api, *traders, BTC_USDT, "0.001")
    price = Decimal(mark["price"])
    worth = (Decimal("0.123456") * price).quantize(Decimal("0.00000001"), rounding=ROUND_DOWN)
    btc = wait_for(lambda: (d := usd_of(api, holder, 2))["currency"]["usd_price"] == mark["price"] and d, "BTC")
    assert btc["convert_usd"] == money(worth)
    assert btc["currency"]["usd_live"] is True
    assert btc["currency"]["convert_rate"] == money(price * (1 - settings.convert_spread))
    doge = await Currency.get(code="DOGE")
    seeded = usd_of(api, holder, doge.id)
    assert seeded["currency"]["usd_price"] == money(doge.usd_price) and seeded["currency"]["usd_live"] is False
    assert seeded["currency"]["convert_rate"] is None  # only BTC and ETH convert
    change = change_group(api, holder)
    values = {a["currency_code"]: Decimal(a["convert_usd"]) for a in change["accounts"]}
    assert values["BTC"] == worth and values["USDT"] == Decimal("10.5") and values["DOGE"] == 1000 * doge.usd_price
    assert Decimal(change["convert_usd"]) == sum(values.values()) == worth + Decimal("10.5") + 1000 * doge.usd_price


async def test_a_currency_without_a_usdt_mark_is_priced_through_its_eth_pair(
    stack: Stack, api: httpx.Client, traders: tuple[Member, Member]
) -> None:
    """LINK/USDT has no mark here; LINK/ETH does (published as its pair would): LINK = that × ETH."""
    holder = member(api)
    await fund(holder, "LINK", "2")
    link = await Currency.get(code="LINK")
    eth = live_mark(api, ETH_USDT)
    if not (eth and eth["fresh"]):
        eth = move_mark(api, *traders, ETH_USDT, "0.01")
    redis = connect_redis(stack.settings)
    key = marks.key("LINK/ETH")
    try:
        await marks.publish(redis, marks.Mark(LINK_ETH, "LINK/ETH", Decimal("0.0041"), 30 << 40 | 1, 1, 1, 1))
        expected = shown(Decimal("0.0041") * Decimal(eth["price"]))
        found = wait_for(lambda: (d := usd_of(api, holder, link.id))["currency"]["usd_price"] == expected and d, "LINK")
        assert found["currency"]["usd_live"] is False  # that mark's pair never confirmed it: not live
        assert Decimal(found["convert_usd"]) == (2 * Decimal("0.0041") * Decimal(eth["price"])).quantize(
            Decimal("0.00000001"), rounding=ROUND_DOWN
        )
    finally:
        await redis.delete(key)
        await redis.aclose()
    seeded = wait_for(lambda: (d := usd_of(api, holder, link.id))["currency"]["usd_price"] != expected and d, "seed")
    assert seeded["currency"]["usd_price"] == money(link.usd_price)


async def test_a_cny_rate_out_of_range_in_the_database_never_breaks_a_priced_page(api: httpx.Client, db: None) -> None:
    """A rate stored before the console bounded it (or written by hand) is read as the default 6.8."""
    holder = member(api)
    await fund(holder, "USDT", "10")
    try:
        await SiteSetting.filter(key=CNY_RATE_KEY).update(value="1e999999")
        await asyncio.sleep(CATALOG_TTL_S + 1.5)  # the API's cache of the rate has read it by now
        for path, auth in (("market/currency_matches", None), ("account/list", holder.auth)):
            answer = get(api, path, headers=auth)
            assert answer.status_code == 200 and answer.json()["code"] == 1, (path, answer.text[:300])
        assert (groups(api)["USDT"]["usd_price"], groups(api)["USDT"]["cny_price"]) == ("1", "6.8")
    finally:
        await SiteSetting.filter(key=CNY_RATE_KEY).update(value="6.8")
