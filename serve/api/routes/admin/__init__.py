"""The back office's API under ``/api/admin/`` (issue 16): sign-in, sessions and the audit trail
(``auth``), the review and payment queues (``queues``), deposits (``deposits``), content (``content``),
users (``users``), the dashboard (``dashboard``), markets with the pair placement (``markets``), the
pairs' lever and second-contract terms (``contracts``), currencies (``currencies``), the earn
products (``products``), the SMS queue with its per-country ceilings (``sms``) and the chains'
watchers, hot wallets and unconfirmed withdrawals (``chain``)."""

from __future__ import annotations

from fastapi import APIRouter

from serve.api.routes.admin import (
    auth,
    chain,
    content,
    contracts,
    currencies,
    dashboard,
    deposits,
    markets,
    products,
    queues,
    sms,
    users,
)

router = APIRouter(prefix="/admin")
router.include_router(auth.router)
router.include_router(queues.router)
router.include_router(content.router)
router.include_router(users.router)
router.include_router(dashboard.router)
router.include_router(markets.router)
router.include_router(contracts.router)
router.include_router(currencies.router)
router.include_router(deposits.router)
router.include_router(products.router)
router.include_router(sms.router)
router.include_router(chain.router)
