"""Two demo merchants with live buy and sell ads (USDT and BTC, in CNY and USD), seeded in development
only (``exchange up`` / ``exchange seed`` with EXCHANGE_ENV=development) so the market is never
empty. They are ordinary users: a developer logs in as one (``DEMO_PASSWORD``, also the deal password)
to release an order. Idempotent: a merchant or an ad that exists is left as it is."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from store import ledger
from store.models import (
    AccountType,
    AdSide,
    AdStatus,
    Currency,
    Merchant,
    MerchantStatus,
    P2PAd,
    PayMethod,
    RealName,
    ReviewStatus,
    User,
)
from store.p2p import ads
from store.p2p.ads import AdInput
from store.times import now_ms
from store.users import new_invite_code

DEMO_PASSWORD = "Demo1234"
METHODS = ("alipay", "wxpay", "bank")
REMARKS = "Demo merchant (development only)."
MERCHANTS: tuple[dict[str, Any], ...] = (
    {"email": "p2p-demo-1@demo.exchange.local", "nickname": "DemoOTC", "name": "Lin Mei",
     "funds": {"USDT": "60000", "BTC": "3"},
     "ads": [("SELL", "USDT", "CNY", "7.22", "100", "50000", "20000"),
             ("SELL", "BTC", "USD", "68350", "500", "100000", "1.5"),
             ("BUY", "USDT", "USD", "0.99", "50", "20000", "15000")]},
    {"email": "p2p-demo-2@demo.exchange.local", "nickname": "AtlasDesk", "name": "Marco Rossi",
     "funds": {"USDT": "60000", "BTC": "3"},
     "ads": [("SELL", "USDT", "USD", "1.01", "20", "20000", "15000"),
             ("BUY", "USDT", "CNY", "7.08", "100", "30000", "20000"),
             ("BUY", "BTC", "CNY", "486000", "1000", "500000", "1")]},
)  # fmt: skip


def _methods(name: str) -> dict[str, dict[str, str]]:
    bank = {"bank_name": "Demo Bank", "bank_address": "Main branch", "card_no": "6222020000000000"}
    return {
        "alipay": {"real_name": name, "account": "demo-alipay@example.com", "qrcode": ""},
        "wxpay": {"real_name": name, "account": "demo-wechat", "qrcode": ""},
        "bank": {"real_name": name, **bank},
    }


async def _merchant(spec: dict[str, Any], password_hash: str, now: int) -> tuple[User, bool]:
    """The demo user, approved as a merchant with a real name and every collection method."""
    user_fields = {"password_hash": password_hash, "pay_password_hash": password_hash, "is_seller": True}
    user, created = await User.get_or_create(
        email=spec["email"], defaults={**user_fields, "invite_code": new_invite_code()}
    )
    review = {"name": spec["name"], "card_id": "DEMO00000", "review_status": ReviewStatus.APPROVED}
    await RealName.get_or_create(
        user_id=user.id, defaults={**review, "front_pic": "", "reverse_pic": "", "hand_pic": ""}
    )
    for kind, raw in _methods(spec["name"]).items():
        await PayMethod.get_or_create(user_id=user.id, type=kind, defaults={"raw_data": raw})
    decision = {"status": MerchantStatus.APPROVED, "decided_ms": now, "decided_by": "seed"}
    await Merchant.get_or_create(
        user_id=user.id, defaults={"nickname": spec["nickname"], "applied_ms": now, **decision}
    )
    return user, created


async def seed(password_hash: str) -> int:
    """Create what is missing; returns how many demo ads are open."""
    now = now_ms()
    by_code = {c.code: c for c in await Currency.filter(code__in=("USDT", "BTC"))}
    if len(by_code) < 2:
        return 0
    count = 0
    for spec in MERCHANTS:
        user, created = await _merchant(spec, password_hash, now)
        for code, amount in spec["funds"].items():
            ref = f"p2pdemo:{user.id}:{code}"
            await ledger.credit(user_id=user.id, currency=by_code[code], account_type=AccountType.LEGAL,
                                amount=Decimal(amount), log_type="demo_funding", ref=ref)  # fmt: skip
        open_ads = await P2PAd.filter(merchant_id=user.id, status__not=AdStatus.CLOSED).count()
        if open_ads and not created:
            count += open_ads
            continue
        for side, code, fiat, price, low, high, total in spec["ads"]:
            limits = {"min_fiat": Decimal(low), "max_fiat": Decimal(high), "total": Decimal(total)}
            inp = AdInput(side=AdSide[side], currency_id=by_code[code].id, fiat=fiat, price=Decimal(price),
                          methods=METHODS, window_min=15, remarks=REMARKS, **limits)  # fmt: skip
            await ads.save(user.id, None, inp, now)
            count += 1
    return count
