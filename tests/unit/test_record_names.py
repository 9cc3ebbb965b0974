"""Every kind of journal row has a record name in every product language (issue 30: the records page
showed raw kinds such as micro_stake and p2p_escrow)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from serve.api.routes.records import LOG_NAMES
from serve.i18n import LANG_LOCALES, catalogue
from store import deposits, earn, lever, micro, withdrawals
from store.ledger import LOG_DEPOSIT, LOG_KINDS, Change
from store.models import AccountType
from store.p2p import ads, orders

# The kinds each product names as constants; literal kinds (spot legs, transfers, the bots' funding)
# are caught by Change refusing any kind outside LOG_KINDS.
PRODUCT_KINDS = {
    LOG_DEPOSIT, deposits.LOG_CHAIN_DEPOSIT, deposits.LOG_REVERSAL,
    withdrawals.LOG_REQUEST, withdrawals.LOG_DONE, withdrawals.LOG_BACK, withdrawals.LOG_FAILED,
    *lever.LOG_TYPES, micro.STAKE, micro.SETTLE, *earn.LOG_TYPES,
    ads.LOG_AD, orders.LOG_ESCROW, orders.LOG_RELEASE, orders.LOG_REFUND,
}  # fmt: skip


def test_every_product_kind_is_a_journal_kind() -> None:
    assert PRODUCT_KINDS <= LOG_KINDS, sorted(PRODUCT_KINDS - LOG_KINDS)


def test_a_change_of_an_unlisted_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="micro_bonus"):
        Change(1, 1, AccountType.MICRO, Decimal(1), Decimal(0), "micro_bonus", "r:1")


def test_every_kind_has_a_record_name() -> None:
    assert set(LOG_NAMES) == LOG_KINDS, {"unnamed": sorted(LOG_KINDS - set(LOG_NAMES)),
                                         "not a kind": sorted(set(LOG_NAMES) - LOG_KINDS)}  # fmt: skip


@pytest.mark.parametrize("lang", [k for k in LANG_LOCALES if k != "en"])
def test_every_record_name_is_translated(lang: str) -> None:
    translations = catalogue(lang)
    untranslated = sorted(kind for kind, name in LOG_NAMES.items() if not translations.get(name))
    assert not untranslated, f"{lang}: {untranslated}"
