"""What `make run` does with the dev chains: the stack starts them (mining on their own every few
seconds), fills their URLs into the settings, `exchange chain faucet` sends real transactions on them,
and the stack's stop ends every process it started."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from eth_account import Account

from config.settings import Settings
from serve.stack import Stack
from store.chain_rpc.devnet import faucet
from store.chain_rpc.devnet.litecoin import litecoind
from store.chain_rpc.devnet.process import read_info
from store.chain_rpc.evm import EvmNode
from store.chain_rpc.utxo import UtxoNode
from tests.utils.cli import exchange
from tests.utils.keys import MAINNET_XPUBS

CAROL = Account.from_key("0x" + "ca" * 32).address.lower()


@pytest.fixture(scope="module")
def dev_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """Only the chains of a stack (no storage, no Ray), a block a second."""
    settings = Settings(env="test", data_dir=tmp_path_factory.mktemp("dev-stack"), dev_chains=True, dev_block_seconds=1)
    stack = Stack(settings)
    try:
        stack.start_chains()
        yield stack
    finally:  # only the chains: stop() would also shut down the session's Ray that later tests use
        stack.stop_chains()


async def _until(check: object, within: float = 30.0) -> None:
    deadline = time.monotonic() + within
    while not await check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the dev chain did not mine it in time"
        await asyncio.sleep(0.2)


def test_production_refuses_the_dev_chains(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="EXCHANGE_DEV_CHAINS"):
        Settings(env="production", secret_key="s", wallet_middle_salt="t", dev_chains=True, data_dir=tmp_path,
                 xpubs=MAINNET_XPUBS)  # fmt: skip
    assert not Settings(env="test", data_dir=tmp_path).dev_chains_on
    assert Settings(env="development", data_dir=tmp_path).dev_chains_on


async def test_the_faucet_sends_usdt_that_the_chain_mines_by_itself(dev_stack: Stack) -> None:
    settings = dev_stack.settings
    token = settings.erc20_contracts["USDT"]
    done = exchange(settings, "chain", "faucet", CAROL, "250", "usdt")
    assert done.returncode == 0, done.stdout + done.stderr
    tx_hash = done.stdout.strip()
    async with EvmNode(settings.evm_rpc_url or "") as node:

        async def mined() -> bool:
            return await node.receipt(tx_hash) is not None

        await _until(mined)  # nobody mines on demand here: the chain's own block timer does
        assert await node.token_balance(token, CAROL) == 250_000_000
        tip = await node.block_number()
        (log,) = await node.transfer_logs(tokens=[token], from_block=0, to_block=tip, to=[CAROL])
        assert log.tx_hash == tx_hash

    done = exchange(settings, "chain", "faucet", CAROL, "1", "ETH", env={"EXCHANGE_ENV": "production"})
    assert done.returncode != 0


async def test_the_faucet_refuses_what_the_dev_chain_cannot_send(dev_stack: Stack) -> None:
    info = read_info(dev_stack.settings.dev_chains_dir / "evm" / "evm.json")
    with pytest.raises(ValueError, match="at most 6 decimal places"):
        await faucet.send_evm(info, to=CAROL, amount=Decimal("0.0000001"), currency="USDT")
    with pytest.raises(ValueError, match="no DOGE"):
        await faucet.send_evm(info, to=CAROL, amount=Decimal(1), currency="DOGE")
    with pytest.raises(ValueError, match="not an EVM address"):
        await faucet.send_evm(info, to="ltc1qnot", amount=Decimal(1), currency="ETH")


@pytest.mark.skipif(litecoind() is None, reason="litecoind is not installed")
async def test_the_faucet_sends_ltc_that_the_chain_mines_by_itself(dev_stack: Stack) -> None:
    settings = dev_stack.settings
    async with UtxoNode(settings.ltc_rpc_url or "", wallet=settings.ltc_rpc_wallet) as node:
        to = await node.new_address()
        done = exchange(settings, "chain", "faucet", to, "2.5", "LTC")
        assert done.returncode == 0, done.stdout + done.stderr
        txid = done.stdout.strip()

        async def mined() -> bool:
            return (await node.transaction(txid)).confirmations > 0

        await _until(mined)
        assert Decimal("2.5") in [o.value for o in (await node.transaction(txid)).paid_to({to})]


def test_stop_ends_every_dev_chain_process(dev_stack: Stack) -> None:
    """Last in this module: it stops the module's chains (``stop_chains``, which ``Stack.stop`` ends
    with; ``stop`` itself would also shut down the session's Ray that later tests use)."""
    processes = [chain.process for chain in dev_stack.chains]
    assert processes
    dev_stack.stop_chains()
    assert all(p is not None and p.poll() is not None for p in processes) and dev_stack.chains == []
    left = [chain for chain in ("evm", "ltc") if (dev_stack.settings.dev_chains_dir / chain / f"{chain}.json").exists()]
    assert left == []  # no info file left to mislead the faucet
