"""The ledger: balance changes and their journal rows, applied in one transaction.

Every change names a unique ``ref`` (``o42:freeze``, ``t7:1:base``, a chain transaction hash ...).
A batch whose refs are all journaled with the same facts (account, currency, amounts) was applied
before and is skipped, so every operation is idempotent; a ref journaled with other facts is a
different operation under a used name and is refused (REF_CONFLICT), never taken for a replay.
Rows that record pending work (an order's hold, a trade side to settle) are written and deleted in
the transaction of the balance change that makes or ends that work.

Rows are locked (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite serialises writers) in a fixed order,
the journal is read under those locks, and the new values are computed in ``Decimal``: SQLite keeps
NUMERIC as text and would add in floating point. The wallet actors call these functions; so does
the operator's deposit.
"""

from store.ledger.changes import (
    FACT_FIELDS,
    LOG_DEPOSIT,
    LOG_KINDS,
    ZERO,
    Also,
    Change,
    Delete,
    Facts,
    Fee,
    Key,
    Op,
    account_type_of,
)
from store.ledger.groups import apply_debits
from store.ledger.journal import LOG_FIELDS
from store.ledger.single import apply, apply_in, check_max_amount, credit

__all__ = [
    "FACT_FIELDS",
    "LOG_DEPOSIT",
    "LOG_FIELDS",
    "LOG_KINDS",
    "ZERO",
    "Also",
    "Change",
    "Delete",
    "Facts",
    "Fee",
    "Key",
    "Op",
    "account_type_of",
    "apply",
    "apply_debits",
    "apply_in",
    "check_max_amount",
    "credit",
]
