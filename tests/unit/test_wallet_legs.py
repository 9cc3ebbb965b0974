"""Settlement arithmetic of one trade side, and the sharding rule."""

from __future__ import annotations

from decimal import Decimal

import pytest

from actors.wallet.legs import BUYER, SELLER, TradeLeg, freeze, release, settle, shard_of

LEG = TradeLeg(trade_id=7, buyer_id=11, seller_id=12, base_currency_id=2, quote_currency_id=1,
               quantity=Decimal("0.5"), volume=Decimal("30000"), buyer_fee=Decimal("0.001"),
               seller_fee=Decimal("60"), symbol="BTC/USDT")  # fmt: skip


def test_buyer_pays_held_quote_and_receives_base_less_fee() -> None:
    changes, fee = settle(LEG, BUYER)
    assert [(c.uid, c.currency_id, c.balance, c.lock) for c in changes] == [
        (11, 1, Decimal(0), Decimal("-30000")),
        (11, 2, Decimal("0.499"), Decimal(0)),
    ]
    assert (fee.trade_id, fee.side, fee.currency_id, fee.amount) == (7, BUYER, 2, Decimal("0.001"))


def test_seller_pays_held_base_and_receives_quote_less_fee() -> None:
    changes, fee = settle(LEG, SELLER)
    assert [(c.uid, c.currency_id, c.balance, c.lock) for c in changes] == [
        (12, 2, Decimal(0), Decimal("-0.5")),
        (12, 1, Decimal("29940"), Decimal(0)),
    ]
    assert (fee.currency_id, fee.amount) == (1, Decimal("60"))


def test_a_trade_conserves_both_currencies_with_its_fees() -> None:
    buyer, buyer_fee = settle(LEG, BUYER)
    seller, seller_fee = settle(LEG, SELLER)
    for currency, fee in ((1, seller_fee), (2, buyer_fee)):
        moved = sum((c.balance + c.lock for c in buyer + seller if c.currency_id == currency), Decimal(0))
        assert moved + fee.amount == 0


def test_freeze_and_release_move_between_balance_and_lock() -> None:
    [f] = freeze(5, 1, Decimal("10"), "o1:freeze")
    [r] = release(5, 1, Decimal("10"), "o1:release")
    assert (f.balance, f.lock, r.balance, r.lock) == (Decimal(-10), Decimal(10), Decimal(10), Decimal(-10))


def test_refs_are_distinct_per_side_and_leg() -> None:
    refs = [c.ref for side in (BUYER, SELLER) for c in settle(LEG, side)[0]]
    assert len(set(refs)) == 4
    with pytest.raises(ValueError):
        settle(LEG, 3)


def test_sharding_rule() -> None:
    assert [shard_of(uid, 4) for uid in range(8)] == [0, 1, 2, 3, 0, 1, 2, 3]


def test_a_transfer_is_two_legs_that_cancel_out() -> None:
    from actors.wallet.legs import transfer
    from store.models import AccountType

    out, into = transfer(11, 1, Decimal("2.5"), AccountType.CHANGE, AccountType.LEGAL, "x1")
    assert [(c.account_type, c.balance, c.lock, c.ref) for c in (out, into)] == [
        (AccountType.CHANGE, Decimal("-2.5"), Decimal(0), "x1:out"),
        (AccountType.LEGAL, Decimal("2.5"), Decimal(0), "x1:in"),
    ]
    assert out.extra == into.extra == {"from": "change_account", "to": "legal_account"}


def test_a_conversion_takes_one_currency_and_gives_the_other() -> None:
    from actors.wallet.legs import Conversion, convert

    c = Conversion(11, 2, 1, Decimal("0.25"), Decimal("17000"), Decimal("68000"), "BTC", "USDT")
    out, into = convert(c, "c1")
    assert [(x.currency_id, x.balance, x.log_type) for x in (out, into)] == [
        (2, Decimal("-0.25"), "convert"),
        (1, Decimal("17000"), "convert"),
    ]
    assert into.extra == {"from": "BTC", "to": "USDT", "price": "68000"}
