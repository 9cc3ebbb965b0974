"""The console's dashboard (issue 16, every operator who has set their password): users, 24 h volume per
pair, lever open interest, the house's P&L per product, the insurance fund and the queues waiting."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Depends

from serve.api.routes.admin.auth import Console, role
from serve.errors import envelope
from store.admin.operators import ROLES
from store.models import (
    HouseLedger,
    LeverPosition,
    LeverStatus,
    Merchant,
    MerchantStatus,
    P2POrder,
    P2PState,
    Quotation,
    RealName,
    ReviewStatus,
    User,
    Withdrawal,
    WithdrawalStatus,
)
from store.money import money

router = APIRouter(tags=["back office"])
Anyone = Annotated[Console, Depends(role(*ROLES))]
PRODUCTS = {  # house ledger kinds by product
    "lever": ("lever_fee", "lever_pnl", "overnight"),
    "second": ("micro_pnl", "micro_fee"),
    "earn": ("earn_interest", "earn_penalty", "sale_proceeds", "sale_issue"),
}


@router.get("/dashboard")
async def dashboard(console: Anyone) -> Any:
    volumes = await Quotation.all().prefetch_related("currency_match__base_currency", "currency_match__quote_currency")
    pairs = [{"pair": f"{q.currency_match.base_currency.code}/{q.currency_match.quote_currency.code}",
              "volume_24h": money(q.volume), "close": money(q.close)} for q in volumes]  # fmt: skip
    interest: defaultdict[str, Decimal] = defaultdict(Decimal)
    for base, quote, share, share_num, price in await LeverPosition.filter(status=LeverStatus.OPEN).values_list(
        "currency_match__base_currency__code", "currency_match__quote_currency__code", "share", "share_num", "price"
    ):
        interest[f"{base}/{quote}"] += Decimal(share) * share_num * price
    house: defaultdict[str, defaultdict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    for kind, code, amount in await HouseLedger.all().values_list("kind", "currency__code", "amount"):
        product = next(
            (p for p, kinds in PRODUCTS.items() if kind in kinds), "insurance" if kind == "insurance" else kind
        )
        house[product][str(code)] += amount
    return envelope({
        "users": await User.filter(is_bot=False).count(),
        "pairs": sorted(pairs, key=lambda p: p["pair"]),
        "open_interest": {k: money(v) for k, v in interest.items()},
        "house": {p: {c: money(v) for c, v in by.items()} for p, by in house.items() if p != "insurance"},
        "insurance_fund": {c: money(v) for c, v in house.get("insurance", {}).items()},
        "queues": {
            "real_names": await RealName.filter(review_status=ReviewStatus.UNDER_REVIEW).count(),
            "withdrawals": await Withdrawal.filter(status=WithdrawalStatus.PENDING).count(),
            "p2p_appeals": await P2POrder.filter(state=P2PState.APPEAL).count(),
            "merchants": await Merchant.filter(status=MerchantStatus.PENDING).count(),
        },
    })  # fmt: skip
