"""litecoind in regtest: a real UTXO node (Bitcoin Core's RPC) for development and tests.

``LitecoinRegtest`` starts Debian's ``litecoind -regtest`` on free loopback ports with fresh RPC
credentials, loads (or creates) a wallet, mines until coins are mature (101 blocks), and stops it
cleanly. ``RegtestNode`` adds what only a regtest chain allows: mining on demand and forcing a reorg
with ``invalidateblock``/``reconsiderblock``.

Run as ``python -m store.chain_rpc.devnet.litecoin --data-dir DIR`` (``exchange up`` does, through
``DevChainProcess``) it also mines a block every few seconds, so deposits confirm as on a live chain,
and writes ``ltc.json`` (URL with credentials, wallet) once the node is ready. The chain is kept in
the data directory across restarts.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from config import logs
from store.chain_rpc.devnet.process import die_with_parent, stop_process
from store.chain_rpc.jsonrpc import NodeRefused, NodeUnreachable
from store.chain_rpc.utxo import UtxoNode

INFO_FILE = "ltc.json"
MATURE_HEIGHT = 101  # a coinbase is spendable after 100 confirmations
WARMING_UP = -28  # RPC_IN_WARMUP
log = logging.getLogger(__name__)


def litecoind() -> str | None:
    """The litecoind binary, or None where it is not installed."""
    return shutil.which("litecoind")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RegtestNode(UtxoNode):
    """A ``UtxoNode`` on a regtest chain, with the calls only tests and the dev chain make."""

    async def generate_to_address(self, blocks: int, address: str) -> list[str]:
        """Mine ``blocks`` blocks paying ``address``; their hashes."""
        return await self.rpc.call("generatetoaddress", blocks, address)

    async def invalidate_block(self, block_hash: str) -> None:
        """Mark a block invalid: the chain falls back to its parent (a reorg, once other blocks are mined)."""
        await self.rpc.call("invalidateblock", block_hash)

    async def reconsider_block(self, block_hash: str) -> None:
        """Undo ``invalidate_block``: the node goes back to the most-work chain."""
        await self.rpc.call("reconsiderblock", block_hash)


@dataclass
class LitecoinRegtest:
    """One litecoind -regtest in ``data_dir``. ``start`` and ``stop`` are blocking (call them from no
    event loop: they run their own)."""

    data_dir: Path
    rpc_port: int = 0  # 0: a free one
    wallet: str = "dev"
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)
    url: str = field(default="", init=False)
    mining_address: str = field(default="", init=False)

    def node(self, *, wallet: bool = True) -> RegtestNode:
        """A client for this node (and its wallet); the caller closes it."""
        return RegtestNode(self.url, wallet=self.wallet if wallet else None)

    def start(self, *, timeout: float = 60.0) -> str:
        """Start the node, wait for its RPC, load the wallet, mature coins; the RPC URL."""
        binary = litecoind()
        if binary is None:
            raise RuntimeError("litecoind is not installed (Debian: apt-get install litecoind)")
        self.data_dir.mkdir(parents=True, exist_ok=True)
        port = self.rpc_port or free_port()
        user, password = "exchange", secrets.token_hex(16)
        args = [
            binary, "-regtest", f"-datadir={self.data_dir}", "-server", "-txindex=1", "-printtoconsole=0",
            "-listen=0", f"-port={free_port()}", "-dnsseed=0", "-discover=0", "-upnp=0",
            "-rpcbind=127.0.0.1", "-rpcallowip=127.0.0.1", f"-rpcport={port}",
            f"-rpcuser={user}", f"-rpcpassword={password}",
            "-fallbackfee=0.0002",  # a fresh regtest chain has no fee estimates
        ]  # fmt: skip
        self.process = subprocess.Popen(args, preexec_fn=die_with_parent)  # noqa: S603, PLW1509
        self.url = f"http://{user}:{password}@127.0.0.1:{port}"
        try:
            asyncio.run(self._prepare(time.monotonic() + timeout, timeout))
        except BaseException:
            self.stop()
            raise
        return self.url

    async def _prepare(self, deadline: float, seconds: float) -> None:
        async with self.node(wallet=False) as node:
            while True:
                try:
                    await node.block_count()
                    break
                except (NodeUnreachable, NodeRefused) as exc:
                    if isinstance(exc, NodeRefused) and exc.code != WARMING_UP:
                        raise
                    if self.process is None or self.process.poll() is not None:
                        raise RuntimeError(f"litecoind exited; see {self.data_dir / 'regtest' / 'debug.log'}") from exc
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"litecoind did not answer within {seconds} s") from exc
                    await asyncio.sleep(0.1)
            if self.wallet not in await node.rpc.call("listwallets"):
                try:
                    await node.rpc.call("loadwallet", self.wallet)
                except NodeRefused:  # not on disk yet
                    await node.rpc.call("createwallet", self.wallet)
        async with self.node() as node:
            self.mining_address = await node.new_address(label="mining")
            height = await node.block_count()
            if height < MATURE_HEIGHT:
                await node.generate_to_address(MATURE_HEIGHT - height, self.mining_address)

    def stop(self, *, timeout: float = 30.0) -> None:
        """Ask the node to stop (it flushes its chain and wallet), SIGKILL after ``timeout``. Idempotent."""
        if self.process is not None:
            stop_process(self.process, timeout=timeout)
        self.process = None


async def _mine_until(chain: LitecoinRegtest, stop: asyncio.Event, block_seconds: float) -> None:
    async with chain.node() as node:
        while not stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=block_seconds)
                return
            try:
                await node.generate_to_address(1, chain.mining_address)
            except (NodeUnreachable, NodeRefused) as exc:  # keep going: the next block may succeed
                log.warning("could not mine a block: %s", exc)


async def _run(chain: LitecoinRegtest, block_seconds: float) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if block_seconds > 0:
        await _mine_until(chain, stop, block_seconds)
    else:
        await stop.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description="litecoind -regtest with a wallet, mining every few seconds.")
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--port", type=int, default=0, help="the RPC port; 0: a free one")
    parser.add_argument("--block-seconds", type=float, default=3.0, help="0: mine only when asked")
    args = parser.parse_args()
    logs.configure()
    info_path = args.data_dir / INFO_FILE
    info_path.unlink(missing_ok=True)
    chain = LitecoinRegtest(args.data_dir / "node", rpc_port=args.port)
    try:
        url = chain.start()
        partial = info_path.with_suffix(".tmp")
        partial.touch(mode=0o600)  # the URL carries the RPC password
        info = {"url": url, "wallet": chain.wallet, "chain": "regtest", "pid": os.getpid()}
        partial.write_text(json.dumps({**info, "block_seconds": args.block_seconds}, indent=2))
        partial.replace(info_path)
        log.info("litecoind regtest at 127.0.0.1:%s, wallet %s", url.rsplit(":", 1)[1], chain.wallet)
        asyncio.run(_run(chain, args.block_seconds))
    finally:
        info_path.unlink(missing_ok=True)
        chain.stop()


if __name__ == "__main__":
    main()
