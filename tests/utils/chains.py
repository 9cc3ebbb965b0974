"""Fixtures for the real dev chains (a plugin of tests/conftest.py, so every test directory has them): the
dev EVM node (eth-tester over HTTP JSON-RPC) and litecoind in regtest, each started once per session,
only by a session that uses it, in a temporary directory on free ports and stopped at its end. Blocks
come only when a test mines one, so every test decides what a block holds. A watcher per chain
(store/chain/watch.py) that tests step themselves, and ``deposit_evm``/``deposit_ltc``: a real transfer
from the faucet, mined and watched, as a user's deposit arrives.

litecoind is Debian's package (.ci/run installs it); where it is missing the LTC tests skip, except
under CI, where that is a failure.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from decimal import Decimal
from typing import Any

import pytest

from config.settings import Settings
from store.chain.sources import EvmSource, UtxoSource
from store.chain.watch import Watcher
from store.chain_rpc.devnet import faucet
from store.chain_rpc.devnet.clients import DevEvmNode
from store.chain_rpc.devnet.litecoin import LitecoinRegtest, RegtestNode, litecoind
from store.chain_rpc.devnet.process import dev_evm
from store.models import Currency


@pytest.fixture(scope="session")
def evm_chain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The dev EVM node's info (url, chain id, USDT, funded faucet account), mining only on demand."""
    node = dev_evm(tmp_path_factory.mktemp("evm"), block_seconds=0)
    try:
        yield node.start()
    finally:
        node.stop()


@pytest.fixture
async def evm(evm_chain: dict[str, Any]) -> AsyncIterator[DevEvmNode]:
    async with DevEvmNode(evm_chain["url"]) as node:
        yield node


@pytest.fixture(scope="session")
def litecoin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LitecoinRegtest]:
    """litecoind -regtest with a wallet holding mature coins."""
    if litecoind() is None:
        if os.environ.get("CI"):
            pytest.fail("litecoind is not installed: .ci/run installs Debian's litecoind")
        pytest.skip("litecoind is not installed (apt-get install litecoind)")
    chain = LitecoinRegtest(tmp_path_factory.mktemp("litecoin"))
    try:
        chain.start()
        yield chain
    finally:
        chain.stop()


@pytest.fixture
async def ltc(litecoin: LitecoinRegtest) -> AsyncIterator[RegtestNode]:
    async with litecoin.node() as node:
        yield node


@pytest.fixture
async def evm_watcher(evm: DevEvmNode, evm_chain: dict[str, Any], settings: Settings, db: None) -> Watcher:
    """The EVM chain's watcher (ETH and the dev USDT), as the ChainWatcher actor runs it."""
    source = EvmSource(evm, chain="ERC20", family="EVM", native="ETH",
                       tokens={"USDT": evm_chain["tokens"]["USDT"]["address"]})  # fmt: skip
    return Watcher(source, final_confirmations=settings.withdraw_confirmations)


@pytest.fixture
async def ltc_watcher(ltc: RegtestNode, settings: Settings, db: None) -> Watcher:
    source = UtxoSource(ltc, chain="LTC", family="LTC", currency="LTC")
    return Watcher(source, final_confirmations=settings.withdraw_confirmations)


Deposit = Callable[..., Awaitable[str]]


@pytest.fixture
def deposit_evm(evm: DevEvmNode, evm_chain: dict[str, Any], evm_watcher: Watcher) -> Deposit:
    """``await deposit_evm(to, amount, "USDT", blocks=1)``: the faucet sends, the chain mines ``blocks``
    blocks, the watcher catches up; the transaction's hash."""

    async def send(to: str, amount: Decimal | str, currency: str, *, blocks: int = 1) -> str:
        tx = await faucet.send_evm(evm_chain, to=to, amount=Decimal(amount), currency=currency)
        if blocks:
            await evm.mine(blocks)
        await evm_watcher.catch_up()
        return tx

    return send


@pytest.fixture
def deposit_ltc(ltc: RegtestNode, litecoin: LitecoinRegtest, ltc_watcher: Watcher) -> Deposit:
    """``await deposit_ltc(to, amount, blocks=1)``, as ``deposit_evm`` for LTC."""

    async def send(to: str, amount: Decimal | str, *, blocks: int = 1) -> str:
        tx = await faucet.send_ltc({"url": litecoin.url, "wallet": litecoin.wallet}, to=to, amount=Decimal(amount))
        if blocks:
            await ltc.generate_to_address(blocks, await ltc.new_address())
        await ltc_watcher.catch_up()
        return tx

    return send


@pytest.fixture
async def confirmations_of(db: None) -> AsyncIterator[Callable[[str, int], Awaitable[None]]]:
    """``await confirmations_of("USDT", 2)``: a currency's first confirmation count for one test (put
    back after), to see a deposit confirming before it is credited."""
    changed: dict[str, int] = {}

    async def set_count(code: str, count: int) -> None:
        changed.setdefault(code, (await Currency.get(code=code)).confirmations)
        await Currency.filter(code=code).update(confirmations=count)

    yield set_count
    for code, count in changed.items():
        await Currency.filter(code=code).update(confirmations=count)
