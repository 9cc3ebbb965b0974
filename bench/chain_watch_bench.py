"""The EVM chain watcher with many deposit addresses: how fast it detects deposits, and the lag from a
block to the credits in it.

It prepares a database of its own (a temporary SQLite with the embedded Redis, or ``DATABASE_URL``
when set: never the test suite's), starts the dev EVM node (mining only on demand), gives
``--addresses`` users (10,000) their derived USDT (ERC20) address, then for ``--blocks`` blocks sends
``--per-block`` faucet transfers to random addresses among them, mines the block and times the
watcher's step over it (the same ``Watcher.step`` the ChainWatcher actor runs). Prints the address
set's size, deposits detected per second of watcher time, and the block → credit lag p50/p99/max
(from the mined block to the commit of its credits, the watcher stepping at once: add the actor's
``chain_poll_seconds`` for its polling). Run: ``.venv/bin/python bench/chain_watch_bench.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from decimal import Decimal
from pathlib import Path

from config.settings import Settings
from serve.stack import Stack
from store import deposits, users
from store.chain.keys import deposit_keys
from store.chain.sources import EvmSource
from store.chain.watch import Watcher
from store.chain_rpc.devnet import faucet
from store.chain_rpc.devnet.clients import DevEvmNode
from store.chain_rpc.devnet.process import dev_evm
from store.db import close_db, init_db
from store.models import ChainDeposit, CurrencyProtocol


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _addresses(settings: Settings, count: int) -> list[str]:
    protocol = await CurrencyProtocol.get(chain_protocol="ERC20", currency__code="USDT")
    keys = deposit_keys(settings)
    found = []
    started = time.perf_counter()
    for n in range(count):
        user = await users.create_user(kind="email", account=f"bench-{n}@chain.bench", password_hash="x", area=None,
                                       parent=None)  # fmt: skip
        found.append((await deposits.address_for(keys, user.id, protocol)).address)
    print(f"{count} deposit addresses derived and stored in {time.perf_counter() - started:.1f} s")
    return found


async def _run(args: argparse.Namespace, settings: Settings, info: dict[str, object]) -> None:
    await init_db(settings)
    try:
        addresses = await _addresses(settings, args.addresses)
        tokens = info["tokens"]
        assert isinstance(tokens, dict)
        async with DevEvmNode(str(info["url"])) as node:
            source = EvmSource(
                node, chain="ERC20", family="EVM", native="ETH", tokens={"USDT": tokens["USDT"]["address"]}
            )
            watcher = Watcher(source, final_confirmations=settings.withdraw_confirmations)
            await watcher.catch_up()
            rng = random.Random(7)
            lags, step_s, detected = [], 0.0, 0
            for _ in range(args.blocks):
                for to in rng.sample(addresses, args.per_block):
                    await faucet.send_evm(info, to=to, amount=Decimal(rng.randint(1, 500)), currency="USDT")
                await node.mine()
                mined = time.perf_counter()
                progress = await watcher.step()
                done = time.perf_counter()
                lags.append((done - mined) * 1000)
                step_s += done - mined
                detected += len([e for e in progress.events if e.kind in ("credited", "confirming")])
            credited = await ChainDeposit.filter(chain="ERC20").count()
        print(f"watched addresses: {len(addresses)}; blocks: {args.blocks} x {args.per_block} transfers; "
              f"deposits recorded: {credited}")  # fmt: skip
        print(f"detected: {detected} in {step_s:.2f} s of watcher steps = {detected / step_s:.0f} deposits/s")
        print(f"block -> credits committed: p50 {statistics.median(lags):.0f} ms, p99 {_pct(lags, 0.99):.0f} ms, "
              f"max {max(lags):.0f} ms")  # fmt: skip
    finally:
        await close_db()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--addresses", type=int, default=10_000)
    parser.add_argument("--blocks", type=int, default=30)
    parser.add_argument("--per-block", type=int, default=20)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="chain-bench-"))
    stack = Stack(Settings(env="test", data_dir=root / "data"))
    chain = dev_evm(root / "evm", block_seconds=0)
    try:
        info = chain.start()
        settings = stack.start_storage()
        asyncio.run(_run(args, settings, info))
    finally:
        chain.stop()
        stack.stop()


if __name__ == "__main__":
    main()
