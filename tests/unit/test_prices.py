"""USD prices from mark prices (store/prices.py): the rule, its fallbacks, what is live, and rounding."""

from __future__ import annotations

from decimal import Decimal

import pytest

from store.marks import Mark
from store.prices import (
    DEFAULT_CNY_RATE,
    PriceBook,
    conversion_rate,
    parse_cny_rate,
    quotation_prices,
    rounded,
    usd_prices,
)

NOW = 1_763_900_000_000
STALE_S = 10.0
SEEDS = {c: Decimal(p) for c, p in {"USDT": "1", "BTC": "68000", "ETH": "3500", "LTC": "85", "LINK": "14.5",
                                      "DOGE": "0.12", "ACB": "0.85"}.items()}  # fmt: skip


def mark(symbol: str, price: str, *, age_ms: int = 0, tick: int = 1) -> Mark:
    return Mark(1, symbol, Decimal(price), tick, 1, NOW - age_ms, NOW - age_ms)


def book(*found: Mark) -> dict[str, tuple[Decimal, bool, str]]:
    prices = usd_prices(SEEDS, {m.symbol: m for m in found}, NOW, STALE_S)
    return {code: (p.price, p.live, p.source) for code, p in prices.items()}


def test_usdt_is_one_and_a_usdt_pair_gives_its_mark() -> None:
    prices = book(mark("BTC/USDT", "70123.5"), mark("LTC/USDT", "90.25"))
    assert prices["USDT"] == (Decimal(1), True, "USDT")
    assert prices["BTC"] == (Decimal("70123.5"), True, "BTC/USDT")
    assert prices["LTC"] == (Decimal("90.25"), True, "LTC/USDT")


def test_without_a_usdt_mark_a_currency_goes_through_btc_then_eth() -> None:
    prices = book(mark("BTC/USDT", "70000"), mark("ETH/USDT", "3600"), mark("LINK/ETH", "0.004"),
                  mark("LINK/BTC", "0.0002"), mark("DOGE/ETH", "0.00003"))  # fmt: skip
    assert prices["LINK"] == (Decimal("14"), True, "LINK/BTC*BTC/USDT")  # BTC first: 0.0002 × 70000
    assert prices["DOGE"] == (Decimal("0.108"), True, "DOGE/ETH*ETH/USDT")
    # the USDT pair wins over both
    assert book(mark("LINK/USDT", "15"), mark("LINK/BTC", "0.0002"))["LINK"] == (Decimal(15), True, "LINK/USDT")


def test_the_bridge_itself_may_come_from_its_other_pair_without_looping() -> None:
    # Neither bridge has a USDT mark: each goes through the other once, then to the other's seed.
    prices = book(mark("ETH/BTC", "0.05"), mark("BTC/ETH", "20"))
    assert prices["BTC"] == (Decimal(20) * SEEDS["ETH"], False, "BTC/ETH*seed")
    assert prices["ETH"] == (Decimal("0.05") * SEEDS["BTC"], False, "ETH/BTC*seed")
    prices = book(mark("BTC/USDT", "60000"), mark("ETH/BTC", "0.05"), mark("LINK/ETH", "0.005"))
    assert prices["ETH"] == (Decimal(3000), True, "ETH/BTC*BTC/USDT")
    assert prices["LINK"] == (Decimal(15), True, "LINK/ETH*ETH/BTC*BTC/USDT")


def test_no_mark_falls_back_to_the_seed_flagged_not_live() -> None:
    prices = book()
    assert prices["LTC"] == (Decimal(85), False, "seed")
    assert prices["USDT"][1] is True
    assert book(mark("LTC/USDT", "0"))["LTC"] == (Decimal(85), False, "seed")  # a zero mark is no price


def test_a_stale_mark_still_prices_but_is_not_live() -> None:
    stale = mark("BTC/USDT", "65000", age_ms=int(STALE_S * 1000) + 1)
    prices = book(stale, mark("LTC/BTC", "0.001"))
    assert prices["BTC"] == (Decimal(65000), False, "BTC/USDT")
    assert prices["LTC"] == (Decimal(65), False, "LTC/BTC*BTC/USDT")  # live only if every mark is
    assert book(mark("BTC/USDT", "65000", age_ms=int(STALE_S * 1000)))["BTC"][1] is True  # at the limit: fresh


def test_quotation_prices_are_the_close_in_usd_and_cny() -> None:
    assert quotation_prices(Decimal("0.051442"), Decimal("68012.5"), Decimal("6.8")) == {
        "usd_price": "3498.699025",
        "cny_price": "23791.15337",
    }
    assert quotation_prices(Decimal(0), Decimal(1), Decimal("6.8")) == {"usd_price": "0", "cny_price": "0"}
    assert quotation_prices(Decimal("0.00000001"), Decimal("0.0000012"), Decimal(7)) == {
        "usd_price": "0.000000000000012",
        "cny_price": "0.000000000000084",
    }


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("68000", "68000"),
        ("3498.69900250001", "3498.6990025"),
        ("0.123456789", "0.12345679"),
        ("0.0000000123456789", "0.000000012345679"),
        ("0.00000001234567891", "0.000000012345679"),
        ("1234567.123456789", "1234567.12345679"),
        ("0", "0"),
    ],
)
def test_shown_prices_keep_8_places_or_8_significant_digits(value: str, shown: str) -> None:
    assert rounded(Decimal(value)) == Decimal(shown)


def test_a_book_values_amounts_rounded_down_and_prices_one_unit() -> None:
    prices = PriceBook(usd_prices(SEEDS, {"BTC/USDT": mark("BTC/USDT", "68012.5")}, NOW, STALE_S), Decimal("7.1"))
    assert prices.value(Decimal("0.123456789"), "BTC") == Decimal("8396.60486186")  # 8396.6048618625
    assert prices.value(Decimal("2"), "NOPE") == 0
    assert prices.prices("BTC") == {"usd_price": "68012.5", "cny_price": "482888.75"}
    assert prices.quotation(Decimal("0.05"), "BTC") == {"usd_price": "3400.625", "cny_price": "24144.4375"}
    assert (prices.live("BTC"), prices.live("LTC"), prices.live("NOPE")) == (True, False, False)
    assert prices.usdt_mark("BTC") == Decimal("68012.5")
    assert prices.usdt_mark("LTC") is None  # the seed: nothing to convert at


def test_the_conversion_rate_is_the_mark_less_the_spread() -> None:
    assert conversion_rate(Decimal(68000), Decimal("0.005")) == Decimal(67660)
    assert conversion_rate(Decimal("3500.25"), Decimal(0)) == Decimal("3500.25")


@pytest.mark.parametrize(
    ("text", "rate"),
    [("7.25", Decimal("7.25")), (" 6.9 ", Decimal("6.9")), (None, DEFAULT_CNY_RATE), ("", DEFAULT_CNY_RATE),
     ("abc", DEFAULT_CNY_RATE), ("NaN", DEFAULT_CNY_RATE), ("Infinity", DEFAULT_CNY_RATE), ("-1", DEFAULT_CNY_RATE),
     ("0", DEFAULT_CNY_RATE), ("1e999999", DEFAULT_CNY_RATE), ("7E0", DEFAULT_CNY_RATE), ("1000.01", DEFAULT_CNY_RATE),
     ("7.123456789", DEFAULT_CNY_RATE), ("1000", Decimal(1000)), ("0.01", Decimal("0.01"))],
)  # fmt: skip
def test_the_cny_rate_setting_falls_back_to_the_default(text: str | None, rate: Decimal) -> None:
    assert parse_cny_rate(text) == rate
