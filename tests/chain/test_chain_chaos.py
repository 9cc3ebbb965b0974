"""Money across the chain edge under chaos: the ChainWatcher and the Signer of the session's stack are
killed again and again while deposits arrive on the dev EVM, withdrawals are sent and deposit addresses
are swept. Each deposit is credited once, each withdrawal paid once, and the books agree with the chain
to the unit: what these users hold in the ledger plus the fees the house kept equals what their deposit
addresses still hold plus what the hot wallet gained from them (docs/architecture.md "Real chains")."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import ray
from eth_account import Account

from actors.chain.signer import Signer
from actors.names import SIGNER_NAME, watcher_name
from serve.stack import Stack
from store import deposits, users, withdrawals
from store.chain.custody import TEST_MNEMONIC, MnemonicKeySource
from store.chain.evm_signing import GAS_STATION_PATH, address_of, hot_path
from store.chain.keys import DepositKeys, deposit_keys
from store.chain_rpc.devnet import faucet
from store.chain_rpc.devnet.clients import DevEvmNode
from store.models import Account as LedgerAccount
from store.models import (
    ChainDeposit,
    ChainSend,
    Currency,
    CurrencyProtocol,
    DepositStatus,
    Withdrawal,
    WithdrawalStatus,
)

FINAL = 3
FEE = Decimal("0.5")
UNIT = Decimal("0.000001")  # the dev USDT's 6 decimals


async def _user_address(keys: DepositKeys) -> tuple[int, str]:
    user = await users.create_user(kind="email", account=f"chaos-{uuid.uuid4().hex[:12]}@example.com",
                                   password_hash="x", area=None, parent=None)  # fmt: skip
    protocol = await CurrencyProtocol.get(chain_protocol="ERC20", currency__code="USDT")
    return user.id, (await deposits.address_for(keys, user.id, protocol)).address


def _kill(handle: Any) -> None:
    ray.kill(handle, no_restart=False)  # Ray starts it again from what is stored


async def test_watcher_and_signer_killed_mid_way_keep_the_books_equal_to_the_chain(
    stack: Stack, evm: DevEvmNode, evm_chain: dict[str, Any], db: None
) -> None:
    token = evm_chain["tokens"]["USDT"]["address"]
    keys = MnemonicKeySource(TEST_MNEMONIC)
    hot, station = address_of(keys, hot_path()), address_of(keys, GAS_STATION_PATH)
    await faucet.send_evm(evm_chain, to=station, amount=Decimal(5), currency="ETH")  # the sweeps' gas
    await faucet.send_evm(evm_chain, to=hot, amount=Decimal(1), currency="ETH")  # the withdrawals' gas
    await evm.mine()
    # Other tests' deposits are out of these books: their addresses are not swept while this runs.
    await ChainDeposit.filter(chain="ERC20", swept_at=None).update(swept_at=datetime.now(UTC))
    first_send = (await ChainSend.all().order_by("-id").first() or ChainSend(id=0)).id
    hot_before = await evm.token_balance(token, hot)

    settings = stack.settings.model_copy(update={
        "evm_rpc_url": evm_chain["url"], "erc20_contracts": {"USDT": token}, "chain_poll_seconds": 0.1,
        "withdraw_confirmations": FINAL, "sweep_seconds": 0.5, "sweep_minimums": {"USDT": Decimal(1)},
    })  # fmt: skip
    stack._start_watchers(settings)
    watcher = ray.get_actor(watcher_name("ERC20"))
    signer = Signer.options(name=SIGNER_NAME).remote(settings.model_dump(mode="json"))
    stack.actors[SIGNER_NAME] = signer
    rng = random.Random(27)
    try:
        people = [await _user_address(deposit_keys(stack.settings)) for _ in range(4)]
        sent: dict[int, Decimal] = {uid: Decimal(0) for uid, _ in people}
        for n in range(12):  # deposits while the watcher dies now and then
            uid, address = people[n % 4]
            amount = Decimal(5 + n) + Decimal(rng.randrange(1, 10**6)) * UNIT
            await faucet.send_evm(evm_chain, to=address, amount=amount, currency="USDT")
            sent[uid] += amount
            await evm.mine()
            if n % 3 == 1:
                _kill(watcher)
            await asyncio.sleep(rng.random() * 0.3)

        async def final_deposits() -> int:
            return await ChainDeposit.filter(user_id__in=list(sent), status=DepositStatus.CREDITED,
                                             confirmations__gte=FINAL).count()  # fmt: skip

        await _mine_until(evm, final_deposits, 12, "the deposits were not all credited and final")
        usdt = await Currency.get(code="USDT")
        protocol = await CurrencyProtocol.get(chain_protocol="ERC20", currency_id=usdt.id)
        outside = [Account.create().address for _ in range(2)]
        ids = []
        for (uid, _), to in zip(people[:2], outside, strict=True):
            ids.append(await withdrawals.request(uid=uid, currency_id=usdt.id, protocol_id=protocol.id, address=to,
                                                 memo="", amount=Decimal(7), fee=FEE, ref=f"chaos-{uuid.uuid4().hex}",
                                                 confirmations=FINAL))  # fmt: skip
            await withdrawals.decide(ids[-1], approve=True)

        async def settled() -> int:
            done = await Withdrawal.filter(id__in=ids, status=WithdrawalStatus.COMPLETED).count()
            swept = await ChainDeposit.filter(user_id__in=list(sent)).exclude(swept_at=None).count()
            return done + swept

        kills = 0

        async def settled_under_fire() -> int:
            nonlocal kills
            if kills < 6:  # the Signer dies while it sends and sweeps, the watcher too
                _kill(signer if kills % 2 == 0 else watcher)
                kills += 1
            return await settled()

        await _mine_until(evm, settled_under_fire, len(ids) + 12, "withdrawals and sweeps did not settle", 150)
    finally:
        ray.kill(signer, no_restart=True)
        stack.actors.pop(SIGNER_NAME, None)
        ray.kill(watcher, no_restart=True)
        stack.actors.pop(watcher_name("ERC20"), None)
    await evm.mine()  # whatever the dead Signer broadcast is mined before the chain is counted

    rows = await ChainDeposit.filter(user_id__in=list(sent)).values_list("tx_hash", "output_index", "amount")
    assert len(rows) == len({(t, i) for t, i, _ in rows}) == 12  # each transfer credited once
    assert {uid: await _held(uid, usdt.id) for uid in sent} == {
        uid: total - (Decimal(7) if uid in (people[0][0], people[1][0]) else 0) for uid, total in sent.items()
    }
    for to in outside:  # paid once: the amount less the fee
        assert await evm.token_balance(token, to) == int((Decimal(7) - FEE) / UNIT)
    assert await ChainSend.filter(withdrawal_id__in=ids).count() == len(ids)

    # The books against the chain, to the unit. The hot wallet also paid what other tests left
    # approved (their sends since this test began): added back, it gained exactly these users' sweeps
    # less these users' withdrawals.
    others = (
        await ChainSend.filter(id__gt=first_send, chain="ERC20")
        .exclude(withdrawal_id__in=ids)
        .prefetch_related("withdrawal")
    )
    paid_for_others = Decimal(0)
    for send in others:
        receipt = await evm.receipt(send.txid)
        if receipt is not None and receipt.succeeded and send.withdrawal.currency_id == usdt.id:  # type: ignore[attr-defined]
            paid_for_others += send.withdrawal.amount - send.withdrawal.fee
    gained = Decimal(await evm.token_balance(token, hot) - hot_before) * UNIT + paid_for_others
    on_addresses = sum([Decimal(await evm.token_balance(token, a)) * UNIT for _, a in people], Decimal(0))
    ledger = sum([await _held(uid, usdt.id) for uid in sent], Decimal(0))
    assert ledger + FEE * len(ids) == on_addresses + gained
    assert on_addresses == 0  # every address swept


async def _held(uid: int, currency_id: int) -> Decimal:
    rows = await LedgerAccount.filter(user_id=uid, currency_id=currency_id).values_list("balance", "lock_balance")
    return sum([b + lock for b, lock in rows], Decimal(0))


async def _mine_until(evm: DevEvmNode, count: Any, want: int, what: str, within: float = 90) -> None:
    deadline = time.monotonic() + within
    while await count() < want:
        assert time.monotonic() < deadline, what
        await evm.mine()
        await asyncio.sleep(0.3)
