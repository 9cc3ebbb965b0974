"""Session fixtures for the real dev chains: the dev EVM node (eth-tester over HTTP JSON-RPC) and
litecoind in regtest, each started once per session in a temporary directory on free ports and stopped
at its end. Blocks come only when a test mines one, so every test decides what a block holds.

litecoind is Debian's package (.ci/run installs it); where it is missing the LTC tests skip, except
under CI, where that is a failure.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from store.chain_rpc.devnet.clients import DevEvmNode
from store.chain_rpc.devnet.litecoin import LitecoinRegtest, RegtestNode, litecoind
from store.chain_rpc.devnet.process import dev_evm


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
