"""Wallet accounts: the groups of spec §3 (legal, lever, change, micro, financial) and one balance."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Query

from config.settings import Settings
from serve.api.account_answers import AccountCurrencyOut, AccountGroupOut, AccountKindOut, AccountOut
from serve.api.deps import CurrentUid, Svc
from serve.api.responses import Envelope
from serve.api.routes.transfer import CONVERTIBLE
from serve.api.routes.wallet import protocol_public
from serve.errors import envelope
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, Account, AccountType, Currency
from store.money import money
from store.prices import PriceBook, conversion_rate

router = APIRouter(prefix="/account", tags=["account"])
GROUP_ORDER = (AccountType.LEGAL, AccountType.LEVER, AccountType.CHANGE, AccountType.MICRO, AccountType.FINANCIAL)


def account_public(
    currency: Currency, account_type: AccountType, row: Account | None, uid: int, prices: PriceBook, settings: Settings
) -> AccountOut:
    """An account of spec §3, valued at the currency's live USD price; ``currency.protocols`` must be
    prefetched. ``convert_rate``: the USDT one unit converts for now (BTC and ETH while their price
    is live, else null), as account/convert computes it."""
    balance = row.balance if row else Decimal(0)
    lock = row.lock_balance if row else Decimal(0)
    mark = prices.usdt_mark(currency.code) if currency.code in CONVERTIBLE else None
    spread = settings.convert_spread
    return AccountOut(
        id=row.id if row else None,
        user_id=uid,
        currency_id=currency.id,
        currency_code=currency.code,
        account_type=int(account_type),
        balance=money(balance),
        lock_balance=money(lock),
        convert_usd=money(prices.value(balance + lock, currency.code)),
        currency=AccountCurrencyOut(
            id=currency.id,
            code=currency.code,
            logo=currency.logo,
            open_recharge=int(currency.open_recharge),
            open_draw=int(currency.open_draw),
            draw_rate=money(currency.draw_rate),
            draw_min=money(currency.draw_min),
            draw_max=money(currency.draw_max),
            usd_price=prices.prices(currency.code)["usd_price"],
            usd_live=prices.live(currency.code),
            convert_rate=money(conversion_rate(mark, spread)) if mark is not None else None,
            is_recharge_account=int(account_type == AccountType.CHANGE),
            account_types=[
                AccountKindOut(id=int(t), name=t.name.lower(), account_code=t.code)
                for t in AccountType
                if str(int(t)) in currency.account_types.split(",")
            ],
            currency_protocols=[
                protocol_public(p, settings) for p in sorted(currency.protocols, key=lambda p: (p.sort, p.id))
            ],
        ),
    )


@router.get("/list", response_model=Envelope[list[AccountGroupOut]])
async def account_list(uid: CurrentUid, svc: Svc) -> Any:
    """Every account group with one account per currency it may hold (zero when never used), each
    valued in USD at the live prices, and each group's total."""
    currencies = await Currency.all().order_by("sort", "id").prefetch_related("protocols")
    rows = {(a.currency_id, a.account_type): a for a in await Account.filter(user_id=uid)}
    prices = await svc.prices.book()
    groups = []
    for account_type in GROUP_ORDER:
        accounts = [
            account_public(c, account_type, rows.get((c.id, account_type)), uid, prices, svc.settings)
            for c in currencies
            if str(int(account_type)) in c.account_types.split(",")
        ]
        total = sum((Decimal(a.convert_usd) for a in accounts), Decimal(0))
        groups.append(
            AccountGroupOut(
                account_code=account_type.code,
                account_type=int(account_type),
                is_recharge=int(account_type == AccountType.CHANGE),
                convert_usd=money(total),
                accounts=accounts,
            )
        )
    return envelope(groups)


@router.get("/detail", response_model=Envelope[AccountOut])
async def account_detail(
    uid: CurrentUid,
    svc: Svc,
    currency_id: Annotated[int, Query(ge=1, le=INT_MAX)],
    account_type_id: Annotated[int, Query(ge=1, le=5)] = 1,
) -> Any:
    """One account's balance and its USD value at the live price (default: the change account, type 1)."""
    currency = await Currency.get_or_none(id=currency_id).prefetch_related("protocols")
    if currency is None:
        raise DomainError(ErrorCode.NOT_FOUND)
    account_type = AccountType(account_type_id)
    row = await Account.get_or_none(user_id=uid, currency_id=currency_id, account_type=account_type)
    prices = await svc.prices.book()
    return envelope(account_public(currency, account_type, row, uid, prices, svc.settings))
