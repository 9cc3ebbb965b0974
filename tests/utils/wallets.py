"""Wallet helpers for API tests: fund a user through the ledger, read balances, sum the system."""

from __future__ import annotations

import uuid
from decimal import Decimal

import httpx

from store.ledger import credit
from store.models import Account, AccountType, Currency, FeeLedger, HouseLedger
from tests.utils.users import Member, ok

USDT, BTC, ETH, LTC = 1, 2, 3, 4


async def fund(m: Member, code: str, amount: str, account_type: AccountType = AccountType.CHANGE) -> None:
    currency = await Currency.get(code=code)
    await credit(user_id=m.uid, currency=currency, account_type=account_type, amount=Decimal(amount),
                 log_type="deposit", ref=f"test:{uuid.uuid4().hex}")  # fmt: skip


def balance(api: httpx.Client, m: Member, currency_id: int, account_type: int = 1) -> tuple[Decimal, Decimal]:
    """(balance, lock_balance) of one of the user's accounts, as account/detail answers it."""
    params = {"currency_id": currency_id, "account_type_id": account_type}
    data = ok(api.get("account/detail", params=params, headers=m.auth))
    return Decimal(data["balance"]), Decimal(data["lock_balance"])


async def system_totals() -> dict[int, Decimal]:
    """Per currency: balance + lock over every account of every user, plus the fees collected and the
    house ledger (the house's side of every product: leveraged contracts' fees, P&L, overnight fees and
    insurance fund; second contracts' P&L and fees; earn interest, penalties, sale proceeds and issues).

    Settling a trade side moves funds between users and the fee ledger in one transaction, and every
    product's event between a user's account and the house ledger, so this sum changes only by
    deposits, withdrawals and the house's side of conversions."""
    totals: dict[int, Decimal] = {}
    for row in await Account.all().values("currency_id", "balance", "lock_balance"):
        totals[row["currency_id"]] = totals.get(row["currency_id"], Decimal(0)) + row["balance"] + row["lock_balance"]
    for model in (FeeLedger, HouseLedger):  # fees of trades; the house's side of every product
        for row in await model.all().values("currency_id", "amount"):
            totals[row["currency_id"]] = totals.get(row["currency_id"], Decimal(0)) + row["amount"]
    # A currency whose rows sum to nothing is left out: a token sale closing in the background (its
    # issue to the house and the allocation to a user, one batch) first brings a currency's rows into
    # being, and a sum of zero over them equals no rows at all.
    return {currency: total for currency, total in totals.items() if total}
