"""store.spot.persist_batch writes a batch with trades whole, on either database: the trades and their
pending settlements, the 24 h ticker and the candles, inserted the first time and updated in place the
next (one statement on PostgreSQL, its upserts keyed on the ticker's pair and the candle's pair, period
and start)."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from store import spot
from store.models import Currency, CurrencyMatch, Kline, PendingSettlement, Quotation, Trade

START = 1_790_000_040_000  # a minute no other test writes candles for


def _trade(trade_id: int, pair_id: int, price: str, number: str) -> dict[str, Any]:
    return {"id": trade_id, "currency_match_id": pair_id, "buy_order_id": trade_id * 10,
            "sell_order_id": trade_id * 10 + 1, "buyer_id": 1, "seller_id": 2, "taker_way": 1,
            "price": Decimal(price), "number": Decimal(number), "volume": Decimal(price) * Decimal(number),
            "created_at": datetime.fromtimestamp(START / 1000, tz=UTC)}  # fmt: skip


def _bar(pair_id: int, period: str, start: int, close: str, volume: str) -> dict[str, Any]:
    return {"currency_match_id": pair_id, "period": period, "start": start, "open": Decimal("100"),
            "high": max(Decimal("100"), Decimal(close)), "low": min(Decimal("100"), Decimal(close)),
            "close": Decimal(close), "volume": Decimal(volume), "amount": Decimal(close) * Decimal(volume)}  # fmt: skip


def _quotation(pair_id: int, close: str, volume: str) -> dict[str, Any]:
    return {"currency_match_id": pair_id, "close": Decimal(close), "change": Decimal("1.5"),
            "high": Decimal(close), "low": Decimal("100"), "volume": Decimal(volume)}  # fmt: skip


async def _batch(pair_id: int, trades: list[dict[str, Any]], bars: list[dict[str, Any]], close: str) -> None:
    volume = str(sum(t["number"] for t in trades))
    await spot.persist_batch(pair_id=pair_id, new_orders=[], updated_orders=[], trades=trades,
                             quotation=_quotation(pair_id, close, volume), bars=bars, releases=[], ticks=[])  # fmt: skip


async def test_a_batch_with_trades_inserts_then_updates_its_candles_and_ticker(db: None) -> None:
    usdt, btc = await Currency.get(code="USDT"), await Currency.get(code="BTC")
    # a pair of its own (USDT priced in BTC: no seeded pair), closed: no PairActor of the session
    # runs it, so nothing sweeps its settlements
    pair = await CurrencyMatch.create(id=9401, base_currency_id=usdt.id, quote_currency_id=btc.id, open_change=False)
    try:
        await _batch(pair.id, [_trade(9_400_000_001, pair.id, "101", "2")],
                     [_bar(pair.id, "1min", START, "101", "2"), _bar(pair.id, "1day", START - 40_000, "101", "2")],
                     close="101")  # fmt: skip
        first = await Quotation.get(currency_match_id=pair.id)
        await _batch(pair.id, [_trade(9_400_000_002, pair.id, "99.5", "0.000000000000000002")],
                     [_bar(pair.id, "1min", START, "99.5", "2.000000000000000002"),
                      _bar(pair.id, "1day", START - 40_000, "99.5", "2.000000000000000002"),
                      _bar(pair.id, "1min", START + 60_000, "99.5", "0.000000000000000002")],
                     close="99.5")  # fmt: skip

        found = {(b.period, b.start): (b.open, b.high, b.low, b.close, b.volume)
                 for b in await Kline.filter(currency_match_id=pair.id)}  # fmt: skip
        low, close = Decimal("99.5"), Decimal("99.5")
        assert found == {
            ("1min", START): (Decimal(100), Decimal(100), low, close, Decimal("2.000000000000000002")),
            ("1day", START - 40_000): (Decimal(100), Decimal(100), low, close, Decimal("2.000000000000000002")),
            ("1min", START + 60_000): (Decimal(100), Decimal(100), low, close, Decimal("0.000000000000000002")),
        }
        quotation = await Quotation.get(currency_match_id=pair.id)
        assert (first.close, first.volume) == (Decimal(101), Decimal(2))
        assert (quotation.close, quotation.volume) == (close, Decimal("0.000000000000000002"))
        assert quotation.updated_at >= first.updated_at
        trades = await Trade.filter(currency_match_id=pair.id).order_by("id").values_list("id", "volume")
        assert trades == [(9_400_000_001, Decimal(202)), (9_400_000_002, Decimal("0.000000000000000199"))]
        sides = await PendingSettlement.filter(currency_match_id=pair.id).values_list("trade_id", "side")
        assert sorted(sides) == [(9_400_000_001, 1), (9_400_000_001, 2), (9_400_000_002, 1), (9_400_000_002, 2)]
    finally:
        await PendingSettlement.filter(currency_match_id=pair.id).delete()
        await Trade.filter(currency_match_id=pair.id).delete()
        await Kline.filter(currency_match_id=pair.id).delete()
        await Quotation.filter(currency_match_id=pair.id).delete()
        await pair.delete()
