"""Earn products (issue 13): lock savings, mining, token sales and listing applications.

Every product takes its funds from the user's financial account and pays back there, each movement one
``store.ledger.apply`` batch with its journal rows (``log_type`` below), the product's rows and the
house's side (``HouseLedger`` rows of ``HOUSE_KINDS``) in one transaction, idempotent by its refs.
Conservation per currency counts the house rows of these kinds with the accounts.
"""

from __future__ import annotations

from store.models import AccountType

FINANCIAL = AccountType.FINANCIAL

# The journal's log types of the financial-account rows the products write.
LOG_LOCK = "lock_savings"
LOG_MINING = "mining"
LOG_SHOUFA = "shoufa"
LOG_LISTING = "listing"
LOG_TYPES = (LOG_LOCK, LOG_MINING, LOG_SHOUFA, LOG_LISTING)

# The house ledger's kinds (each row's sign is the house's: + it gains, - it pays).
EARN_INTEREST = "earn_interest"  # - interest of lock savings and yield of mining paid to users
EARN_PENALTY = "earn_penalty"  # + early-exit penalties of mining
SALE_PROCEEDS = "sale_proceeds"  # + the accepted asset the house keeps from token sales and listings
SALE_ISSUE = "sale_issue"  # - tokens the house credits to subscribers and winners
HOUSE_KINDS = (EARN_INTEREST, EARN_PENALTY, SALE_PROCEEDS, SALE_ISSUE)
