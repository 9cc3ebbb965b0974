"""What an operator types into the console's market settings: accepted and normalised, or refused with
the field and the rule (serve/api/routes/admin/fields.py)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from serve.api.routes.admin import fields
from store.errors import DomainError, ErrorCode


def refusal(call: object, *args: object, **kw: object) -> tuple[ErrorCode, dict[str, object]]:
    with pytest.raises(DomainError) as caught:
        call(*args, **kw)  # type: ignore[operator]
    return caught.value.code, caught.value.params


def test_a_number_is_plain_digits_within_its_range_and_places() -> None:
    assert fields.number("fee", " 0.0010 ", high=Decimal("0.05")) == Decimal("0.001")
    assert fields.number("fee", "0", high=Decimal("0.05")) == 0
    for bad in ("0.06", "-0.01", "1e-3", "NaN", "Infinity", "", "0.1%", "１", "0x1", ".5"):
        assert refusal(fields.number, "fee", bad, high=Decimal("0.05")) == (
            ErrorCode.ADMIN_NUMBER_RANGE, {"field": "fee", "min": "0", "max": "0.05"},
        )  # fmt: skip
    assert refusal(fields.number, "size", "0", high=Decimal(10), above=True) == (
        ErrorCode.ADMIN_NUMBER_POSITIVE, {"field": "size", "max": "10"},
    )  # fmt: skip
    assert refusal(fields.number, "min", "1.0000001", high=Decimal(10), places=6) == (
        ErrorCode.ADMIN_NUMBER_PLACES, {"field": "min", "places": 6},
    )  # fmt: skip
    assert fields.number("min", "1.1000000", high=Decimal(10), places=6) == Decimal("1.1")  # trailing zeros


def test_whole_lists_are_different_numbers_in_range() -> None:
    assert fields.whole_list("m", " 5, 10 ,20", low=1, high=1000) == "5,10,20"
    for bad in ("5,5", "0,5", "5;10", "", "5,", "1001", "a", ",".join(map(str, range(1, 14))), "1.5"):
        assert refusal(fields.whole_list, "m", bad, low=1, high=1000)[0] == ErrorCode.ADMIN_WHOLE_LIST


def test_durations_are_seconds_and_a_ratio_each_once() -> None:
    assert fields.durations("s", "30:80, 60 : 85.50,86400:100") == "30:80,60:85.5,86400:100"
    for bad in ("30", "30:0", "30:100.01", "0:80", "86401:80", "30:80,30:85", "30:80.123", "", "30:-5", ":80",
                "30:80,", "x:80"):  # fmt: skip
        assert refusal(fields.durations, "s", bad)[0] == ErrorCode.ADMIN_DURATIONS, bad


def test_presets_are_stakes_within_the_bounds_or_none() -> None:
    low, high = Decimal(1), Decimal(10000)
    assert fields.presets("p", "10, 50.0,100", low=low, high=high, places=6) == "10,50,100"
    assert fields.presets("p", "  ", low=low, high=high, places=6) == ""
    for bad in ("10,10", "0.5", "10001", "10.1234567", "10,abc", ",".join(map(str, range(1, 14)))):
        assert refusal(fields.presets, "p", bad, low=low, high=high, places=6)[0] == ErrorCode.ADMIN_PRESETS


def test_a_minimum_may_not_pass_its_maximum() -> None:
    fields.ordered("draw_min", Decimal(10), "draw_max", Decimal(10))
    assert refusal(fields.ordered, "draw_min", Decimal(11), "draw_max", Decimal(10)) == (
        ErrorCode.ADMIN_BOUNDS_ORDER, {"low": "draw_min", "high": "draw_max"},
    )  # fmt: skip
