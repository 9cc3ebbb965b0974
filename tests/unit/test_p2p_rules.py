"""The P2P market's pure rules (store/p2p/rules.py): a fiat amount buys coins rounded down, an order's
fiat total is rounded half up to cents, what an ad takes now, how a real name reads to the other side,
what each side may do in each state, and the completion rate."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from store.models import AdSide, P2PState
from store.p2p import rules
from store.p2p.rules import BUYER, SELLER

D = Decimal
USDT_PLACES, BTC_PLACES = 6, 8

cents = st.integers(min_value=1, max_value=10**9).map(lambda n: D(n) / 100)  # 0.01 .. 10,000,000.00
prices = st.integers(min_value=1, max_value=10**8).map(lambda n: D(n) / 100)  # 0.01 .. 1,000,000.00
places = st.sampled_from([USDT_PLACES, BTC_PLACES])
coins = st.integers(min_value=0, max_value=10**14).map(lambda n: D(n).scaleb(-BTC_PLACES))


def test_the_market_offers_what_the_design_names() -> None:
    assert rules.CURRENCIES == ("USDT", "BTC", "ETH") and rules.FIATS == ("CNY", "USD")
    assert rules.METHODS == ("alipay", "wxpay", "bank")
    assert rules.WINDOWS == (10, 15, 20, 30, 45, 60, 90, 120) and rules.DEFAULT_WINDOW in rules.WINDOWS
    assert (rules.CANCEL_LIMIT, rules.MAX_ADS, rules.MAX_IMAGES) == (3, 20, 3)
    assert (rules.REASON_MIN, rules.REASON_MAX, rules.MIN_FIAT, rules.FIAT_PLACES) == (10, 500, D(1), 2)


@pytest.mark.parametrize(
    "nickname, valid",
    [("ab", True), ("Desk_01-x", True), ("a" * 20, True), ("a", False), ("a" * 21, False), ("two words", False),
     ("名字", False), ("dot.name", False), ("", False)],
)  # fmt: skip
def test_a_nickname_is_2_to_20_letters_digits_underscores_or_hyphens(nickname: str, valid: bool) -> None:
    assert bool(rules.NICKNAME_RE.match(nickname)) is valid


def test_places_count_only_significant_decimals() -> None:
    assert [rules.places_of(D(v)) for v in ("1.50", "100", "1E+2", "0.001", "7.2", "0.12345678")] == [1, 0, 0, 3, 1, 8]
    assert rules.unit(6) == D("0.000001") and rules.unit(0) == D(1)


def test_a_fiat_amount_buys_coins_rounded_down_to_the_coins_decimals() -> None:
    assert rules.amount_for_fiat(D(1000), D("7.2"), USDT_PLACES) == D("138.888888")  # 138.8888888...
    assert rules.amount_for_fiat(D(100), D("7.3"), USDT_PLACES) == D("13.69863")  # 13.698630136...
    assert rules.amount_for_fiat(D(720), D("7.2"), USDT_PLACES) == D(100)
    assert rules.amount_for_fiat(D(100), D("65432.1"), BTC_PLACES) == D("0.00152830")  # 0.001528301...
    assert rules.amount_for_fiat(D("0.01"), D(1_000_000), USDT_PLACES) == D(0)  # less than one unit: nothing


def test_the_fiat_total_is_rounded_half_up_to_cents() -> None:
    assert rules.fiat_total(D("13.69863"), D("7.3")) == D("100.00")  # 99.999999
    assert rules.fiat_total(D("0.5"), D("0.01")) == D("0.01")  # 0.005 up
    assert rules.fiat_total(D("0.4999"), D("0.01")) == D("0.00")  # 0.004999 down
    assert rules.fiat_total(D("138.888888"), D("7.2")) == D("1000.00")  # 999.9999936
    assert rules.fiat_total(D(100), D("7.2")) == D("720.00")


def test_what_an_ad_takes_now_is_its_limit_or_what_its_stock_is_worth() -> None:
    assert rules.max_now(D(5000), D(1000), D("7.2")) == D(5000)  # 7200 worth, 5000 the limit
    assert rules.max_now(D(5000), D(10), D("7.2")) == D("72.00")
    assert rules.max_now(D(5000), D("13.888888"), D("7.2")) == D("99.99")  # 99.9999936: down, never more
    assert rules.max_now(D(5000), D(0), D("7.2")) == D(0)


def test_the_taker_buys_on_a_sell_ad_and_sells_on_a_buy_ad() -> None:
    assert rules.taker_buys(AdSide.SELL) and not rules.taker_buys(AdSide.BUY)
    merchant, taker = 7, 9
    assert rules.parties(AdSide.SELL, merchant, taker) == (taker, merchant)  # (buyer, seller)
    assert rules.parties(AdSide.BUY, merchant, taker) == (merchant, taker)


@pytest.mark.parametrize(
    "name, shown",
    [
        ("Zhang Wei", "Z*** Wei"),
        ("Li Na", "L*** Na"),
        ("Juan Carlos Perez", "J*** C*** Perez"),
        ("  Zhang   Wei ", "Z*** Wei"),  # spaces around and between words do not count
        ("Anna", "A***"),  # one word: its first character, the rest starred
        ("王小明", "王**"),
        ("王五", "王*"),
        ("王", "王*"),  # a one-character name still hides something
        ("欧阳 娜娜", "欧*** 娜娜"),
        ("", ""),
        ("   ", ""),
    ],
)
def test_a_real_name_is_masked_but_for_the_last_word(name: str, shown: str) -> None:
    assert rules.mask_name(name) == shown


NOW, DEADLINE = 1_000_000, 1_900_000


@pytest.mark.parametrize(
    "state, role, now, allowed",
    [
        (P2PState.UNPAID, BUYER, NOW, ["paid", "cancel"]),
        (P2PState.UNPAID, BUYER, DEADLINE - 1, ["paid", "cancel"]),
        (P2PState.UNPAID, BUYER, DEADLINE, []),  # the window has ended: the server cancels it
        (P2PState.UNPAID, SELLER, NOW, []),  # the seller waits for the fiat
        (P2PState.PAID, BUYER, NOW, ["appeal"]),
        (P2PState.PAID, SELLER, NOW, ["release", "appeal"]),
        (P2PState.PAID, SELLER, DEADLINE + 10**9, ["release", "appeal"]),  # a paid order has no timer
        (P2PState.COMPLETED, BUYER, NOW, []),
        (P2PState.COMPLETED, SELLER, NOW, []),
        (P2PState.CANCELLED, BUYER, NOW, []),
        (P2PState.CANCELLED, SELLER, NOW, []),
        (P2PState.APPEAL, BUYER, NOW, []),  # an operator decides
        (P2PState.APPEAL, SELLER, NOW, []),
    ],
)
def test_each_side_may_do_what_the_state_allows(state: int, role: str, now: int, allowed: list[str]) -> None:
    assert rules.actions(state, role, now, DEADLINE) == allowed


def test_the_completion_rate_is_a_percent_rounded_down_to_one_decimal() -> None:
    assert rules.completion_rate(0, 0) == "100.0"  # nothing counts yet
    assert rules.completion_rate(3, 3) == "100.0"
    assert rules.completion_rate(1, 2) == "50.0"
    assert rules.completion_rate(2, 3) == "66.6"  # 66.666...
    assert rules.completion_rate(1, 3) == "33.3"
    assert rules.completion_rate(0, 5) == "0.0"
    assert rules.completion_rate(999, 1000) == "99.9"


@given(fiat=cents, price=prices, places=places)
def test_coins_for_a_fiat_amount_never_cost_more_than_it_and_one_unit_more_would(
    fiat: Decimal, price: Decimal, places: int
) -> None:
    amount = rules.amount_for_fiat(fiat, price, places)
    assert amount >= 0 and rules.places_of(amount) <= places
    assert amount * price <= fiat < (amount + rules.unit(places)) * price


@given(amount=coins, price=prices)
def test_the_fiat_total_is_within_half_a_cent_of_the_exact_cost(amount: Decimal, price: Decimal) -> None:
    total = rules.fiat_total(amount, price)
    assert rules.places_of(total) <= rules.FIAT_PLACES
    exact = amount * price
    assert -rules.CENT / 2 < total - exact <= rules.CENT / 2  # half up: an exact half goes up


@given(max_fiat=cents, stock=coins, price=prices)
def test_what_an_ad_takes_now_never_exceeds_its_limit_or_its_stock(max_fiat: Decimal, stock: Decimal,
                                                                   price: Decimal) -> None:  # fmt: skip
    shown = rules.max_now(max_fiat, stock, price)
    assert shown <= max_fiat and shown <= stock * price and rules.places_of(shown) <= rules.FIAT_PLACES
    assert shown == max_fiat or stock * price - shown < rules.CENT


@given(name=st.lists(st.text(alphabet=st.characters(exclude_categories=("Z", "C")), min_size=1), min_size=1,
                     max_size=4).map(" ".join))  # fmt: skip
def test_a_masked_name_keeps_only_initials_and_the_last_word(name: str) -> None:
    words = name.split()
    shown = rules.mask_name(name).split(" ")
    assert len(shown) == len(words)
    if len(words) == 1:
        assert shown[0][0] == words[0][0] and set(shown[0][1:]) == {"*"}
    else:
        assert shown[-1] == words[-1]
        assert all(s == w[0] + "***" for s, w in zip(shown[:-1], words[:-1], strict=True))


@pytest.mark.parametrize(
    ("text", "cap"),
    [("2", 2), (" 1 ", 1), ("100", 100), ("0", None), ("101", None), ("-1", None), ("1.5", None), ("x", None),
     ("", None), (None, None), ("١", None), ("0002", None)],
)  # fmt: skip
def test_the_unpaid_orders_setting_reads_as_a_cap_from_1_to_100(text: str | None, cap: int | None) -> None:
    assert rules.unpaid_max(text) == cap
