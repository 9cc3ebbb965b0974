"""TRON sweeps (store/chain/tron_sweeps.py) against the stand-in TRON node (tests/chain/tron_node.py,
which checks ids, signatures and call data, and burns a TRC20 transfer's energy from its sender): a
final USDT deposit's address is topped up with TRX from the gas station, then its tokens move to the
hot wallet in a transfer its own key signed, once; TRX moves less a bandwidth reserve; below a
minimum nothing moves until the address's next deposit; the ledger does not move; the gas station is published for the TRC20 watcher."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from config.settings import Settings
from store import deposits, users
from store.chain import tron_signing
from store.chain.custody import TEST_MNEMONIC, MnemonicKeySource
from store.chain.keys import deposit_keys
from store.chain.senders import TronSender
from store.chain.sources import gas_station
from store.chain.tron_sweeps import BANDWIDTH_RESERVE, GAS_STATION_PATH, TronSweeper
from store.chain_rpc.tron import TronNode
from store.deposits import NATIVE_VALUE, Transfer
from store.models import AccountLog, ChainDeposit, CurrencyProtocol
from tests.chain.tron_node import ENERGY_FEE_SUN, FakeTronNode

KEYS = MnemonicKeySource(TEST_MNEMONIC)
USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
FEE_LIMIT = 30_000_000  # SUN
FINAL = 3
HOT = tron_signing.address_of(KEYS, tron_signing.hot_path())
STATION = tron_signing.address_of(KEYS, GAS_STATION_PATH)


@pytest.fixture
def node() -> Iterator[FakeTronNode]:
    fake = FakeTronNode()
    fake.add_token(USDT)
    fake.fund(STATION, trx=1_000_000_000)  # 1,000 TRX of gas
    yield fake
    fake.close()


@pytest.fixture
async def sweeper(node: FakeTronNode, settings: Settings, db: None) -> AsyncIterator[TronSweeper]:
    """A sweeper on ``node``; what earlier tests left unswept on TRC20 is marked first (it is not on
    this node), so the test's report holds only its own deposits."""
    await ChainDeposit.filter(chain="TRC20", swept_at=None).update(swept_at=datetime.now(UTC))
    async with TronNode(node.url) as client:
        sender = TronSender(client, KEYS, tokens={"USDT": USDT}, fee_limit=FEE_LIMIT)
        yield TronSweeper(sender, KEYS, deposit_keys(settings).account("TRON"), final=FINAL,
                          minimums={"USDT": Decimal(100), "TRX": Decimal(5)})  # fmt: skip


async def _deposited(settings: Settings, node: FakeTronNode, code: str, amount: Decimal) -> tuple[int, str]:
    """A new user's final deposit of ``amount`` on TRC20, on the node and credited: (uid, address)."""
    user = await users.create_user(kind="email", account=f"tron-sweep-{uuid.uuid4().hex[:12]}@example.com",
                                   password_hash="x", area=None, parent=None)  # fmt: skip
    protocol = await CurrencyProtocol.get(chain_protocol="TRC20", currency__code=code)
    address = (await deposits.address_for(deposit_keys(settings), user.id, protocol)).address
    await _deposit_to(node, address, code, amount)
    return user.id, address


async def _deposit_to(node: FakeTronNode, address: str, code: str, amount: Decimal) -> None:
    units = int(amount * 10**6)
    if code == "TRX":
        node.fund(address, trx=units)
    else:
        node.fund(address, token=USDT, units=units)
    transfer = Transfer("TRC20", os.urandom(32).hex(), NATIVE_VALUE if code == "TRX" else 0, address, amount, code,
                        block_hash=os.urandom(32).hex(), block_height=1)  # fmt: skip
    assert (await deposits.report(transfer, FINAL)).credited_now


async def test_a_usdt_deposit_is_topped_up_then_swept_once(
    node: FakeTronNode, sweeper: TronSweeper, settings: Settings
) -> None:
    uid, address = await _deposited(settings, node, "USDT", Decimal(150))
    journal = await AccountLog.filter(user_id=uid).count()

    first = await sweeper.step()
    assert (first.topped_up, first.swept) == ([address], [])
    assert await gas_station("TRC20") == STATION  # published before the top-up: the watcher skips it
    assert (await sweeper.step()).topped_up == []  # the top-up is not mined yet: nothing more
    node.mine()
    assert node.state.trx[tron_signing.raw_address(address)] == FEE_LIMIT

    second = await sweeper.step()
    assert len(second.swept) == 1 and second.topped_up == []
    assert await ChainDeposit.filter(user_id=uid, swept_at=None).count() == 0
    node.mine()
    assert (node.token_balance(USDT, HOT), node.token_balance(USDT, address)) == (150_000_000, 0)
    assert node.state.trx[tron_signing.raw_address(address)] == FEE_LIMIT - ENERGY_FEE_SUN
    third = await sweeper.step()
    assert (third.swept, third.topped_up) == ([], [])  # swept once
    assert await AccountLog.filter(user_id=uid).count() == journal  # the ledger did not move


async def test_trx_moves_less_the_bandwidth_reserve_and_dust_stays(
    node: FakeTronNode, sweeper: TronSweeper, settings: Settings
) -> None:
    _, trx_address = await _deposited(settings, node, "TRX", Decimal(20))
    dust_uid, dust_address = await _deposited(settings, node, "USDT", Decimal(40))  # below the minimum of 100
    report = await sweeper.step()
    assert len(report.swept) == 1 and report.topped_up == [] and report.below_minimum == 1
    node.mine()
    assert node.state.trx[tron_signing.raw_address(HOT)] == 20_000_000 - BANDWIDTH_RESERVE
    assert node.token_balance(USDT, dust_address) == 40_000_000  # no top-up spent on dust
    assert node.state.trx[tron_signing.raw_address(dust_address)] == 0
    assert await ChainDeposit.filter(address=trx_address, swept_at=None).count() == 0
    # The dust stays on its address (the house's, as any deposit once credited) and goes with the
    # address's next deposit: 40 + 70 is above the minimum.
    await _deposit_to(node, dust_address, "USDT", Decimal(70))
    assert (await sweeper.step()).topped_up == [dust_address]
    node.mine()
    assert len((await sweeper.step()).swept) == 1
    node.mine()
    assert node.token_balance(USDT, HOT) == 110_000_000
    assert await ChainDeposit.filter(user_id=dust_uid, swept_at=None).count() == 0
