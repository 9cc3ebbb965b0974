"""Sweeps on the dev EVM node (store/chain/sweeps.py): a final USDT deposit at or above its minimum is
moved to the hot wallet after the hot wallet sends the deposit address its gas; ether deposits move
less the gas; below a minimum nothing moves; a swept deposit is not looked at again; the ledger does
not change; the hot wallet's excess over its ceiling is reported."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

from config.settings import Settings
from store import deposits, users
from store.chain.custody import TEST_MNEMONIC, MnemonicKeySource
from store.chain.keys import deposit_keys
from store.chain.senders import EvmSender
from store.chain.sweeps import EvmSweeper
from store.chain.watch import Watcher
from store.chain_rpc.devnet.clients import DevEvmNode
from store.models import AccountLog, ChainDeposit, CurrencyProtocol
from tests.utils.chains import Deposit

KEYS = MnemonicKeySource(TEST_MNEMONIC)
MINIMUMS = {"USDT": Decimal(100), "ETH": Decimal("0.05")}


async def _address(settings: Settings) -> tuple[int, str]:
    user = await users.create_user(kind="email", account=f"sweep-{uuid.uuid4().hex[:12]}@example.com",
                                   password_hash="x", area=None, parent=None)  # fmt: skip
    protocol = await CurrencyProtocol.get(chain_protocol="ERC20", currency__code="USDT")
    return user.id, (await deposits.address_for(deposit_keys(settings), user.id, protocol)).address


async def test_final_deposits_are_swept_to_the_hot_wallet_once(
    evm: DevEvmNode, evm_chain: dict[str, Any], evm_watcher: Watcher, deposit_evm: Deposit, settings: Settings
) -> None:
    token = evm_chain["tokens"]["USDT"]["address"]
    sender = EvmSender(evm, KEYS, tokens={"USDT": token})
    final = settings.withdraw_confirmations
    sweeper = EvmSweeper(sender, KEYS, minimums=MINIMUMS, final=final)
    await deposit_evm(sweeper.gas_station, "1", "ETH")  # the gas the top-ups pay
    station_before = await evm.balance(sweeper.gas_station)
    uid, usdt_at = await _address(settings)
    other, small_at = await _address(settings)
    third, ether_at = await _address(settings)
    await deposit_evm(usdt_at, "150", "USDT")
    await deposit_evm(small_at, "40", "USDT")  # below the minimum
    await deposit_evm(ether_at, "0.5", "ETH", blocks=final)
    journal_before = await AccountLog.filter(user_id__in=[uid, other, third]).count()
    hot_before = await evm.token_balance(token, sender.hot)
    hot_eth_before = await evm.balance(sender.hot)

    # Other tests' final deposits may be swept alongside: only these three addresses are asserted on.
    first = await sweeper.step()  # USDT needs gas first; ether goes at once
    assert usdt_at in first.topped_up and ether_at not in first.topped_up and first.below_minimum >= 1
    assert await evm.token_balance(token, usdt_at) == 150_000_000
    for _ in range(6):  # mined, swept, until a sweep finds nothing more to do
        await evm.mine()
        if not (report := await sweeper.step()).swept and not report.topped_up:
            break
    else:
        raise AssertionError("the sweeps did not settle")
    assert await evm.token_balance(token, usdt_at) == 0
    assert await evm.token_balance(token, sender.hot) - hot_before >= 150_000_000
    assert await evm.token_balance(token, small_at) == 40_000_000  # waits for its address's next deposit
    assert await evm.balance(ether_at) < 10**15  # what is left is less than a transfer's gas
    assert await evm.balance(sender.hot) > hot_eth_before + 4 * 10**17  # 0.5 ether less its gas
    assert await evm.balance(sweeper.gas_station) < station_before  # the top-up came from the gas station
    await evm_watcher.catch_up()  # the gas top-up is the house's: never a deposit of the address's user
    assert not await ChainDeposit.filter(address=usdt_at, currency__code="ETH").exists()
    swept = await ChainDeposit.filter(user_id__in=[uid, other, third]).values_list("address", "swept_at")
    assert all(at is not None for _, at in swept)  # each address looked at, none again
    again = await sweeper.step()
    assert (again.swept, again.topped_up, again.below_minimum) == ([], [], 0)
    assert await AccountLog.filter(user_id__in=[uid, other, third]).count() == journal_before  # ledger unmoved

    excess = await sweeper.excess({"USDT": Decimal(100)})
    held = Decimal(await evm.token_balance(token, sender.hot)).scaleb(-6)
    assert excess == {"USDT": f"{(held - 100).normalize():f}"}
    assert await sweeper.excess({"USDT": held}) == {}
