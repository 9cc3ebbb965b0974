"""The wallet accounts' answers (serve/api/routes/account.py) as response models: an account of spec §3
with its currency (prices, withdrawal terms, the account kinds it may be held in, its chains) and the
account groups of ``account/list``. Built through the models, so a field renamed where the answer is
made fails there, and the OpenAPI document shows every field."""

from __future__ import annotations

from serve.api.responses import Out
from serve.api.routes.wallet import ProtocolOut


class AccountKindOut(Out):
    id: int  # the account_type_id
    name: str  # change, legal, lever, micro, financial
    account_code: str  # e.g. change_account


class AccountCurrencyOut(Out):
    id: int
    code: str
    logo: str
    open_recharge: int
    open_draw: int
    draw_rate: str
    draw_min: str
    draw_max: str
    usd_price: str  # one unit's, at the live price
    usd_live: bool  # whether that price comes from a fresh mark
    convert_rate: str | None  # the USDT one unit converts for now (BTC, ETH while live), else null
    is_recharge_account: int
    account_types: list[AccountKindOut]
    currency_protocols: list[ProtocolOut]


class AccountOut(Out):
    """One account of a user: zero, and ``id`` null, when never used."""

    id: int | None
    user_id: int
    currency_id: int
    currency_code: str
    account_type: int
    balance: str
    lock_balance: str
    convert_usd: str  # balance and lock valued at the live USD price
    currency: AccountCurrencyOut


class AccountGroupOut(Out):
    """One account kind with an account per currency it may hold, and their USD total."""

    account_code: str
    account_type: int
    is_recharge: int
    convert_usd: str
    accounts: list[AccountOut]
