"""The development EVM node: ``DevEvm`` served over HTTP JSON-RPC, a block every few seconds.

Run as ``python -m store.chain_rpc.devnet.evm_server --data-dir DIR`` (``DevChainProcess`` does, for
``exchange up`` and the tests). It binds a free loopback port unless given one, deploys the dev USDT,
then writes ``evm.json`` in the data directory: the URL, the chain id, the token, and the funded faucet
account with its private key (eth-tester's well-known test key: worthless anywhere else). That file
appearing is the signal that the node answers. SIGTERM or SIGINT stops it. The chain lives in memory:
each start is a fresh chain.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import socket
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from config import logs
from store.chain_rpc.devnet import token
from store.chain_rpc.devnet.evm_rpc import DevEvm

INFO_FILE = "evm.json"
log = logging.getLogger(__name__)


def build_app(chain: DevEvm) -> Starlette:
    """One POST route: a JSON-RPC request or a batch of them."""

    async def rpc(request: Request) -> Response:
        try:
            body = json.loads(await request.body())
        except ValueError:
            return JSONResponse({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
        if isinstance(body, list):
            replies = [r for r in (chain.handle(item) for item in body) if r is not None]
            return JSONResponse(replies) if replies else Response(status_code=204)
        reply = chain.handle(body)
        return JSONResponse(reply) if reply is not None else Response(status_code=204)

    return Starlette(routes=[Route("/", rpc, methods=["POST"])])


def clear_info(data_dir: Path) -> None:
    """No info file while the node does not answer: the launcher and the faucet read it as "running"."""
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / INFO_FILE).unlink(missing_ok=True)


def write_info(data_dir: Path, info: dict[str, Any]) -> None:
    """Atomically, so a reader never sees half a file."""
    partial = data_dir / (INFO_FILE + ".tmp")
    partial.write_text(json.dumps(info, indent=2))
    partial.replace(data_dir / INFO_FILE)


async def serve(*, data_dir: Path, host: str = "127.0.0.1", port: int = 0, block_seconds: float = 3.0) -> None:
    """Run the node until SIGTERM/SIGINT. ``block_seconds`` 0: blocks only on ``evm_mine``."""
    clear_info(data_dir)
    chain = DevEvm()
    faucet_key = chain.backend.account_keys[0]
    faucet = faucet_key.public_key.to_checksum_address().lower()
    usdt = token.deploy(chain, owner=faucet, cache_dir=data_dir)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    url = f"http://{host}:{sock.getsockname()[1]}/"
    server = uvicorn.Server(uvicorn.Config(build_app(chain), log_level="warning", lifespan="off"))

    async def announce() -> None:
        while not server.started:  # noqa: ASYNC110 - uvicorn offers a flag, not an event
            await asyncio.sleep(0.02)
        write_info(
            data_dir,
            {
                "url": url,
                "chain_id": chain.chain_id,
                "pid": os.getpid(),
                "block_seconds": block_seconds,
                "tokens": {"USDT": {"address": usdt, "decimals": token.DECIMALS}},
                "faucet": {"address": faucet, "private_key": faucet_key.to_hex()},
            },
        )
        log.info("dev EVM node at %s (chain id %d), USDT at %s", url, chain.chain_id, usdt)

    async def produce_blocks() -> None:
        while block_seconds > 0:
            await asyncio.sleep(block_seconds)
            chain.mine()  # the event loop's only thread: never between two halves of a request

    tasks = [asyncio.create_task(announce()), asyncio.create_task(produce_blocks())]
    try:
        await server.serve(sockets=[sock])
    finally:
        for task in tasks:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*tasks)
        clear_info(data_dir)


def main() -> None:
    parser = argparse.ArgumentParser(description="The development EVM node (eth-tester) over JSON-RPC.")
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0: a free port")
    parser.add_argument("--block-seconds", type=float, default=3.0, help="0: mine only on evm_mine")
    args = parser.parse_args()
    logs.configure()
    asyncio.run(serve(data_dir=args.data_dir, host=args.host, port=args.port, block_seconds=args.block_seconds))


if __name__ == "__main__":
    main()
