"""parse_amount: whatever a client sends, a positive Decimal within bounds or a DomainError, quickly."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from serve.api.amounts import parse_amount
from store.errors import DomainError, ErrorCode

MISSING = ErrorCode.TRANSFER_AMOUNT_REQUIRED
MAXIMUM = Decimal(1_000_000_000)
PLACES = 6

anything = st.one_of(
    st.none(),
    st.booleans(),
    st.text(),
    st.text(alphabet="0123456789.eE+- _", max_size=80),
    st.from_regex(r"\A\s*[+-]?\d{0,30}(\.\d{0,30})?([eE][+-]?\d{1,12})?\s*\Z"),
    st.integers(),
    st.floats(),
    st.decimals(),
    st.lists(st.integers(), max_size=2),
)


@given(anything)
@example("1e999999999")
@example("1e-999999999")
@example("9" * 100_000)
@example("9" * 100_000 + "x")
@example(10**100_000)
@example(float("inf"))
@example(float("nan"))
@example(1e308)
@example(Decimal("sNaN"))
@settings(max_examples=500, deadline=None)
def test_any_input_is_a_bounded_amount_or_a_domain_error(value: object) -> None:
    try:
        amount = parse_amount(value, missing=MISSING, places=PLACES, maximum=MAXIMUM)
    except DomainError as exc:
        assert exc.code in (MISSING, ErrorCode.AMOUNT_PRECISION, ErrorCode.AMOUNT_ABOVE_MAX)
    else:
        assert isinstance(amount, Decimal) and amount.is_finite()
        assert 0 < amount <= MAXIMUM
        assert amount == amount.quantize(Decimal(1).scaleb(-PLACES))


@given(st.decimals(min_value=Decimal("0.000001"), max_value=MAXIMUM, places=PLACES))
def test_every_amount_within_bounds_reads_back_exactly(amount: Decimal) -> None:
    for text in (str(amount), format(amount, "f"), f" {amount} ", format(amount, "e")):
        assert parse_amount(text, missing=MISSING, places=PLACES, maximum=MAXIMUM) == amount


@given(st.floats(min_value=1e-6, max_value=1e9))
def test_json_numbers_are_read_by_their_shortest_digits(number: float) -> None:
    expected = Decimal(repr(number))
    try:
        assert parse_amount(number, missing=MISSING, places=PLACES, maximum=MAXIMUM) == expected
    except DomainError as exc:
        assert exc.code == ErrorCode.AMOUNT_PRECISION and expected.as_tuple().exponent < -PLACES  # type: ignore[operator]


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("1e999999999", ErrorCode.AMOUNT_ABOVE_MAX),
        ("1000000000.000001", ErrorCode.AMOUNT_ABOVE_MAX),
        pytest.param(10**100_000, ErrorCode.AMOUNT_ABOVE_MAX, id="10**100000"),
        pytest.param("9" * 100_000, MISSING, id="100000 nines"),
        ("NaN", MISSING),
        ("Infinity", MISSING),
        ("-Infinity", MISSING),
        (float("inf"), MISSING),
        ("-0", MISSING),
        ("0.0000000", MISSING),
        ("-1", MISSING),
        ("1_000", MISSING),
        ("\u0661", MISSING),  # ARABIC-INDIC DIGIT ONE: Decimal reads it, an amount does not
        ("1 000", MISSING),
        ("0x10", MISSING),
        ("", MISSING),
        (None, MISSING),
        (True, MISSING),
        ([1], MISSING),
        ("1e-999999999", ErrorCode.AMOUNT_PRECISION),
        ("1.0000001", ErrorCode.AMOUNT_PRECISION),
    ],
)
def test_absurd_input(value: object, code: ErrorCode) -> None:
    with pytest.raises(DomainError) as refused:
        parse_amount(value, missing=MISSING, places=PLACES, maximum=MAXIMUM)
    assert refused.value.code == code
    if code == ErrorCode.AMOUNT_ABOVE_MAX:
        assert refused.value.params == {"max": "1000000000"}


@pytest.mark.parametrize(
    ("value", "amount"),
    [(" 1 ", "1"), ("1.500000", "1.5"), ("+2", "2"), ("1e3", "1000"), (".5", "0.5"), (5, "5"), (0.1, "0.1")],
)
def test_plain_amounts(value: object, amount: str) -> None:
    assert parse_amount(value, missing=MISSING, places=PLACES, maximum=MAXIMUM) == Decimal(amount)


def test_without_a_maximum_only_the_columns_bound_an_amount() -> None:
    assert parse_amount("99999999999999999", missing=MISSING, places=0) == Decimal("99999999999999999")
    with pytest.raises(DomainError) as refused:
        parse_amount("1e17", missing=MISSING, places=0)
    assert refused.value.code == MISSING
