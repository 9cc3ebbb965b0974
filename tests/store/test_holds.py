"""Order holds by state: a freeze writes its hold, its release deletes it (with a pending release), and
the orphan sweep releases every old hold of a shard, oldest first, however many there are."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from actors.wallet import legs
from actors.wallet.recovery import release_orphans
from store import holds, ledger, users
from store.ledger import credit
from store.models import Account, AccountLog, AccountType, Currency, Order, OrderHold, OrderStatus, PendingRelease

SHARDS = 2
ORPHANS = 5100  # more than the 5000 freezes the old sweep looked at
BASE_ID = 7_000_000_000  # order ids of this module, far from the ones the API hands out


async def _user_in_shard(shard: int, tag: str) -> int:
    """A new user of wallet shard ``shard`` (of SHARDS), funded with USDT."""
    usdt = await Currency.get(code="USDT")
    while True:
        user = await users.create_user(kind="email", account=f"{tag}{time.time_ns()}@example.com",
                                       password_hash="x", area=None, parent=None)  # fmt: skip
        if user.id % SHARDS == shard:
            await credit(user_id=user.id, currency=usdt, account_type=AccountType.CHANGE, amount=Decimal(100_000),
                         log_type="deposit", ref=f"holds:{user.id}")  # fmt: skip
            return user.id


def _freeze(order_id: int, uid: int, amount: Decimal, created_at: datetime | None = None) -> ledger.Op:
    hold = holds.hold(order_id, uid, 1, amount)
    if created_at is not None:
        hold.created_at = created_at
    return ledger.Op(legs.freeze(uid, 1, amount, f"o{order_id}:freeze"), (hold,))


async def _account(uid: int) -> tuple[Decimal, Decimal]:
    row = await Account.get(user_id=uid, currency_id=1, account_type=AccountType.CHANGE)
    return row.balance, row.lock_balance


async def test_a_freeze_writes_its_hold_and_its_release_ends_it(db: None) -> None:
    uid = await _user_in_shard(0, "holds-one")
    order_id = BASE_ID + 1
    assert await ledger.apply_debits([_freeze(order_id, uid, Decimal(25))]) == [True]
    hold = await OrderHold.get(order_id=order_id)
    assert (hold.user_id, hold.currency_id, hold.amount) == (uid, 1, Decimal(25))
    assert await ledger.apply_debits([_freeze(order_id, uid, Decimal(25))]) == [False]  # replayed: one hold
    await PendingRelease.create(order_id=order_id, currency_match_id=1)
    release = legs.release(uid, 1, Decimal(25), f"o{order_id}:release")
    assert await ledger.apply_debits([ledger.Op(release, deletes=holds.ends(order_id))]) == [True]
    assert not await OrderHold.filter(order_id=order_id).exists()
    assert not await PendingRelease.filter(order_id=order_id).exists()
    assert await _account(uid) == (Decimal(100_000), Decimal(0))


async def test_the_sweep_releases_every_old_orphan_of_its_shard_oldest_first(db: None) -> None:
    mine, theirs = await _user_in_shard(0, "holds-mine"), await _user_in_shard(1, "holds-theirs")
    # Holds made within the last few seconds (a running stack's shards sweep only those older than
    # their grace), each older than the next order id's: oldest first is not order-id order.
    now = datetime.now(UTC)
    ids = [BASE_ID + 100 + i for i in range(ORPHANS)]
    ops = [_freeze(order_id, mine, Decimal("0.01"), now - timedelta(milliseconds=i)) for i, order_id in enumerate(ids)]
    other = BASE_ID + 50
    ops.append(_freeze(other, theirs, Decimal(3), now - timedelta(seconds=1)))
    landed = BASE_ID + 60  # its order has a row: the pair's funds, only the stale hold goes
    ops.append(_freeze(landed, mine, Decimal(4), now - timedelta(seconds=1)))
    young = BASE_ID + 70
    ops.append(_freeze(young, mine, Decimal(5)))
    for start in range(0, len(ops), 500):
        assert all(r is True for r in await ledger.apply_debits(ops[start : start + 500]))
    await Order.create(id=landed, user_id=mine, currency_match_id=1, way=1, price=Decimal(1), number=Decimal(4),
                       frozen=Decimal(4), status=OrderStatus.CANCELLED)  # fmt: skip
    assert await _account(mine) == (Decimal(100_000) - Decimal(51) - Decimal(9), Decimal(51) + Decimal(9))

    released = await release_orphans(older_than=now + timedelta(milliseconds=1), shard=0, shards=SHARDS)

    assert released == ORPHANS
    assert not await OrderHold.filter(order_id__in=[*ids, landed]).exists()
    assert await OrderHold.filter(order_id__in=[other, young]).count() == 2
    assert await _account(mine) == (Decimal(100_000) - Decimal(9), Decimal(9))  # the landed and young stay held
    refs = await AccountLog.filter(user_id=mine, log_type="release").order_by("id").values_list("ref", flat=True)
    assert refs == [f"o{order_id}:release" for order_id in reversed(ids)]  # oldest hold first
    assert not await AccountLog.filter(ref=f"o{landed}:release").exists()
    # Nothing is left for a second sweep; the other shard's sweep releases its own user's hold.
    assert await release_orphans(older_than=now + timedelta(milliseconds=1), shard=0, shards=SHARDS) == 0
    assert await release_orphans(older_than=now + timedelta(milliseconds=1), shard=1, shards=SHARDS) >= 1
    assert await _account(theirs) == (Decimal(100_000), Decimal(0))
