"""The dicts the store and the actors build for the wire against the response models the routes check
them with (serve/api/*_answers.py): every builder's answer passes strictly, and dumps back to the same
keys in the same order, so the bytes on the wire are what they were before the models. A key renamed,
dropped or added in a builder fails here (and where the answer is made, with a 500, in the API tests).
Builders that read the database (P2P order pages and details, the merchant's state, the pair's recent
trades from the table, ``market/deal`` as a whole) are checked the same way through their routes by
the API tests."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError
from tortoise import Tortoise

from actors.book.types import Precision
from actors.market.candles import Bar
from actors.market.ticker import Ticker24h
from actors.pair import events
from actors.pair.mark_state import MarkState
from actors.pair.marks import Tick
from actors.pair.state import BUY, SELL, PairConfig
from serve.api.lever_answers import LeverPositionOut
from serve.api.p2p_answers import AdOut, AppealOut, MarketAdOut, P2POrderItemOut, ShopAdOut
from serve.api.spot_answers import BarOut, DepthOut, MarkInputsOut, MarkTickOut, QuotationOut, SpotOrderOut, TradeOut
from store.lever import position_public
from store.models import LeverPosition, LeverStatus, P2PAd, P2POrder
from store.p2p import ads, views
from store.prices import PriceBook, UsdPrice
from tests.unit.test_matching import Runtime, batch

PAIR = PairConfig(id=1, base_code="BTC", quote_code="USDT", base_currency_id=2, quote_currency_id=1, price_decimals=2,
                  qty_decimals=4, maker_fee=D("0.001"), taker_fee=D("0.002"), sell_disabled=False, open_change=True)  # fmt: skip


@pytest.fixture(autouse=True, scope="module")
def _rows() -> None:
    """The models' relations set up (a row's ``*_id`` fields) without a database."""
    Tortoise.init_models(["store.models"], "models")


def passes(model: type[BaseModel], built: dict[str, Any]) -> None:
    """``built`` passes ``model`` strictly and dumps back to itself, key for key and in order."""
    dumped = model.model_validate(built, strict=True).model_dump(mode="json")
    assert dumped == built and list(dumped) == list(built)
    with pytest.raises(ValidationError):
        model.model_validate({**built, "renamed": built[next(iter(built))]}, strict=True)


@pytest.mark.parametrize("status", [LeverStatus.ENTRUSTED, LeverStatus.OPEN, LeverStatus.CLOSED])
def test_a_lever_position_as_the_store_shapes_it(status: LeverStatus) -> None:
    row = LeverPosition(id=7, user_id=1, currency_match_id=PAIR.id, type=1, status=status, share=2, multiple=10,
                        share_num=D("0.01"), price=D("60000"), close_reason="take_profit" if status else "")  # fmt: skip
    shaped = position_public(row, PAIR, D("61000.5"))
    names = {"type_name": "Long", "status_name": "Open", "close_reason_name": ""}
    passes(LeverPositionOut, {**shaped, **names})
    assert shaped["profits"] == ("20.01" if status == LeverStatus.OPEN else "0")  # 2 hands x 0.01 x 1000.5


def _order(**fields: Any) -> P2POrder:
    return P2POrder(id=5, ad_id=2, merchant_id=1, buyer_id=3, seller_id=1, side=1, currency_id=1, fiat="CNY",
                    price=D("7.1"), amount=D("10"), total=D("71"), pay_method="bank", created_ms=1, deadline_ms=2,
                    **fields)  # fmt: skip


def test_a_p2p_order_in_a_list_as_the_store_shapes_it() -> None:
    order = _order()
    item = {**views.summary(order, "USDT"), "role": views.role_of(order, 3), "remain_ms": 0, "state_name": "Unpaid"}
    passes(P2POrderItemOut, item)


def test_an_appeal_with_and_without_its_answer() -> None:
    order = _order(appeal_by=3, appeal_reason="paid", appeal_images=["a.png"])
    passes(AppealOut, {"by": "buyer", "reason": "paid", "images": ["a.png"], **views.reply_of(order)})
    order.reply_ms, order.reply_reason, order.reply_images = 9, "not received", []
    passes(AppealOut, {"by": "buyer", "reason": "paid", "images": ["a.png"], **views.reply_of(order)})


def test_an_ad_as_the_market_the_shop_and_an_edit_show_it() -> None:
    ad = P2PAd(id=2, merchant_id=1, side=1, currency_id=1, fiat="CNY", price=D("7.1"), min_fiat=D(100),
               max_fiat=D(1000), total=D(100), stock=D(50), methods=["bank"], window_min=15, created_ms=1,
               updated_ms=1)  # fmt: skip
    passes(AdOut, ads.view(ad, "USDT"))
    merchant = {"uid": 1, "nickname": "m", "orders_30d": 3, "completion_rate": "100.0"}
    passes(MarketAdOut, ads.view(ad, "USDT", merchant))
    passes(ShopAdOut, {**ads.view(ad, "USDT"), "in_orders": "10", "sold": "40"})
    with pytest.raises(ValidationError):  # the market's ad names its merchant
        MarketAdOut.model_validate(ads.view(ad, "USDT"), strict=True)


def test_a_spot_order_and_its_trade_as_the_pair_answers_them() -> None:
    rt, b = Runtime(), batch()
    passes(SpotOrderOut, rt.order(b, uid=1, way=SELL, number="0.5", price="0.01"))
    passes(SpotOrderOut, rt.order(b, uid=2, way=BUY, number="0.2", price="0.01"))
    (trade,) = b.trades
    passes(TradeOut, trade.public)


def test_the_book_the_quotation_and_a_candle_as_the_pair_shapes_them() -> None:
    rt, b = Runtime(), batch()
    rt.order(b, uid=1, way=SELL, number="0.5", price="0.02")
    rt.order(b, uid=2, way=BUY, number="0.2", price="0.01")
    depth = events.depth(rt.cfg, rt._book, 4, 20)
    assert (len(depth["in"]), len(depth["out"])) == (1, 1)
    passes(DepthOut, depth)
    prices = PriceBook(usd={"BTC": UsdPrice(D(60000), True, "BTC/USDT")}, cny_rate=D("7.2"))
    ticker = Ticker24h()
    ticker.on_trade(b.now_ms, D("0.02"), D("0.1"))
    passes(QuotationOut, events.quotation(rt.cfg, ticker, b.now_ms, prices))
    candle = Bar(start=0, open=D(1), high=D(2), low=D("0.5"), close=D("1.5"), volume=D(3), amount=D("4.5"))
    passes(BarOut, events.bar(candle))


def test_the_mark_and_what_it_is_made_of() -> None:
    tick = Tick(pair_id=1, seq=3, time_ms=17, price=D("60000.5"), prev_hash="a" * 64, hash="b" * 64, rule="touch",
                version=2)  # fmt: skip
    passes(MarkTickOut, tick.public())
    mark = MarkState(notional=D(1000), precision=Precision(2, 4), window_ms=0, interval_ms=100, now_ms=0, seed=None)
    rt = Runtime(price_decimals=2, qty_decimals=4)
    passes(MarkInputsOut, mark.public(rt._book, 0))
