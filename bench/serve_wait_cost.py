"""What Ray Serve itself spends on a request that waits: a bare Serve app (a FastAPI ingress with a
no-op and a route that sleeps), none of the exchange's code, driven with a fixed number of requests
in flight; prints the proxy's and the replica's CPU per request from ``/proc`` for each route.

A REST order waits for the wallet shard and the pair; this shows how much of its proxy and replica
CPU is Serve's for the wait alone (docs/performance.md §21). Serve's variables (e.g.
``RAY_SERVE_THROUGHPUT_OPTIMIZED=1``) are read from the environment Ray starts its workers with:
set them on the command line to compare modes.

    .venv/bin/python bench/serve_wait_cost.py [--requests 1500] [--in-flight 16] [--sleeps 30,150]

Prints figures, asserts nothing; stops Serve and Ray before it exits.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

import httpx
import psutil
import ray
from fastapi import FastAPI
from harness import free_port
from ray import serve

app = FastAPI()


@app.post("/noop")
async def noop() -> dict[str, bool]:
    return {"ok": True}


@app.post("/sleep")
async def slow(ms: float = 30) -> dict[str, bool]:
    await asyncio.sleep(ms / 1000)
    return {"ok": True}


@serve.deployment(ray_actor_options={"num_cpus": 0}, max_ongoing_requests=200)
@serve.ingress(app)
class Bare:
    pass


def serve_processes() -> dict[str, psutil.Process]:
    """The proxy and the replica, by the title Ray gives their processes."""
    found: dict[str, psutil.Process] = {}
    for process in psutil.process_iter(["cmdline"]):
        title = " ".join(process.info["cmdline"] or [])
        for kind in ("ProxyActor", "ServeReplica"):
            if f"ray::{kind}" in title:
                found[kind] = process
    return found


def cpu_seconds(process: psutil.Process) -> float:
    times = process.cpu_times()
    return float(times.user + times.system)


async def drive(port: int, path: str, requests: int, in_flight: int) -> None:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
        left = iter(range(requests))

        async def worker() -> None:
            for _ in left:
                response = await client.post(path, json={})
                response.raise_for_status()

        await asyncio.gather(*(worker() for _ in range(in_flight)))


def measure(port: int, path: str, args: argparse.Namespace, processes: dict[str, psutil.Process]) -> None:
    asyncio.run(drive(port, path, 200, args.in_flight))  # warm up
    before = {kind: cpu_seconds(p) for kind, p in processes.items()}
    started = time.monotonic()
    asyncio.run(drive(port, path, args.requests, args.in_flight))
    wall = time.monotonic() - started
    per_request = {kind: f"{(cpu_seconds(p) - before[kind]) * 1000 / args.requests:.2f} ms"
                   for kind, p in processes.items()}  # fmt: skip
    print(f"{path:<16} {args.requests / wall:6.0f} req/s   CPU per request: {per_request}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1500, help="measured requests per route")
    parser.add_argument("--in-flight", type=int, default=16)
    parser.add_argument("--sleeps", default="30,150", help="what the sleeping route waits, in ms")
    args = parser.parse_args()
    port = free_port()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        serve.start(http_options={"host": "127.0.0.1", "port": port})
        serve.run(Bare.bind(), route_prefix="/")
        time.sleep(3)
        processes: dict[str, Any] = serve_processes()
        paths = ["/noop", *(f"/sleep?ms={ms}" for ms in args.sleeps.split(",") if ms), "/noop"]
        for path in paths:
            measure(port, path, args, processes)
    finally:
        serve.shutdown()
        ray.shutdown()


if __name__ == "__main__":
    main()
