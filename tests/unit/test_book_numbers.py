"""The matching core's numbers: a pair's precision (prices in ticks, quantities in lots, budgets), the
spec's rounding of prices, quantities and totals, and fees rounded up."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from actors.book import Precision
from actors.book.fees import fee
from actors.book.rounding import buy_qty, ceil_total, floor_qty, trim_price

P = Precision()  # BTC/USDT: prices to 4 decimals, quantities to 6


def test_precision_converts_exactly() -> None:
    assert P.to_ticks(D("60000.1234")) == 600_001_234
    assert P.to_lots(D("1.500000000")) == 1_500_000  # trailing zeros are not extra decimals
    assert P.to_lots(D("2E+3")) == 2_000_000_000
    assert P.price(600_001_234) == D("60000.1234") and P.qty(1) == D("0.000001")
    assert P.quote(600_001_234, 1_500_000) == D("60000.1234") * D("1.5")
    assert P.to_budget(D("90000")) == 90_000 * 10**10 and P.to_budget(D("1E-11")) == 0


@pytest.mark.parametrize("value", ["60000.12345", "0.00001", "0", "-1", "NaN", "Infinity", "-Infinity"])
def test_precision_refuses_prices_it_cannot_hold(value: str) -> None:
    with pytest.raises(ValueError):
        P.to_ticks(D(value))


@pytest.mark.parametrize("value", ["0.0000001", "1.0000005", "0", "-0.5", "sNaN"])
def test_precision_refuses_quantities_it_cannot_hold(value: str) -> None:
    with pytest.raises(ValueError):
        P.to_lots(D(value))


def test_rounding_follows_the_spec() -> None:
    # Prices are truncated to 4 decimals, never rounded up.
    assert trim_price(D("60000.12349")) == D("60000.1234")
    assert trim_price(D("0.99999")) == D("0.9999")
    assert trim_price(D("60000")) == D("60000.0000")
    # Buy quantity = balance * percent / price, floored to 6 decimals: 25 % of 1000 USDT at 60000.
    assert buy_qty(D("1000"), D("0.25"), D("60000")) == D("0.004166")
    assert buy_qty(D("1"), D("1"), D("3")) == D("0.333333")
    assert floor_qty(D("0.0000019")) == D("0.000001") and floor_qty(D("2")) == D("2.000000")
    # Totals are rounded up to 6 decimals.
    assert ceil_total(D("1.0000001")) == D("1.000001")
    assert ceil_total(D("60000.1234") * D("0.004166")) == D("249.960515")
    assert ceil_total(D("2.5")) == D("2.500000")


def test_buy_qty_floors_a_quotient_that_rounding_would_lift() -> None:
    # 1 / 1.000000000000000000000000000001 is 0.99999...; half-even at 28 digits would give 1.
    assert buy_qty(D("1"), D("1"), D("1.000000000000000000000000000001")) == D("0.999999")


def test_rounding_refuses_non_finite_input() -> None:
    for helper in (trim_price, floor_qty, ceil_total):
        with pytest.raises(ValueError):
            helper(D("NaN"))
    with pytest.raises(ValueError):
        buy_qty(D("1"), D("1"), D("0"))


def test_fee_rounds_up_to_eight_decimals() -> None:
    assert fee(D("1234.5678"), D("0.001")) == D("1.23456780")
    assert fee(D("0.00000001"), D("0.5")) == D("0.00000001")  # 0.000000005 rounds up, not to zero
    assert fee(D("100"), D("0")) == D("0")
    assert fee(D("123456789012345678901234567890.12345678"), D("0.001")) == D("123456789012345678901234567.89012346")
    with pytest.raises(ValueError):
        fee(D("-1"), D("0.001"))
