"""The pair's matching rules without Ray or a database (actors.pair.matching): the bounds a pair
checks itself, open-order counting, and fees that never exceed what a side receives."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from actors.pair.matching import band, match_cancel
from actors.pair.state import BUY, SELL
from store.errors import DomainError, ErrorCode
from tests.utils.matching import Runtime, batch


def test_a_fee_rounded_up_never_exceeds_what_the_side_receives() -> None:
    rt = Runtime()
    b = batch()
    rt.order(b, uid=1, way=SELL, number="0.00000001", price="0.00000001")
    rt.order(b, uid=2, way=BUY, number="0.00000001", price="0.00000001")
    (trade,) = b.trades
    leg = trade.leg
    assert leg.volume == D("1E-16")  # 0.00000001 x 0.00000001 BTC: the seller's proceeds
    assert leg.seller_fee == leg.volume  # 0.2 % rounded up to 8 places would be 1E-8: capped at the proceeds
    assert leg.buyer_fee == leg.quantity  # the buyer's 1E-8 LTC pays at most itself
    assert leg.volume - leg.seller_fee >= 0 and leg.quantity - leg.buyer_fee >= 0


def test_the_pair_checks_its_bounds_itself() -> None:
    rt = Runtime(price_decimals=4, qty_decimals=6, max_price=D(1000), max_quantity=D(50), min_notional=D(1),
                 price_band=D(5), max_open_orders=2, quote_code="USDT")  # fmt: skip
    b = batch()
    rt.order(b, uid=1, way=SELL, number="1", price="100")
    rt.order(b, uid=2, way=BUY, number="1", price="100")  # a trade: the mark is 100
    assert rt.mark() == D(100) and band(D(100), rt.cfg) == (D(20), D(500))
    cases = [
        (("51", "100"), ErrorCode.QUANTITY_TOO_LARGE, {"max": "50"}),
        (("1", "1000.5"), ErrorCode.PRICE_TOO_HIGH, {"max": "1000"}),
        (("0.001", "100"), ErrorCode.NOTIONAL_TOO_SMALL, {"min": "1", "currency": "USDT"}),
        (("1", "19.9999"), ErrorCode.PRICE_OUT_OF_BAND, {"low": "20", "high": "500"}),
        (("0.1", "500.0001"), ErrorCode.PRICE_OUT_OF_BAND, {"low": "20", "high": "500"}),
    ]
    for (number, price), code, params in cases:
        with pytest.raises(DomainError) as refused:
            rt.order(b, uid=3, way=BUY, number=number, price=price)
        assert (refused.value.code, refused.value.params) == (code, params)
    rt.order(b, uid=3, way=BUY, number="1", price="20")
    rt.order(b, uid=3, way=BUY, number="1", price="21")
    with pytest.raises(DomainError) as refused:
        rt.order(b, uid=3, way=BUY, number="1", price="22")
    assert refused.value.code == ErrorCode.TOO_MANY_OPEN_ORDERS and refused.value.params == {"max": 2}


def test_open_orders_are_counted_through_fills_and_cancels() -> None:
    rt = Runtime(price_decimals=4, qty_decimals=6)
    b = batch()
    first = rt.order(b, uid=1, way=SELL, number="1", price="100")
    rt.order(b, uid=1, way=SELL, number="1", price="101")
    assert rt._open_count[1] == 2
    rt.order(b, uid=2, way=BUY, number="1", price="100")  # fills the first completely
    assert (rt._open_count[1], rt._open_count[2]) == (1, 0)
    rt.order(b, uid=2, way=BUY, number="0.5", price="101")  # half of the second: it still rests
    assert rt._open_count[1] == 1
    match_cancel(rt, b, first["id"] + 1, uid=1)
    assert rt._open_count[1] == 0
    rt.order(b, uid=3, way=BUY, number="1", price="99")
    rt.order(b, uid=3, way=SELL, number="1", price="99")  # self-trade prevention cancels the resting bid
    assert rt._open_count[3] == 1  # the sell rests instead
