"""The P2P invariant: per user and currency, the legal account's lock equals the escrow of the open
orders they sell in plus the stock of their sell ads that are not closed (nothing else locks a legal
account). Checked by the tests, also under chaos; ``exchange p2p audit`` prints it."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from store.models import Account, AccountType, AdSide, AdStatus, P2PAd, P2POrder
from store.models.p2p import OPEN_STATES

Key = tuple[int, int]  # (user, currency)


async def expected_locks() -> dict[Key, Decimal]:
    held: defaultdict[Key, Decimal] = defaultdict(Decimal)
    orders = await P2POrder.filter(state__in=OPEN_STATES).values_list("seller_id", "currency_id", "amount")
    ads = await P2PAd.filter(side=AdSide.SELL, status__not=AdStatus.CLOSED).values_list(
        "merchant_id", "currency_id", "stock"
    )
    for uid, currency_id, amount in [*orders, *ads]:
        held[(int(uid), int(currency_id))] += Decimal(amount)
    return {k: v for k, v in held.items() if v}


async def mismatches() -> dict[Key, tuple[Decimal, Decimal]]:
    """(user, currency) -> (the legal lock, what P2P holds) wherever they differ; empty when all agree."""
    expected = await expected_locks()
    rows = await Account.filter(account_type=AccountType.LEGAL).values_list("user_id", "currency_id", "lock_balance")
    actual = {(int(u), int(c)): Decimal(lock) for u, c, lock in rows if Decimal(lock)}
    pairs = {k: (actual.get(k, Decimal(0)), expected.get(k, Decimal(0))) for k in set(actual) | set(expected)}
    return {k: pair for k, pair in pairs.items() if pair[0] != pair[1]}
