"""The peer-to-peer market's answers (serve/api/routes/p2p.py) as response models: the market's
configuration, ads (as the market, a merchant's shop and an edit show them), orders (as a list and as
one side's order page) and a merchant's state. ``store.p2p`` builds them as dicts (the store may not
import the edge); the routes validate those dicts through these models, so a field renamed or dropped
in the store fails where the answer is made, and the OpenAPI document shows every field."""

from __future__ import annotations

from typing import Generic, TypeVar

from serve.api.responses import Out

T = TypeVar("T")


class ListPage(Out, Generic[T]):
    """One page of a P2P list (the market's own paging: ``list``, ``page``, ``total``, ``limit``)."""

    list: list[T]
    page: int
    total: int
    limit: int


class P2PCurrencyOut(Out):
    id: int
    code: str
    decimals: int


class P2PMethodOut(Out):
    code: str  # alipay, wxpay or bank
    name: str


class P2PConfigOut(Out):
    """What the market trades (legal/config)."""

    currencies: list[P2PCurrencyOut]
    fiats: list[str]
    methods: list[P2PMethodOut]
    windows: list[int]  # payment windows offered, minutes
    cancel_limit: int  # a buyer's cancellations in one UTC day before buying stops
    unpaid_max: int  # orders a taker may have waiting for payment at once


class AdOut(Out):
    """An ad (``store.p2p.ads.view``)."""

    id: int
    side: int  # 1 the merchant sells, 2 the merchant buys
    taker_side: str  # buy or sell
    currency_id: int
    currency: str
    fiat: str
    price: str
    min_fiat: str
    max_fiat: str
    max_now: str  # the most fiat one order may take now (the limit or the stock)
    total: str
    stock: str
    methods: list[str]
    window_min: int
    remarks: str
    status: int  # 1 online, 2 paused, 3 closed


class AdMerchantOut(Out):
    uid: int
    nickname: str
    orders_30d: int
    completion_rate: str  # percent, one decimal


class MarketAdOut(AdOut):
    """An ad as the market shows it to a taker, with its merchant."""

    merchant: AdMerchantOut


class ShopAdOut(AdOut):
    """An ad as its merchant's shop shows it, with the escrow of its open orders and what it sold."""

    in_orders: str
    sold: str


class P2POrderSummaryOut(Out):
    """What every view of an order shows (``store.p2p.views.summary``)."""

    id: int
    ad_id: int
    state: int  # 1 unpaid, 2 paid, 3 completed, 4 cancelled, 5 appeal
    side: int
    currency_id: int
    currency: str
    fiat: str
    price: str
    amount: str  # coins
    total: str  # fiat the buyer pays
    pay_method: str
    buyer_id: int
    seller_id: int
    merchant_id: int
    created_ms: int
    deadline_ms: int  # the payment window's end
    ended_ms: int | None
    cancel_kind: str  # buyer, timeout or appeal; empty while not cancelled


class P2POrderItemOut(P2POrderSummaryOut):
    """An order in a list (legal/orders, shop/orders)."""

    role: str  # buyer or seller
    remain_ms: int  # of the payment window, while unpaid
    state_name: str


class CounterpartyOut(Out):
    name: str  # masked real name
    nickname: str  # the merchant's, when the other side is the merchant


class ReplyOut(Out):
    reason: str
    images: list[str]
    at_ms: int


class AppealOut(Out):
    by: str  # buyer or seller
    reason: str
    images: list[str]
    reply: ReplyOut | None  # the other side's answer, once given


class P2PEventOut(Out):
    seq: int
    from_state: int
    to_state: int
    by: str  # buyer, seller, system or operator
    at_ms: int
    note: str


class P2POrderDetailOut(P2POrderSummaryOut):
    """One order as its side sees it (``store.p2p.views.detail`` with the names in the reader's language)."""

    role: str
    is_merchant: bool
    pay_details: dict[str, str]  # the seller's collection details for the order's method
    counterparty: CounterpartyOut
    remain_ms: int
    paid_ms: int | None
    proof: str
    appeal: AppealOut | None
    resolved_to: str  # buyer or seller, once an operator decided an appeal
    actions: list[str]  # what this side may do now
    events: list[P2PEventOut]
    state_name: str
    pay_method_name: str


class LevelsOut(Out):
    mobile: bool
    real_name: bool
    advanced: bool


class MerchantInfoOut(Out):
    """The user's merchant state (``store.p2p.merchants.info`` with its name in the reader's language)."""

    status: int  # -1 not applied, 0 under review, 1 approved, 2 rejected
    nickname: str
    reject_reason: str
    is_seller: bool
    levels: LevelsOut
    orders_30d: int
    completion_rate: str
    methods: list[str]  # the collection methods they may offer
    status_name: str
