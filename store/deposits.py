"""Deposits: a user's addresses per currency protocol, and chain transfers credited once confirmed."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError

from store import ledger
from store.chain import ChainGateway
from store.models import (
    AccountType,
    ChainDeposit,
    Currency,
    CurrencyProtocol,
    DepositAddress,
    DepositStatus,
)

LOG_CHAIN_DEPOSIT = "deposit"


async def address_for(gateway: ChainGateway, uid: int, protocol: CurrencyProtocol) -> DepositAddress:
    """The user's address on ``protocol``, made by the gateway on first request and stable afterwards."""
    found = await DepositAddress.get_or_none(user_id=uid, currency_protocol_id=protocol.id)
    if found is not None:
        return found
    deposit = gateway.deposit_address(
        uid=uid, protocol_id=protocol.id, chain=protocol.chain_protocol, uses_memo=protocol.uses_memo
    )
    try:
        return await DepositAddress.create(
            user_id=uid, currency_protocol_id=protocol.id, address=deposit.address, memo=deposit.memo
        )
    except IntegrityError:  # a concurrent first request stored it
        return await DepositAddress.get(user_id=uid, currency_protocol_id=protocol.id)


@dataclass(frozen=True)
class Outcome:
    deposit: ChainDeposit
    credited_now: bool


async def report(*, address: str, memo: str, amount: Decimal, confirmations: int, tx_hash: str) -> Outcome:
    """Record a chain transfer to a deposit address, or raise its confirmation count; credit it once
    the currency's confirmations are reached. Idempotent by ``tx_hash`` (also the ledger ref).

    Amounts below the currency's ``recharge_min`` are recorded as BELOW_MINIMUM and never credited.
    Raises LookupError for an unknown address, and ValueError for a hash already used by another
    transfer or an amount above the currency's ``max_amount`` (nothing is recorded then).
    """
    target = await DepositAddress.get_or_none(address=address, memo=memo).prefetch_related(
        "currency_protocol__currency"
    )
    if target is None:
        raise LookupError(f"no deposit address {address!r}" + (f" with memo {memo!r}" if memo else ""))
    protocol = target.currency_protocol
    currency: Currency = protocol.currency
    ledger.check_max_amount(currency, amount)
    row, created = await ChainDeposit.get_or_create(
        tx_hash=tx_hash,
        defaults={
            "user_id": target.user_id,  # type: ignore[attr-defined]
            "currency_id": currency.id,
            "currency_protocol_id": protocol.id,
            "address": address,
            "memo": memo,
            "amount": amount,
            "confirmations": confirmations,
        },
    )
    if not created and (row.address, row.memo, row.amount) != (address, memo, amount):
        raise ValueError(f"transaction {tx_hash} was recorded for another address or amount")
    if confirmations > row.confirmations:
        row.confirmations = confirmations
        await row.save(update_fields=["confirmations", "updated_at"])
    if row.status == DepositStatus.CONFIRMING and amount < currency.recharge_min:
        row.status = DepositStatus.BELOW_MINIMUM
        await row.save(update_fields=["status", "updated_at"])
    if row.status != DepositStatus.CONFIRMING or row.confirmations < currency.confirmations:
        return Outcome(row, False)

    async def mark_credited(conn: BaseDBAsyncClient) -> None:
        await ChainDeposit.filter(id=row.id).using_db(conn).update(status=DepositStatus.CREDITED)

    change = ledger.Change(
        row.user_id,  # type: ignore[attr-defined]
        currency.id,
        AccountType.CHANGE,
        amount,
        ledger.ZERO,
        LOG_CHAIN_DEPOSIT,
        f"chain:{tx_hash}",
        f"{protocol.chain_protocol} deposit",
        {"tx_hash": tx_hash, "chain": protocol.chain_protocol},
    )
    credited = await ledger.apply([change], also=mark_credited)
    await row.refresh_from_db()
    return Outcome(row, credited)


async def first_unconfirmed(uid: int, confirmations: int, conn: BaseDBAsyncClient | None = None) -> ChainDeposit | None:
    """The user's oldest credited chain deposit, of any currency, with fewer than ``confirmations``.

    Spec: 1 confirmation to credit, 6 to withdraw. Credited funds can be traded or converted into any
    other currency at once, so while such a deposit exists the user may withdraw nothing at all."""
    return (
        await ChainDeposit.filter(user_id=uid, status=DepositStatus.CREDITED, confirmations__lt=confirmations)
        .using_db(conn)
        .order_by("id")
        .prefetch_related("currency")
        .first()
    )
