"""Leveraged-contract events as ledger batches: the owner's lever-account journal rows, the house
ledger rows and the position rows, written in one transaction (``store.ledger.apply``)."""

from __future__ import annotations

from collections.abc import Iterable

from tortoise.backends.base.client import BaseDBAsyncClient

from actors.lever.settle import Movement
from store import ledger, lever
from store.db import transaction
from store.errors import DomainError
from store.ledger import Change
from store.models import AccountType, HouseLedger, LeverPosition

LEVER = AccountType.LEVER


def change(uid: int, currency_id: int, moved: Movement, log_type: str, ref: str, memo: str = "",
           extra: dict[str, object] | None = None) -> list[Change]:  # fmt: skip
    """The journal row of a movement of the lever account (none if it moves nothing)."""
    if not moved.balance and not moved.lock:
        return []
    return [Change(uid, currency_id, LEVER, moved.balance, moved.lock, log_type, ref, memo, extra)]


def house(moved: Movement, currency_id: int, uid: int, position_id: int | None, ref: str) -> list[HouseLedger]:
    """The house ledger rows of a movement, one per kind it touches (``<ref>:<kind>``)."""
    return [lever.house_row(kind, currency_id, amount, f"{ref}:{kind}", uid, position_id)
            for kind, amount in moved.house.items() if amount]  # fmt: skip


async def commit(changes: list[Change], rows: Iterable[LeverPosition] = (), houses: Iterable[HouseLedger] = ()) -> bool:
    """Apply the journal rows and write the positions and house rows with them, atomically. False if
    the batch was applied before (its refs are journaled): nothing is written then."""
    saved, booked = list(rows), list(houses)

    async def also(conn: BaseDBAsyncClient) -> None:
        await lever.write(conn, save=saved, house=booked)

    if changes:
        return await ledger.apply(changes, also=also)
    async with transaction() as conn:
        await also(conn)
    return True


CLOSED_FIELDS = ("status", "close_price", "profits", "close_reason", "closed_at", "close_tick_id", "caution_money",
                 )  # fmt: skip


async def commit_many(changes: list[Change], closed: list[LeverPosition], houses: list[HouseLedger]) -> None:
    """Many positions closed by one tick: their journal rows as one group-committed operation (the
    accounts locked in one statement), the positions updated in bulk, the house rows in one insert."""

    async def also(conn: BaseDBAsyncClient) -> None:
        await LeverPosition.bulk_update(closed, fields=CLOSED_FIELDS, using_db=conn)
        await lever.write(conn, house=houses)

    (result,) = await ledger.apply_debits([ledger.Op(changes, also=also)])
    if isinstance(result, BaseException):
        raise result


LIQUIDATED_FIELDS = (*CLOSED_FIELDS, "frozen")  # its positions closed, its entrustments cancelled


async def commit_each(
    batches: list[tuple[list[Change], list[LeverPosition], list[HouseLedger]]],
) -> list[bool | DomainError]:
    """Many accounts' batches (a tick's liquidations) in one group commit, each all or nothing and
    refused on its own: True when applied, False when it was before, else why it was refused."""

    def writer(rows: list[LeverPosition], houses: list[HouseLedger]) -> ledger.Also:
        async def also(conn: BaseDBAsyncClient) -> None:
            await LeverPosition.bulk_update(rows, fields=LIQUIDATED_FIELDS, using_db=conn)
            await lever.write(conn, house=houses)

        return also

    return await ledger.apply_debits(
        [ledger.Op(changes, also=writer(rows, houses)) for changes, rows, houses in batches]
    )
