"""What a LeverShard knows of the pairs, and the names and times it shares (no Ray, no I/O)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from actors.lever.book import Position
from store.models import CurrencyMatch, LeverPosition

USD = "USDT"  # the quote currency of every leveraged pair
DAY_MS = 86_400_000


@dataclass(frozen=True)
class PairTerms:
    """What a lever pair offers and how its positions are made (copied onto each position).

    ``offered`` is the pair's ``open_lever``: a shard also follows a pair closed for lever on which
    it still holds positions (they close, and their triggers fire), but opens nothing new there."""

    id: int
    symbol: str
    base_currency_id: int
    quote_currency_id: int
    places: int
    share_num: Decimal
    point_rate: Decimal
    fee_rate: Decimal
    overnight_rate: Decimal
    multiples: tuple[int, ...]
    shares: tuple[int, ...]
    max_hands: int
    max_exposure: Decimal
    band: Decimal
    max_price: Decimal
    offered: bool = True

    @classmethod
    def of(cls, pair: CurrencyMatch) -> PairTerms:
        return cls(
            id=pair.id,
            symbol=f"{pair.base_currency.code}/{pair.quote_currency.code}",
            base_currency_id=pair.base_currency.id,
            quote_currency_id=pair.quote_currency.id,
            places=pair.price_decimals,
            share_num=pair.lever_share_num,
            point_rate=pair.lever_point_rate,
            fee_rate=pair.lever_fee_rate,
            overnight_rate=pair.lever_overnight_rate,
            multiples=_ints(pair.lever_multiples),
            shares=_ints(pair.lever_shares),
            max_hands=pair.lever_max_hands,
            max_exposure=pair.lever_max_exposure,
            band=pair.price_band,
            max_price=pair.max_price,
            offered=pair.open_lever,
        )


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(",") if part.strip().isdigit())


def position_of(row: LeverPosition) -> Position:
    return Position(
        id=row.id,
        uid=row.user_id,
        pair_id=row.currency_match_id,
        side=row.type,
        status=int(row.status),
        hands=row.share,
        share_num=row.share_num,
        multiple=row.multiple,
        price=row.price,
        margin=row.caution_money,
        frozen=row.frozen,
        target=row.target_price,
        tp=row.target_profit_price,
        sl=row.stop_loss_price,
        armed_seq=row.armed_seq,
        stop_seq=row.stop_seq,
        origin_margin=row.origin_caution_money,
        point_rate=row.point_rate,
    )


# Database and Redis bound; reserves no CPU. max_task_retries=0: a call that met a dying actor is the
# caller's to judge (its outcome is in the database), never silently run twice.
