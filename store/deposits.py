"""Deposits: a user's addresses per currency protocol (derived from the chain family's xpub, so no key
the API holds can spend them), and chain transfers credited once confirmed."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from decimal import Decimal

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError
from tortoise.expressions import F
from tortoise.transactions import in_transaction

from store import ledger
from store.chain.keys import AccountKey, DepositKeys, Family, KeysUnavailable, family_of
from store.errors import DomainError, ErrorCode
from store.models import (
    AccountType,
    ChainDeposit,
    Currency,
    CurrencyProtocol,
    DepositAddress,
    DepositStatus,
    HdAddress,
    HdCounter,
)

LOG_CHAIN_DEPOSIT = "deposit"
log = logging.getLogger(__name__)


async def address_for(keys: DepositKeys, uid: int, protocol: CurrencyProtocol) -> DepositAddress:
    """The user's address on ``protocol``: its chain family's derived address, stored on first request
    and stable afterwards (concurrent first requests get one address).

    Raises DomainError CHAIN_NOT_SUPPORTED on a chain with no adapter, and DEPOSIT_KEYS_UNAVAILABLE when
    the family has no xpub or the user's address was derived from another xpub than the one configured
    (handing it out again would be safe, handing out a new one would not: refuse and let operators look).
    """
    family = family_of(protocol.chain_protocol)
    if family is None:
        raise DomainError(ErrorCode.CHAIN_NOT_SUPPORTED, currency=protocol.chain_protocol)
    hd = await _family_address(keys, uid, family)
    found = await DepositAddress.get_or_none(user_id=uid, currency_protocol_id=protocol.id)
    if found is not None:
        return found
    try:
        return await DepositAddress.create(user_id=uid, currency_protocol_id=protocol.id, address=hd.address)
    except IntegrityError:  # a concurrent first request stored it
        return await DepositAddress.get(user_id=uid, currency_protocol_id=protocol.id)


async def _family_address(keys: DepositKeys, uid: int, family: Family) -> HdAddress:
    """The user's ``HdAddress`` in ``family``, derived at the family's next index on first request."""
    try:
        account = keys.account(family)
    except KeysUnavailable as exc:
        log.error("deposit addresses of %s: %s", family, exc)
        raise DomainError(ErrorCode.DEPOSIT_KEYS_UNAVAILABLE) from exc
    found = await HdAddress.get_or_none(user_id=uid, family=family)
    if found is None:
        found = await _derive_next(account, uid, family)
    if found.key_id != account.key_id:
        log.error("user %s's %s address was derived from key %s, the configured xpub is %s", uid, family,
                  found.key_id, account.key_id)  # fmt: skip
        raise DomainError(ErrorCode.DEPOSIT_KEYS_UNAVAILABLE)
    return found


async def _derive_next(account: AccountKey, uid: int, family: Family) -> HdAddress:
    """Raise the family's counter and store the address at the index it gave, in one transaction: a
    concurrent first request of the same user fails on (user, family) and rolls its raise back, so
    it reads the winner's row and no index is skipped."""
    with contextlib.suppress(IntegrityError):
        await HdCounter.create(family=family, next_index=0)  # the family's first address ever
    try:
        async with in_transaction() as conn:
            await HdCounter.filter(family=family).using_db(conn).update(next_index=F("next_index") + 1)
            index = (await HdCounter.get(family=family).using_db(conn)).next_index - 1
            return await HdAddress.create(
                user_id=uid, family=family, index=index, address=account.address(index), key_id=account.key_id,
                using_db=conn,
            )  # fmt: skip
    except IntegrityError:
        return await HdAddress.get(user_id=uid, family=family)


@dataclass(frozen=True)
class Outcome:
    deposit: ChainDeposit
    credited_now: bool


async def report(
    *, address: str, memo: str, amount: Decimal, confirmations: int, tx_hash: str, currency: str | None = None
) -> Outcome:
    """Record a chain transfer to a deposit address, or raise its confirmation count; credit it once
    the currency's confirmations are reached. Idempotent by ``tx_hash`` (also the ledger ref).

    A family's address receives every currency of its chains (USDT and ETH on ERC20): ``currency``
    (a code) says which one came when the user has been given the address for more than one.
    Amounts below the currency's ``recharge_min`` are recorded as BELOW_MINIMUM and never credited.
    Raises LookupError for an unknown address, and ValueError for an address that needs ``currency``,
    a hash already used by another transfer or an amount above the currency's ``max_amount`` (nothing
    is recorded then).
    """
    query = DepositAddress.filter(address=address, memo=memo)
    if currency is not None:
        query = query.filter(currency_protocol__currency__code=currency.upper())
    targets = await query.prefetch_related("currency_protocol__currency")
    if not targets:
        raise LookupError(
            f"no deposit address {address!r}"
            + (f" with memo {memo!r}" if memo else "")
            + (f" for {currency.upper()}" if currency else "")
        )
    if len(targets) > 1:
        codes = ", ".join(sorted(t.currency_protocol.currency.code for t in targets))
        raise ValueError(f"address {address} receives {codes}: name the currency that arrived (--currency)")
    target = targets[0]
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
