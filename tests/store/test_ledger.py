"""The ledger credits exactly once per reference and journals every change; a reference reused for
another change is refused, never taken for a replay; a settlement ends its pending row."""

from __future__ import annotations

import asyncio
from decimal import Decimal
from typing import Any

import pytest

from actors.wallet import legs
from config.settings import Settings
from store import ledger, users
from store.errors import DomainError, ErrorCode
from store.ledger import Change, Fee, Op, account_type_of, apply, apply_debits, credit, groups
from store.models import Account, AccountLog, AccountType, Currency, FeeLedger, PendingSettlement


async def _user(email: str) -> int:
    user = await users.create_user(kind="email", account=email, password_hash="x", area=None, parent=None)
    return user.id


async def test_credit_is_idempotent_by_reference(db: None) -> None:
    uid = await _user("ledger-once@example.com")
    usdt = await Currency.get(code="USDT")
    first = await credit(user_id=uid, currency=usdt, account_type=AccountType.CHANGE, amount=Decimal("100.123456789"),
                         log_type="deposit", ref="tx:abc")  # fmt: skip
    again = await credit(user_id=uid, currency=usdt, account_type=AccountType.CHANGE, amount=Decimal("100.123456789"),
                         log_type="deposit", ref="tx:abc")  # fmt: skip
    assert again.id == first.id
    account = await Account.get(user_id=uid, currency=usdt, account_type=AccountType.CHANGE)
    assert account.balance == Decimal("100.123456789")
    assert await AccountLog.filter(user_id=uid).count() == 1


async def test_concurrent_credits_add_up_exactly(db: None) -> None:
    uid = await _user("ledger-many@example.com")
    btc = await Currency.get(code="BTC")
    amounts = [Decimal("0.1"), Decimal("0.2"), Decimal("0.000000000000000001"), Decimal("12345.6789")]
    await asyncio.gather(*(
        credit(user_id=uid, currency=btc, account_type=AccountType.CHANGE, amount=a, log_type="deposit", ref=f"m:{i}")
        for i, a in enumerate(amounts)
    ))  # fmt: skip
    account = await Account.get(user_id=uid, currency=btc, account_type=AccountType.CHANGE)
    assert account.balance == sum(amounts)
    logs = await AccountLog.filter(user_id=uid).order_by("id")
    assert sorted(log.amount for log in logs) == sorted(amounts)
    assert max(log.balance_after for log in logs) == sum(amounts)


async def test_credit_refuses_non_positive_amounts_and_disallowed_accounts(db: None) -> None:
    uid = await _user("ledger-bad@example.com")
    usdt = await Currency.get(code="USDT")
    with pytest.raises(ValueError):
        await credit(user_id=uid, currency=usdt, account_type=AccountType.CHANGE, amount=Decimal(0),
                     log_type="deposit", ref="bad:0")  # fmt: skip
    usdt.account_types = "1"
    with pytest.raises(LookupError):
        await credit(user_id=uid, currency=usdt, account_type=AccountType.LEVER, amount=Decimal(1),
                     log_type="deposit", ref="bad:1")  # fmt: skip
    assert not await AccountLog.filter(user_id=uid).exists()


async def test_group_committed_debits_answer_each_operation_alone(db: None) -> None:
    rich, poor, new = [await _user(f"ledger-group-{n}@example.com") for n in ("rich", "poor", "new")]
    usdt = await Currency.get(code="USDT")
    for uid, amount in ((rich, "100"), (poor, "5")):
        await credit(user_id=uid, currency=usdt, account_type=AccountType.CHANGE, amount=Decimal(amount),
                     log_type="deposit", ref=f"group:{uid}")  # fmt: skip
    ops = [
        legs.freeze(rich, usdt.id, Decimal("30"), "g:1"),
        legs.freeze(poor, usdt.id, Decimal("6"), "g:2"),  # more than the balance
        legs.freeze(rich, usdt.id, Decimal("70"), "g:3"),  # exactly what g:1 left
        legs.freeze(rich, usdt.id, Decimal("0.000001"), "g:4"),  # nothing left
        legs.freeze(new, usdt.id, Decimal("1"), "g:5"),  # no account yet
        legs.freeze(rich, usdt.id, Decimal("30"), "g:1"),  # the same ref again in the batch
        legs.freeze(poor, usdt.id, Decimal("5"), "g:6"),  # g:2's refusal does not block this
    ]
    results = await apply_debits([Op(op) for op in ops])
    assert [r if isinstance(r, bool) else r.code for r in results] == [
        True, ErrorCode.INSUFFICIENT_BALANCE, True, ErrorCode.INSUFFICIENT_BALANCE,
        ErrorCode.INSUFFICIENT_BALANCE, False, True,
    ]  # fmt: skip
    assert all(isinstance(r, bool | DomainError) for r in results)
    rich_account = await Account.get(user_id=rich, currency=usdt, account_type=AccountType.CHANGE)
    assert (rich_account.balance, rich_account.lock_balance) == (Decimal(0), Decimal(100))
    poor_account = await Account.get(user_id=poor, currency=usdt, account_type=AccountType.CHANGE)
    assert (poor_account.balance, poor_account.lock_balance) == (Decimal(0), Decimal(5))
    journal = await AccountLog.filter(ref__startswith="g:").order_by("id").values_list("ref", "balance_after")
    assert journal == [("g:1", Decimal(70)), ("g:3", Decimal(0)), ("g:6", Decimal(0))]
    assert not await Account.filter(user_id=new).exists()
    # A whole batch run again (a retried call) changes nothing.
    assert await apply_debits([Op(ops[0])]) == [False]
    rich_account = await Account.get(user_id=rich, currency=usdt, account_type=AccountType.CHANGE)
    assert rich_account.lock_balance == Decimal(100)


async def _funded(email: str, code: str, amount: str) -> tuple[int, Currency]:
    uid = await _user(email)
    currency = await Currency.get(code=code)
    await credit(user_id=uid, currency=currency, account_type=AccountType.CHANGE, amount=Decimal(amount),
                 log_type="deposit", ref=f"fund:{email}")  # fmt: skip
    return uid, currency


def _code(result: bool | DomainError) -> bool | ErrorCode:
    return result if isinstance(result, bool) else result.code


async def test_a_ref_reused_with_other_facts_is_a_conflict_not_a_replay(db: None) -> None:
    uid, usdt = await _funded("ledger-conflict@example.com", "USDT", "100")
    other = await _user("ledger-conflict-other@example.com")
    deposit = Change(uid, usdt.id, AccountType.CHANGE, Decimal(10), Decimal(0), "deposit", "conflict:a")
    assert await apply([deposit]) is True
    assert await apply([deposit]) is False  # the same change again: an idempotent success
    for changed in (
        Change(uid, usdt.id, AccountType.CHANGE, Decimal(11), Decimal(0), "deposit", "conflict:a"),  # amount
        Change(uid, usdt.id, AccountType.LEGAL, Decimal(10), Decimal(0), "deposit", "conflict:a"),  # account
        Change(other, usdt.id, AccountType.CHANGE, Decimal(10), Decimal(0), "deposit", "conflict:a"),  # user
        Change(uid, 2, AccountType.CHANGE, Decimal(10), Decimal(0), "deposit", "conflict:a"),  # currency
    ):
        with pytest.raises(DomainError) as refused:
            await apply([changed])
        assert refused.value.code == ErrorCode.REF_CONFLICT
    # A batch that reuses one ref beside a new one is not a replay either; nothing of it is written.
    fresh = Change(uid, usdt.id, AccountType.CHANGE, Decimal(5), Decimal(0), "deposit", "conflict:b")
    with pytest.raises(DomainError) as refused:
        await apply([fresh, deposit])
    assert refused.value.code == ErrorCode.REF_CONFLICT
    assert not await AccountLog.filter(ref="conflict:b").exists()
    assert not await Account.filter(user_id=other).exists()
    account = await Account.get(user_id=uid, currency=usdt, account_type=AccountType.CHANGE)
    assert (account.balance, account.lock_balance) == (Decimal(110), Decimal(0))


async def test_a_freeze_ref_reused_for_another_amount_is_refused_in_a_group_commit(db: None) -> None:
    uid, usdt = await _funded("ledger-freeze-conflict@example.com", "USDT", "100")
    first = await apply_debits([Op(legs.freeze(uid, usdt.id, Decimal(30), "o-conflict:freeze"))])
    assert first == [True]
    results = await apply_debits([
        Op(legs.freeze(uid, usdt.id, Decimal(30), "o-conflict:freeze")),  # replayed: success, no change
        Op(legs.freeze(uid, usdt.id, Decimal(40), "o-conflict:freeze")),  # another amount: refused
        Op(legs.freeze(uid, usdt.id, Decimal(1), "o-conflict-2:freeze")),
        Op(legs.freeze(uid, usdt.id, Decimal(2), "o-conflict-2:freeze")),  # the same ref earlier in the batch
        Op(legs.freeze(uid, usdt.id, Decimal(1), "o-conflict-2:freeze")),  # ... with the same facts
    ])  # fmt: skip
    assert [_code(r) for r in results] == [False, ErrorCode.REF_CONFLICT, True, ErrorCode.REF_CONFLICT, False]
    account = await Account.get(user_id=uid, currency=usdt, account_type=AccountType.CHANGE)
    assert (account.balance, account.lock_balance) == (Decimal(69), Decimal(31))


async def test_a_settlement_ends_its_pending_row_once(db: None) -> None:
    buyer, usdt = await _funded("ledger-settle-buyer@example.com", "USDT", "1000")
    seller, btc = await _funded("ledger-settle-seller@example.com", "BTC", "1")
    await apply_debits([Op(legs.freeze(buyer, usdt.id, Decimal(600), "s-buy:freeze")),
                        Op(legs.freeze(seller, btc.id, Decimal("0.01"), "s-sell:freeze"))])  # fmt: skip
    trade_id = 8_800_000_000 + buyer
    leg = legs.TradeLeg(trade_id, buyer, seller, btc.id, usdt.id, Decimal("0.01"), Decimal(600), Decimal("0.00002"),
                        Decimal("1.2"), "BTC/USDT")  # fmt: skip
    await PendingSettlement.bulk_create([PendingSettlement(trade_id=trade_id, side=s, currency_match_id=1)
                                         for s in (legs.BUYER, legs.SELLER)])  # fmt: skip
    changes, fee = legs.settle(leg, legs.BUYER)
    assert await apply(changes, fee) is True
    assert await PendingSettlement.filter(trade_id=trade_id).values_list("side", flat=True) == [legs.SELLER]
    assert await apply(changes, fee) is False  # settled before: still no pending row, nothing applied twice
    assert await FeeLedger.filter(trade_id=trade_id).count() == 1
    # The other side with another amount under the same refs (a corrupt replay) is refused.
    seller_changes, seller_fee = legs.settle(leg, legs.SELLER)
    bad = [Change(c.uid, c.currency_id, c.account_type, c.balance * 2, c.lock, c.log_type, c.ref) for c in changes]
    with pytest.raises(DomainError) as refused:
        await apply(bad, fee)
    assert refused.value.code == ErrorCode.REF_CONFLICT
    assert await apply(seller_changes, seller_fee) is True
    assert not await PendingSettlement.filter(trade_id=trade_id).exists()
    lock = await Account.get(user_id=buyer, currency=usdt, account_type=AccountType.CHANGE)
    assert (lock.balance, lock.lock_balance) == (Decimal(400), Decimal(0))
    assert (await Account.get(user_id=buyer, currency=btc, account_type=AccountType.CHANGE)).balance == Decimal(
        "0.00998"
    )
    assert seller_fee == Fee(trade_id, legs.SELLER, usdt.id, Decimal("1.2"))


async def _nothing_more(conn: Any, results: list[bool | DomainError]) -> None:
    """A ``then`` that writes nothing: the group takes the locking transaction (SQLite's path)."""


@pytest.mark.parametrize("path", ["at once", "locked"])
async def test_settlements_in_a_group_open_accounts_end_their_pending_rows_and_apply_once(db: None, path: str) -> None:
    """A trade's two sides and another trade's buyer side settle in one group (the wallet shard's):
    the account a side credits is created when missing, each side lands its fee row and ends its
    pending row; the same group again applies nothing and still ends pending rows put back; a side
    whose lock is short is refused alone, its pending row left for a later try."""
    buyer, usdt = await _funded(f"ledger-group-settle-buyer-{path}@example.com", "USDT", "1000")
    seller, btc = await _funded(f"ledger-group-settle-seller-{path}@example.com", "BTC", "1")
    await apply_debits([Op(legs.freeze(buyer, usdt.id, Decimal(600), f"gs-{path}-buy:freeze")),
                        Op(legs.freeze(seller, btc.id, Decimal("0.01"), f"gs-{path}-sell:freeze"))])  # fmt: skip
    first, short = 8_900_000_000 + buyer * 2, 8_900_000_001 + buyer * 2
    leg = legs.TradeLeg(first, buyer, seller, btc.id, usdt.id, Decimal("0.01"), Decimal(600), Decimal("0.00002"),
                        Decimal("1.2"), "BTC/USDT")  # fmt: skip
    too_big = legs.TradeLeg(short, buyer, seller, btc.id, usdt.id, Decimal("1"), Decimal(60000), Decimal(0),
                            Decimal(0), "BTC/USDT")  # fmt: skip
    pending = [(first, legs.BUYER), (first, legs.SELLER), (short, legs.BUYER)]
    await PendingSettlement.bulk_create(
        [PendingSettlement(trade_id=t, side=s, currency_match_id=1) for t, s in pending]
    )
    assert not await Account.exists(user_id=buyer, currency_id=btc.id, account_type=AccountType.CHANGE)
    then = _nothing_more if path == "locked" else None
    ops = [legs.settle_op(leg, legs.BUYER), legs.settle_op(leg, legs.SELLER), legs.settle_op(too_big, legs.BUYER)]

    assert [_code(r) for r in await apply_debits(ops, then)] == [True, True, ErrorCode.INSUFFICIENT_BALANCE]
    assert await PendingSettlement.filter(trade_id__in=[first, short]).values_list("trade_id", "side") == [
        (short, legs.BUYER)
    ]
    fees = await FeeLedger.filter(trade_id=first).order_by("side").values_list("side", "currency_id", "amount")
    assert fees == [(legs.BUYER, btc.id, Decimal("0.00002")), (legs.SELLER, usdt.id, Decimal("1.2"))]
    await PendingSettlement.create(trade_id=first, side=legs.SELLER, currency_match_id=1)  # a row put back

    assert [_code(r) for r in await apply_debits(ops[:2], then)] == [False, False]
    assert not await PendingSettlement.filter(trade_id=first).exists()
    assert await FeeLedger.filter(trade_id=first).count() == 2
    balances = {(a.user_id, a.currency_id): (a.balance, a.lock_balance)
                for a in await Account.filter(user_id__in=[buyer, seller], account_type=AccountType.CHANGE)}  # fmt: skip
    assert balances == {
        (buyer, usdt.id): (Decimal(400), Decimal(0)),
        (buyer, btc.id): (Decimal("0.00998"), Decimal(0)),
        (seller, btc.id): (Decimal("0.99"), Decimal(0)),
        (seller, usdt.id): (Decimal("598.8"), Decimal(0)),
    }
    await PendingSettlement.filter(trade_id=short).delete()  # no pair settles this made-up trade


def test_account_type_codes() -> None:
    assert account_type_of("change") is AccountType.CHANGE
    assert account_type_of("micro_account") is AccountType.MICRO
    with pytest.raises(LookupError):
        account_type_of("savings")


async def test_a_group_commit_raced_by_another_write_decides_again_and_adds_up(
    db: None, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """alice's freezes are decided on a balance a deposit changes before they are written (on PostgreSQL
    the group reads without locking): the guarded write lands nothing, and the group is decided again
    on the new balance; both the deposit and the freezes count exactly once."""
    if not settings.db_url.startswith("postgres://"):
        pytest.skip("SQLite has one writer: the group holds it from its read to its write")
    uid, usdt = await _funded("ledger-raced@example.com", "USDT", "100")
    real = groups._read_at_once
    raced: list[bool] = []

    async def read_then_a_deposit(
        conn: Any, ops: list[Op]
    ) -> tuple[dict[ledger.Key, Account], dict[str, ledger.Facts]]:
        found = await real(conn, ops)
        if not raced:  # between the group's read and its write, once
            raced.append(True)
            deposit = Change(uid, usdt.id, AccountType.CHANGE, Decimal(50), Decimal(0), "deposit", "raced:deposit")
            assert await apply([deposit]) is True  # on a connection of its own
        return found

    monkeypatch.setattr(groups, "_read_at_once", read_then_a_deposit)
    results = await apply_debits([
        Op(legs.freeze(uid, usdt.id, Decimal(120), "raced:1")),  # fits only with the deposit
        Op(legs.freeze(uid, usdt.id, Decimal(30), "raced:2")),
    ])  # fmt: skip
    assert raced and results == [True, True]
    account = await Account.get(user_id=uid, currency=usdt, account_type=AccountType.CHANGE)
    assert (account.balance, account.lock_balance) == (Decimal(0), Decimal(150))
    journal = await AccountLog.filter(user_id=uid).order_by("id").values_list("ref", "balance_after")
    assert journal == [("fund:ledger-raced@example.com", Decimal(100)), ("raced:deposit", Decimal(150)),
                       ("raced:1", Decimal(30)), ("raced:2", Decimal(0))]  # fmt: skip


async def test_concurrent_group_commits_and_credits_of_one_account_add_up_exactly(db: None) -> None:
    uid, usdt = await _funded("ledger-crowd@example.com", "USDT", "1000")
    deposits = [Change(uid, usdt.id, AccountType.CHANGE, Decimal("0.5"), Decimal(0), "deposit", f"crowd:d{i}")
                for i in range(10)]  # fmt: skip
    freezes = [[Op(legs.freeze(uid, usdt.id, Decimal("1.25"), f"crowd:f{i}:{j}")) for j in range(3)] for i in range(10)]
    done = await asyncio.gather(*(apply([d]) for d in deposits), *(apply_debits(group) for group in freezes))
    assert done == [True] * 10 + [[True] * 3] * 10
    account = await Account.get(user_id=uid, currency=usdt, account_type=AccountType.CHANGE)
    assert (account.balance, account.lock_balance) == (Decimal("967.5"), Decimal("37.5"))
    assert await AccountLog.filter(user_id=uid).count() == 41
