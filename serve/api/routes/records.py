"""Records of one account type: account_log/change|legal|lever|micro|financial (15 a page)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from serve.api.deps import CurrentUid, Lang
from serve.api.paging import paginate
from serve.errors import envelope
from serve.i18n import N_, translate
from store.ledger import account_type_of
from store.models import INT_MAX, AccountLog
from store.money import money

router = APIRouter(prefix="/account_log", tags=["records"])

PER_PAGE = 15  # spec §9
# The record name of every journal kind (store.ledger.LOG_KINDS), translated at the edge.
LOG_NAMES = {
    "deposit": N_("Deposit"),
    "bot_funding": N_("Deposit"),
    "demo_funding": N_("Deposit"),
    "deposit_reversal": N_("Deposit reversed: its block left the chain"),
    "freeze": N_("Frozen for an order"),
    "release": N_("Released from an order"),
    "trade_pay": N_("Trade payment"),
    "trade_get": N_("Trade proceeds"),
    "transfer": N_("Transfer"),
    "convert": N_("Conversion"),
    "draw": N_("Withdrawal requested"),
    "draw_done": N_("Withdrawal completed"),
    "draw_back": N_("Withdrawal rejected, funds returned"),
    "draw_failed": N_("Withdrawal failed on its chain, funds returned"),
    "lever_open": N_("Position opened"),
    "lever_entrust": N_("Entrustment placed"),
    "lever_fill": N_("Entrustment filled"),
    "lever_close": N_("Position closed"),
    "lever_cancel": N_("Entrustment cancelled"),
    "lever_liquidation": N_("Liquidation"),
    "lever_overnight": N_("Overnight fee"),
    "micro_stake": N_("Second contract staked"),
    "micro_settle": N_("Second contract settled"),
    "lock_savings": N_("Lock savings"),
    "mining": N_("Mining"),
    "shoufa": N_("Token sale"),
    "listing": N_("Listing application"),
    "p2p_ad": N_("P2P advertisement"),
    "p2p_escrow": N_("P2P order: held in escrow"),
    "p2p_release": N_("P2P order completed"),
    "p2p_refund": N_("P2P order cancelled, escrow returned"),
}


def record_public(row: AccountLog, lang: str) -> dict[str, Any]:
    """A record of spec §3: id, currency.code, value, memo, extra_data.from, notes, created_at."""
    code = row.currency.code
    return {
        "id": row.id,
        "currency_id": row.currency_id,
        "currency": {"code": code},
        "currency_code": code,
        "account_type": int(row.account_type),
        "value": money(row.amount),
        "lock_value": money(row.lock_amount),
        "balance_after": money(row.balance_after),
        "log_type": row.log_type,
        "memo": row.memo,
        "notes": translate(LOG_NAMES.get(row.log_type, row.log_type), lang),
        "extra_data": row.extra or {},
        "created_at": row.created_at.isoformat(),
    }


@router.get("/{code}")
async def records(
    code: Literal["change", "legal", "lever", "micro", "financial"],
    uid: CurrentUid,
    lang: Lang,
    currency_id: Annotated[int | None, Query(ge=1, le=INT_MAX)] = None,
    page: Annotated[int, Query(ge=1, le=INT_MAX)] = 1,
) -> Any:
    """Every balance change of one of the user's account types, newest first; optionally one currency."""
    query = AccountLog.filter(user_id=uid, account_type=account_type_of(code))
    if currency_id is not None:
        query = query.filter(currency_id=currency_id)
    query = query.order_by("-id").prefetch_related("currency")
    return envelope(await paginate(query, page, PER_PAGE, lambda r: record_public(r, lang)))
