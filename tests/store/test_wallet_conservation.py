"""Random sequences of transfers, conversions and withdrawals through the ledger: per currency, the
users' accounts change only by what left (approved withdrawals) and by conversion legs; no balance or
lock ever goes below zero."""

from __future__ import annotations

import random
from decimal import Decimal

from actors.wallet import legs
from store import ledger, users, withdrawals
from store.errors import DomainError
from store.ledger import credit
from store.models import Account, AccountLog, AccountType, Currency

TYPES = list(AccountType)


async def _totals(uids: list[int]) -> dict[int, Decimal]:
    totals: dict[int, Decimal] = {}
    for row in await Account.filter(user_id__in=uids).values("currency_id", "balance", "lock_balance"):
        assert row["balance"] >= 0 and row["lock_balance"] >= 0, row
        totals[row["currency_id"]] = totals.get(row["currency_id"], Decimal(0)) + row["balance"] + row["lock_balance"]
    return totals


async def test_random_wallet_operations_conserve_every_currency(db: None) -> None:
    rng = random.Random(20261121)
    usdt, btc = await Currency.get(code="USDT"), await Currency.get(code="BTC")
    uids = []
    for n in range(3):
        user = await users.create_user(kind="email", account=f"conserve{n}@example.com", password_hash="x",
                                       area=None, parent=None)  # fmt: skip
        uids.append(user.id)
        for coin, amount in ((usdt, "5000"), (btc, "2")):
            await credit(user_id=user.id, currency=coin, account_type=AccountType.CHANGE, amount=Decimal(amount),
                         log_type="deposit", ref=f"conserve:{user.id}:{coin.code}")  # fmt: skip
    before = await _totals(uids)
    left = {usdt.id: Decimal(0), btc.id: Decimal(0)}
    pending: list[tuple[int, int, Decimal]] = []
    refused = 0
    for step in range(150):
        uid, coin = rng.choice(uids), rng.choice((usdt, btc))
        amount = Decimal(rng.randint(1, 3000)) / (100 if coin is usdt else 10_000)
        kind = rng.random()
        try:
            if kind < 0.5:
                source, target = rng.sample(TYPES, 2)
                await ledger.apply(legs.transfer(uid, coin.id, amount, source, target, f"cx{step}"))
            elif kind < 0.65:
                price = Decimal(68000)
                value = amount * price if coin is btc else (amount / price).quantize(Decimal("1e-8"))
                c = legs.Conversion(uid, coin.id, (usdt if coin is btc else btc).id, amount, value, price)
                await ledger.apply(legs.convert(c, f"cc{step}"))
            elif kind < 0.85:
                wid = await withdrawals.request(uid=uid, currency_id=coin.id, protocol_id=None, address="a" * 12,
                                                memo="", amount=amount, fee=Decimal(0), ref=f"cw{step}",
                                                confirmations=6)  # fmt: skip
                pending.append((wid, coin.id, amount))
            elif pending:
                wid, currency_id, held = pending.pop(rng.randrange(len(pending)))
                approve = rng.random() < 0.5
                row = await withdrawals.decide(wid, approve=approve)
                if approve:  # and its transaction is final on the chain: the lock leaves
                    assert await withdrawals.complete(row, txid=f"tx-{wid}")
                    left[currency_id] += held
        except DomainError:
            refused += 1
    after = await _totals(uids)
    converted: dict[int, Decimal] = {usdt.id: Decimal(0), btc.id: Decimal(0)}
    for currency_id, amount in await AccountLog.filter(user_id__in=uids, log_type="convert").values_list(
        "currency_id", "amount"
    ):
        converted[currency_id] += amount
    for currency_id in (usdt.id, btc.id):
        assert after[currency_id] == before[currency_id] - left[currency_id] + converted[currency_id], currency_id
    assert 0 < refused < 150  # the sequence did meet insufficient balances, and did mostly succeed
