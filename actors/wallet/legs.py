"""What each wallet operation changes, as ledger ``Change`` lists (pure: no I/O, no Ray).

Spot settlement of one trade side, in the pair's two currencies:
- buyer: quote lock -= volume (price × quantity); base balance += quantity − buyer fee (fee in base);
- seller: base lock -= quantity; quote balance += volume − seller fee (fee in quote).
A buy froze its limit price × quantity (a market buy its budget); what fills did not consume is
released when the order is final, so a user's lock always equals what their open orders hold.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from store.ledger import ZERO, Change, Fee, Op
from store.models import AccountType, FeeLedger, PendingSettlement
from store.money import money

BUYER, SELLER = 1, 2
CHANGE = AccountType.CHANGE
ORDER_REF = re.compile(r"^o(\d+):(freeze|release)$")


@dataclass(frozen=True)
class TradeLeg:
    """The facts of one trade that both sides' settlements need."""

    trade_id: int
    buyer_id: int
    seller_id: int
    base_currency_id: int
    quote_currency_id: int
    quantity: Decimal
    volume: Decimal
    buyer_fee: Decimal
    seller_fee: Decimal
    symbol: str = ""


def freeze(uid: int, currency_id: int, amount: Decimal, ref: str, memo: str = "") -> list[Change]:
    return [Change(uid, currency_id, CHANGE, -amount, amount, "freeze", ref, memo)]


def release(uid: int, currency_id: int, amount: Decimal, ref: str, memo: str = "") -> list[Change]:
    return [Change(uid, currency_id, CHANGE, amount, -amount, "release", ref, memo)]


def order_of(ref: str) -> int | None:
    """The order id of an order's freeze or release ref (``o42:freeze`` -> 42), else None."""
    found = ORDER_REF.match(ref)
    return int(found.group(1)) if found else None


def settle(leg: TradeLeg, side: int) -> tuple[list[Change], Fee]:
    memo = f"trade {leg.trade_id} {leg.symbol}".strip()
    ref = f"t{leg.trade_id}:{side}"
    if side == BUYER:
        uid, fee = leg.buyer_id, Fee(leg.trade_id, BUYER, leg.base_currency_id, leg.buyer_fee)
        changes = [
            Change(uid, leg.quote_currency_id, CHANGE, ZERO, -leg.volume, "trade_pay", f"{ref}:pay", memo),
            Change(
                uid, leg.base_currency_id, CHANGE, leg.quantity - leg.buyer_fee, ZERO, "trade_get", f"{ref}:get", memo
            ),
        ]
    elif side == SELLER:
        uid, fee = leg.seller_id, Fee(leg.trade_id, SELLER, leg.quote_currency_id, leg.seller_fee)
        changes = [
            Change(uid, leg.base_currency_id, CHANGE, ZERO, -leg.quantity, "trade_pay", f"{ref}:pay", memo),
            Change(
                uid, leg.quote_currency_id, CHANGE, leg.volume - leg.seller_fee, ZERO, "trade_get", f"{ref}:get", memo
            ),
        ]
    else:
        raise ValueError(f"side must be {BUYER} or {SELLER}")
    return changes, fee


def settle_op(leg: TradeLeg, side: int) -> Op:
    """``settle`` as an operation of the wallet shard's group commit (``ledger.apply_debits``): the fee
    row lands with it (its unique (trade, side) makes a second one fail), it ends the side's
    ``PendingSettlement`` also when it was settled before, and it opens the account it credits."""
    changes, fee = settle(leg, side)
    row = FeeLedger(trade_id=fee.trade_id, side=fee.side, currency_id=fee.currency_id, amount=fee.amount)
    ended = ((PendingSettlement, ("trade_id", "side"), (fee.trade_id, fee.side)),)
    return Op(changes, rows=(row,), deletes=ended, opens=True)


def shard_of(uid: int, shards: int) -> int:
    """The one sharding rule: a user's wallet lives in shard ``uid % shards``."""
    return uid % shards


def transfer(
    uid: int, currency_id: int, amount: Decimal, source: AccountType, target: AccountType, ref: str
) -> list[Change]:
    """Both legs of a move between two of a user's accounts: one batch, so it applies whole or not at all."""
    extra: dict[str, object] = {"from": source.code, "to": target.code}
    return [
        Change(uid, currency_id, source, -amount, ZERO, "transfer", f"{ref}:out", "transfer out", extra),
        Change(uid, currency_id, target, amount, ZERO, "transfer", f"{ref}:in", "transfer in", extra),
    ]


@dataclass(frozen=True)
class Conversion:
    """``amount`` of one currency into ``value`` of another at ``price``, both in the change account."""

    uid: int
    from_currency_id: int
    to_currency_id: int
    amount: Decimal
    value: Decimal
    price: Decimal  # the rate paid: ``mark`` less ``spread``
    from_code: str = ""
    to_code: str = ""
    mark: Decimal | None = None  # the mark price the rate came from, its spread and its tick id
    spread: Decimal | None = None
    tick_id: int | None = None


def convert(c: Conversion, ref: str) -> list[Change]:
    """The user's two legs; the house's side of a conversion is these journal rows themselves."""
    extra: dict[str, object] = {"from": c.from_code, "to": c.to_code, "price": money(c.price)}
    if c.mark is not None:
        extra |= {"mark": money(c.mark), "spread": money(c.spread or ZERO), "tick_id": c.tick_id}
    return [
        Change(c.uid, c.from_currency_id, CHANGE, -c.amount, ZERO, "convert", f"{ref}:out", "convert out", extra),
        Change(c.uid, c.to_currency_id, CHANGE, c.value, ZERO, "convert", f"{ref}:in", "convert in", extra),
    ]
