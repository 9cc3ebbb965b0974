"""Leveraged positions in the database: their public shape, the queries the API and the lever shards
share, and the house ledger's rows. The lever shards alone write positions (``actors.lever.actor``),
each change in the transaction of its money (``store.ledger.apply(also=…)``)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from decimal import Decimal
from typing import Any, Protocol

from tortoise.backends.base.client import BaseDBAsyncClient

from store.models import HouseLedger, LeverPosition, LeverStatus
from store.money import money

ACTIVE = (LeverStatus.ENTRUSTED, LeverStatus.OPEN)  # what a lever shard holds in memory
# The journal's kinds of lever-account rows the lever shards write (transfers in and out are "transfer").
LOG_TYPES = ("lever_open", "lever_entrust", "lever_fill", "lever_close", "lever_cancel", "lever_liquidation",
             "lever_overnight")  # fmt: skip
LONG, SHORT = 1, 2
# The house ledger's kinds of lever rows (actors.lever.settle); second contracts write others (store.micro).
HOUSE_KINDS = ("lever_fee", "lever_pnl", "insurance", "overnight")


def _ms(at: datetime | None) -> int | None:
    return int(at.timestamp() * 1000) if at else None


class PairLike(Protocol):
    """What a position's shape needs of its pair (PairConfig and the lever shard's PairTerms have it)."""

    @property
    def symbol(self) -> str: ...

    @property
    def base_currency_id(self) -> int: ...

    @property
    def quote_currency_id(self) -> int: ...


def position_public(p: LeverPosition, pair: PairLike, mark: Decimal | None) -> dict[str, Any]:
    """A position as every answer and push shows it (decisions.md "Leveraged contracts"): amounts as
    strings; ``update_price`` the current mark; ``profits`` unrealised at the mark while open,
    realised once closed. Names (type_name, status_name, close_reason_name) are the API's to add."""
    number = p.share * p.share_num
    if p.status == LeverStatus.OPEN and mark is not None:
        sign = 1 if p.type == LONG else -1
        profits = sign * (mark - p.price) * number
    else:
        profits = p.profits
    symbol = pair.symbol
    base, quote = symbol.split("/", 1)
    return {
        "id": p.id,
        "currency_match_id": p.currency_match_id,
        "symbol": symbol,
        "type": p.type,
        "status": int(p.status),
        "share": p.share,
        "multiple": p.multiple,
        "number": money(number),
        "price": money(p.price),
        "origin_price": money(p.origin_price),
        "target_price": money(p.target_price),
        "caution_money": money(p.caution_money),
        "origin_caution_money": money(p.origin_caution_money),
        "frozen": money(p.frozen),
        "trade_fee": money(p.trade_fee),
        "overnight_money": money(p.overnight_money),
        "target_profit_price": money(p.target_profit_price),
        "stop_loss_price": money(p.stop_loss_price),
        "update_price": money(mark) if mark is not None else money(p.close_price or p.price),
        "profits": money(profits),
        "close_price": money(p.close_price),
        "close_reason": p.close_reason,
        "open_tick_id": p.open_tick_id,
        "close_tick_id": p.close_tick_id,
        "time": _ms(p.created_at),
        "opened_at": _ms(p.opened_at),
        "closed_at": _ms(p.closed_at),
        "base_currency_id": pair.base_currency_id,
        "quote_currency_id": pair.quote_currency_id,
        "base_currency_code": base,
        "quote_currency_code": quote,
    }


async def active(uids: Iterable[int] | None = None) -> list[LeverPosition]:
    """Entrusted and open positions (of ``uids``, or everyone's), oldest first."""
    query = LeverPosition.filter(status__in=ACTIVE)
    if uids is not None:
        query = query.filter(user_id__in=list(uids))
    return await query.order_by("id")


def house_row(kind: str, currency_id: int, amount: Decimal, ref: str, uid: int, position_id: int | None) -> HouseLedger:
    return HouseLedger(kind=kind, currency_id=currency_id, amount=amount, ref=ref, user_id=uid,
                       position_id=position_id)  # fmt: skip


async def write(
    conn: BaseDBAsyncClient, *, save: Iterable[LeverPosition] = (), house: Iterable[HouseLedger] = ()
) -> None:
    """Write positions (insert or update) and house ledger rows inside a ledger transaction."""
    for position in save:
        await position.save(using_db=conn)
    rows = [row for row in house if row.amount]
    if rows:
        await HouseLedger.bulk_create(rows, using_db=conn)
