"""P2P market helpers for tests: traders with an approved real name, a deal password, collection
methods and coins in the legal account; merchants approved as an operator would; ads and orders
through the API."""

from __future__ import annotations

from typing import Any

import httpx

from serve.security import hash_password
from store.models import AccountType, PayMethod, RealName, ReviewStatus, User
from store.p2p import merchants
from store.times import now_ms
from tests.utils.users import Member, member, ok, unique_email
from tests.utils.wallets import fund

DEAL = "Deal1234"
LEGAL = int(AccountType.LEGAL)  # account/detail's account_type_id
METHODS = {
    "alipay": {"account": "pay@example.com", "qrcode": ""},
    "wxpay": {"account": "wechat-id", "qrcode": ""},
    "bank": {"bank_name": "Test Bank", "bank_address": "North branch", "card_no": "6222000011112222"},
}


async def trader(api: httpx.Client, *, name: str = "", legal: dict[str, str] | None = None,
                 methods: tuple[str, ...] = ("alipay", "bank"), merchant: bool = False) -> Member:  # fmt: skip
    """A registered, logged-in user with an approved real name (``name``), the deal password ``DEAL``,
    collection methods in that name and ``legal`` coins in the legal account; approved as a merchant
    (nickname from the account) when ``merchant``."""
    m = member(api, unique_email("p2p"))
    real = name or f"Trader {m.uid}"
    await RealName.create(user_id=m.uid, name=real, card_id=f"ID{m.uid:08d}", front_pic="", reverse_pic="",
                          hand_pic="", review_status=ReviewStatus.APPROVED)  # fmt: skip
    await User.filter(id=m.uid).update(pay_password_hash=await hash_password(DEAL))
    for kind in methods:
        await PayMethod.create(user_id=m.uid, type=kind, raw_data={"real_name": real, **METHODS[kind]})
    for code, amount in (legal or {}).items():
        await fund(m, code, amount, AccountType.LEGAL)
    if merchant:
        ok(apply_merchant(api, m, f"m{m.uid}"))
        await merchants.decide(m.uid, True, "test", now_ms())
    return m


def apply_merchant(api: httpx.Client, m: Member, nickname: str) -> httpx.Response:
    return api.post("merchant/apply", json={"nickname": nickname}, headers=m.auth)


def ad_body(**change: Any) -> dict[str, Any]:
    """A sell ad of 1000 USDT at 7.2 CNY, 100-5000 CNY per order, alipay and bank, 15 minutes."""
    body = {"side": 1, "currency_id": 1, "fiat": "CNY", "price": "7.2", "min_fiat": "100", "max_fiat": "5000",
            "total": "1000", "methods": ["alipay", "bank"], "window_min": 15, "remarks": "fast release"}  # fmt: skip
    return {**body, **change}


def post_ad(api: httpx.Client, m: Member, **change: Any) -> dict[str, Any]:
    return ok(api.post("shop/ad/save", json=ad_body(**change), headers=m.auth))


def open_order(api: httpx.Client, m: Member, ad_id: int, number: Any = "100", pay_method: str = "alipay",
               **extra: Any) -> httpx.Response:  # fmt: skip
    return api.post("legal/order/create", json={"ad_id": ad_id, "number": number, "pay_method": pay_method, **extra},
                    headers=m.auth)  # fmt: skip


def act(api: httpx.Client, m: Member, action: str, order_id: int, **extra: Any) -> httpx.Response:
    """``paid``, ``cancel``, ``release`` (with the deal password), ``appeal`` or ``reply`` (with a reason)."""
    body: dict[str, Any] = {"id": order_id, **extra}
    if action == "release":
        body.setdefault("pay_password", DEAL)
    if action in ("appeal", "reply"):
        body.setdefault("reason", "the payment did not arrive")
    return api.post(f"legal/order/{action}", json=body, headers=m.auth)


def detail(api: httpx.Client, m: Member, order_id: int) -> dict[str, Any]:
    return ok(api.get("legal/order/detail", params={"id": order_id}, headers=m.auth))


async def legal_lock_matches() -> dict[Any, Any]:
    """The invariant's mismatches (empty when every legal lock equals its escrow and ad stock)."""
    from store.p2p import audit

    return await audit.mismatches()
