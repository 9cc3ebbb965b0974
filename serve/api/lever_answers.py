"""The leveraged contracts' answers (serve/api/routes/lever.py) as response models: a position as every
answer shows it (``store.lever.position_public`` with its names in the reader's language), the order
panel (``lever/deal``), a page of open positions with the account's risk (``lever/dealall``) and a
batch close. The store builds a position as a dict (it may not import the edge); the route validates
it through ``LeverPositionOut``, so a field renamed or dropped in the store fails where the answer is
made, not in a user's browser."""

from __future__ import annotations

from serve.api.responses import Out, Paged


class LeverPositionOut(Out):
    id: int
    currency_match_id: int
    symbol: str
    type: int  # 1 long, 2 short
    status: int  # 0 entrusted, 1 open, 2 closing, 3 closed, 4 cancelled
    share: int  # hands
    multiple: int
    number: str  # base units: hands x units per hand
    price: str  # the open price
    origin_price: str  # the mark when it was submitted
    target_price: str  # an entrustment's price; 0 for a market open
    caution_money: str
    origin_caution_money: str
    frozen: str
    trade_fee: str
    overnight_money: str
    target_profit_price: str  # 0: none
    stop_loss_price: str  # 0: none
    update_price: str  # the current mark (the close price once closed)
    profits: str  # unrealised at the mark while open, realised once closed
    close_price: str
    close_reason: str
    open_tick_id: int
    close_tick_id: int
    time: int | None
    opened_at: int | None
    closed_at: int | None
    base_currency_id: int
    quote_currency_id: int
    base_currency_code: str
    quote_currency_code: str
    type_name: str
    status_name: str
    close_reason_name: str


class LeverShareOut(Out):
    value: int
    label: str


class LeverChoicesOut(Out):
    muit: list[int]  # the multiples offered (the spec's spelling)
    share: list[LeverShareOut]  # the hands offered


class LeverDealOut(Out):
    """What the order panel needs (lever/deal)."""

    user_lever: str  # the free lever USDT
    multiple: LeverChoicesOut
    my_transaction: list[LeverPositionOut]  # the user's entrustments on the pair
    mark: str | None
    hazard_rate: str | None  # the account's risk rate, percent; null with no open position


class LeverDealAllOut(Out):
    """The user's open positions on a pair, the account's risk rate and their unrealised profit."""

    order: Paged[LeverPositionOut]
    hazard_rate: str | None
    profits_all: str


class LeverClosedOut(Out):
    """A batch close: how many positions closed, and each."""

    closed: int
    data: list[LeverPositionOut]
