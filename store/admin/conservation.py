"""The conservation audit: per currency, what users hold in every account kind, plus the fees
collected, plus the house's side of every product (lever P&L and insurance fund, second contracts,
earn interest and penalties, sale proceeds and issues), against what came in and went out: deposits
(chain, operator, and in development the bots' and demo merchants' funding), completed withdrawals
and conversions (the one movement that turns one currency into another). The difference is zero
when nothing was created or lost; anything else is shown, to the smallest unit."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Any

from store.models import Account, AccountLog, AccountType, Currency, FeeLedger, HouseLedger
from store.money import money

# Money that came in from outside; a chain deposit's clawback after a reorg (negative) takes it back out.
DEPOSITS = ("deposit", "deposit_reversal", "bot_funding", "demo_funding")
WITHDRAWN = ("draw_done",)  # money that left (the lock spent)
CONVERSIONS = ("convert",)  # one currency out, another in


def _add(into: defaultdict[int, Decimal], rows: list[tuple[Any, ...]]) -> defaultdict[int, Decimal]:
    for currency_id, *values in rows:
        into[int(currency_id)] += sum((Decimal(v or 0) for v in values), Decimal(0))
    return into


async def audit() -> list[dict[str, Any]]:
    """One line per currency with anything in it: the parts, the expected total and the difference.
    Sums are taken here in Decimal (SQLite would add NUMERIC text as floating point)."""
    holdings: defaultdict[int, dict[str, Decimal]] = defaultdict(dict)
    for currency_id, kind, balance, lock in await Account.all().values_list(
        "currency_id", "account_type", "balance", "lock_balance"
    ):
        name = AccountType(kind).code
        holdings[int(currency_id)][name] = holdings[int(currency_id)].get(name, Decimal(0)) + balance + lock
    fees = _add(defaultdict(Decimal), await FeeLedger.all().values_list("currency_id", "amount"))
    house: defaultdict[int, defaultdict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    for currency_id, kind, amount in await HouseLedger.all().values_list("currency_id", "kind", "amount"):
        house[int(currency_id)][str(kind)] += amount

    async def flows(types: tuple[str, ...]) -> defaultdict[int, Decimal]:
        rows = await AccountLog.filter(log_type__in=types).values_list("currency_id", "amount", "lock_amount")
        return _add(defaultdict(Decimal), rows)

    deposits, withdrawn, converted = await flows(DEPOSITS), await flows(WITHDRAWN), await flows(CONVERSIONS)
    codes = dict(await Currency.all().values_list("id", "code"))
    lines = []
    for cid in sorted(set(holdings) | set(fees) | set(house) | set(deposits) | set(withdrawn) | set(converted)):
        held = sum(holdings[cid].values(), Decimal(0))
        fee, kept = fees[cid], sum(house[cid].values(), Decimal(0))
        expected = deposits[cid] + withdrawn[cid] + converted[cid]
        difference = held + fee + kept - expected
        lines.append({
            "currency_id": cid, "currency": codes.get(cid, str(cid)),
            "accounts": {k: money(v) for k, v in sorted(holdings[cid].items())}, "fees": money(fee),
            "house": {k: money(v) for k, v in sorted(house[cid].items())}, "deposits": money(deposits[cid]),
            "withdrawals": money(-withdrawn[cid]), "conversions": money(converted[cid]),
            "total": money(held + fee + kept), "expected": money(expected), "difference": money(difference),
            "ok": difference == 0,
        })  # fmt: skip
    return lines
