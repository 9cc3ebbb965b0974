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
from store.db import retry_busy, transaction
from store.errors import DomainError, ErrorCode
from store.models import (
    Account,
    AccountType,
    ChainDeposit,
    Currency,
    CurrencyProtocol,
    DepositAddress,
    DepositStatus,
    HdAddress,
    HdCounter,
)
from store.money import money

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
            index = (await HdCounter.get(family=family, using_db=conn)).next_index - 1
            return await HdAddress.create(
                user_id=uid, family=family, index=index, address=account.address(index), key_id=account.key_id,
                using_db=conn,
            )  # fmt: skip
    except IntegrityError:
        return await HdAddress.get(user_id=uid, family=family)


@dataclass(frozen=True)
class Transfer:
    """A transfer a chain watcher found to a deposit address. ``index`` is a UTXO output's ``n``, an
    ERC20 transfer's log index, or ``NATIVE_VALUE`` for an EVM transaction's own value; ``currency``
    (a code) says which coin came where the chain carries several (ETH and its tokens)."""

    chain: str  # the currency protocol's chain_protocol: LTC, ERC20 ...
    tx_hash: str
    index: int
    address: str
    amount: Decimal
    currency: str | None = None
    memo: str = ""
    block_hash: str | None = None
    block_height: int | None = None


NATIVE_VALUE = -1  # the output index of an EVM transaction's own value (log indexes start at 0)
LOG_REVERSAL = "deposit_reversal"


@dataclass(frozen=True)
class Outcome:
    deposit: ChainDeposit
    credited_now: bool


def credit_ref(row: ChainDeposit) -> str:
    """The journal ref of the deposit's credit: (chain, tx, output), and after a clawback the number of
    clawbacks, so a deposit dropped by a reorg and mined again later is credited again exactly once."""
    ref = f"chain:{row.chain}:{row.tx_hash}:{row.output_index}"
    return f"{ref}:{row.reversals}" if row.reversals else ref


async def _target(transfer: Transfer) -> DepositAddress:
    """The deposit address a transfer paid: the user's address for the currency on that chain, made
    now if the user was given the family's address for another of its coins (ETH's, then USDT came).
    Raises LookupError (not ours) and ValueError (the address receives several coins: say which)."""
    query = DepositAddress.filter(
        address=transfer.address, memo=transfer.memo, currency_protocol__chain_protocol=transfer.chain
    )
    if transfer.currency is not None:
        query = query.filter(currency_protocol__currency__code=transfer.currency.upper())
    targets = await query.prefetch_related("currency_protocol__currency")
    if not targets and transfer.currency is not None and not transfer.memo:
        family = family_of(transfer.chain)
        hd = await HdAddress.get_or_none(address=transfer.address, family=family) if family else None
        protocol = await CurrencyProtocol.get_or_none(
            chain_protocol=transfer.chain, currency__code=transfer.currency.upper()
        )
        if hd is not None and protocol is not None:
            with contextlib.suppress(IntegrityError):
                uid = hd.user_id
                await DepositAddress.create(user_id=uid, currency_protocol_id=protocol.id, address=hd.address)
            return await _target(transfer)
    if not targets:
        raise LookupError(
            f"no deposit address {transfer.address!r} on {transfer.chain}"
            + (f" with memo {transfer.memo!r}" if transfer.memo else "")
            + (f" for {transfer.currency.upper()}" if transfer.currency else "")
        )
    if len(targets) > 1:
        codes = ", ".join(sorted(t.currency_protocol.currency.code for t in targets))
        raise ValueError(f"address {transfer.address} receives {codes}: name the currency that arrived")
    return targets[0]


async def report(transfer: Transfer, confirmations: int) -> Outcome:
    """Record a chain transfer to a deposit address, or update where it is mined and its confirmation
    count; credit it once the currency's first count (``confirmations``) is reached. Idempotent by
    (chain, tx_hash, index); the credit's journal ref is ``credit_ref``, so it is credited once
    however often it is reported, also when a reorg moved it to another block.

    Amounts below the currency's ``recharge_min`` are recorded as BELOW_MINIMUM, above its
    ``max_amount`` as ABOVE_MAXIMUM (for an operator), and neither is credited. A DROPPED deposit
    seen again in a block confirms again. Raises LookupError for an address that is not a deposit
    address, and ValueError for an address that needs ``currency`` or a key already recorded for
    another address or amount (nothing is recorded then).
    """
    target = await _target(transfer)
    protocol = target.currency_protocol
    currency: Currency = protocol.currency
    row, created = await ChainDeposit.get_or_create(
        chain=transfer.chain,
        tx_hash=transfer.tx_hash,
        output_index=transfer.index,
        defaults={
            "user_id": target.user_id,
            "currency_id": currency.id,
            "currency_protocol_id": protocol.id,
            "address": target.address,
            "memo": transfer.memo,
            "amount": transfer.amount,
            "confirmations": confirmations,
            "block_hash": transfer.block_hash,
            "block_height": transfer.block_height,
        },
    )
    if not created and (row.address, row.memo, row.amount) != (target.address, transfer.memo, transfer.amount):
        raise ValueError(f"transaction {transfer.tx_hash} was recorded for another address or amount")
    update = {"confirmations": confirmations, "block_hash": transfer.block_hash, "block_height": transfer.block_height}
    if row.status == DepositStatus.DROPPED and transfer.block_hash is not None:
        update["status"] = DepositStatus.CONFIRMING  # mined again after the reorg that dropped it
    if row.status in (DepositStatus.CONFIRMING, DepositStatus.DROPPED):
        if transfer.amount < currency.recharge_min:
            update["status"] = DepositStatus.BELOW_MINIMUM
        elif transfer.amount > currency.max_amount:
            log.error("%s deposit %s:%s of %s is above the most %s credits at once: held for an operator",
                      transfer.chain, transfer.tx_hash, transfer.index, transfer.amount, currency.code)  # fmt: skip
            update["status"] = DepositStatus.ABOVE_MAXIMUM
    if any(getattr(row, name) != value for name, value in update.items()):
        row.update_from_dict(update)
        await row.save(update_fields=[*update, "updated_at"])
    if row.status != DepositStatus.CONFIRMING or row.confirmations < currency.confirmations:
        return Outcome(row, False)

    async def mark_credited(conn: BaseDBAsyncClient) -> None:
        await ChainDeposit.filter(id=row.id).using_db(conn).update(status=DepositStatus.CREDITED)

    change = ledger.Change(
        row.user_id,
        currency.id,
        AccountType.CHANGE,
        row.amount,
        ledger.ZERO,
        LOG_CHAIN_DEPOSIT,
        credit_ref(row),
        f"{protocol.chain_protocol} deposit",
        {"tx_hash": row.tx_hash, "chain": row.chain, "output": row.output_index},
    )
    credited = await ledger.apply([change], also=mark_credited)
    await row.refresh_from_db()
    return Outcome(row, credited)


@retry_busy
async def drop(row: ChainDeposit) -> Outcome:
    """A deposit whose block left the chain and that was not mined again: DROPPED. If it had been
    credited, the credit is clawed back from the user's change account as a journal row of its own
    (``LOG_REVERSAL``, ref ``credit_ref + ":back"``), in the transaction that marks it: as much as the
    balance holds (the ledger allows no negative balance), and what the user had already spent is
    recorded as ``owed`` on the deposit and in the row's extra, for operators (docs/decisions.md
    "Never twice"). ``credited_now`` is True when money was taken back. Idempotent."""
    async with transaction() as conn:
        row = await ChainDeposit.filter(id=row.id).select_for_update().using_db(conn).get()
        if row.status == DepositStatus.DROPPED:
            return Outcome(row, False)
        if row.status != DepositStatus.CREDITED:
            await ChainDeposit.filter(id=row.id).using_db(conn).update(status=DepositStatus.DROPPED)
            row.status = DepositStatus.DROPPED
            return Outcome(row, False)
        uid, currency_id = row.user_id, row.currency_id
        account = await Account.filter(user_id=uid, currency_id=currency_id, account_type=AccountType.CHANGE)\
            .select_for_update().using_db(conn).first()  # fmt: skip
        take = min(max(account.balance, ledger.ZERO), row.amount) if account is not None else ledger.ZERO
        owed = row.amount - take
        extra = {"tx_hash": row.tx_hash, "chain": row.chain, "output": row.output_index, "owed": money(owed)}
        memo = f"{row.chain} deposit reversed by a reorg"
        change = ledger.Change(uid, currency_id, AccountType.CHANGE, -take, ledger.ZERO, LOG_REVERSAL,
                               f"{credit_ref(row)}:back", memo, extra)  # fmt: skip
        await ledger.apply_in(conn, [change])
        row.status, row.reversals, row.owed = DepositStatus.DROPPED, row.reversals + 1, row.owed + owed
        await row.save(using_db=conn, update_fields=["status", "reversals", "owed", "updated_at"])
    if owed:
        log.error("%s deposit %s:%s of user %s clawed back after a reorg; %s of it was spent and is owed",
                  row.chain, row.tx_hash, row.output_index, uid, money(owed))  # fmt: skip
    return Outcome(row, True)


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


async def first_owed(uid: int, conn: BaseDBAsyncClient | None = None) -> ChainDeposit | None:
    """The user's oldest chain deposit whose clawback after a reorg could not take all of it back (the
    user had spent it): while one is owed, the user may withdraw nothing (docs/decisions.md "Never
    twice")."""
    return (
        await ChainDeposit.filter(user_id=uid, owed__gt=0)
        .using_db(conn)
        .order_by("id")
        .prefetch_related("currency")
        .first()
    )
