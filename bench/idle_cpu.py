"""CPU of a running exchange, per process and in total, as % of one core (CPU seconds per wall second).

It attaches to the instance already running on this machine (``exchange up`` / ``make run``): it
finds the process listening on the instance's HTTP port (the Serve proxy), climbs to the
``exchange up`` process above it and takes that process's whole tree (the embedded Redis, Ray's
GCS, raylet, dashboard and agents, and every worker: pair actors, wallet shards, the market maker,
the Serve proxy and replicas). After ``--warmup`` seconds it reads every process's CPU time (user +
system), waits ``--seconds``, reads again and prints the difference per wall second.

CPU time, not the CPU percentage ``top`` shows, so other load on the machine (tests, builds) does
not change the figure: a process that waited for the CPU used none meanwhile. A process that starts
during the window counts from zero; one that ends is counted up to its last reading (none).

    .venv/bin/python bench/idle_cpu.py                              # the instance on HTTP port 8000
    .venv/bin/python bench/idle_cpu.py --http-port 8100 --seconds 60 --warmup 0
    .venv/bin/python bench/idle_cpu.py --pid 12345 --each           # a root pid; one line per process

Starts nothing and sends no request: it only reads /proc. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from dataclasses import dataclass

import psutil


@dataclass
class Sample:
    pid: int
    name: str
    cpu_s: float


def _listener(port: int) -> int:
    for conn in psutil.net_connections(kind="tcp"):
        if conn.status == psutil.CONN_LISTEN and conn.laddr and conn.laddr.port == port and conn.pid:
            return conn.pid
    sys.exit(f"no process listens on port {port} (is the exchange running? try --pid)")


def _root(pid: int) -> psutil.Process:
    """The ``exchange up`` process above ``pid`` (the topmost ancestor whose command line says so)."""
    root = psutil.Process(pid)
    for parent in psutil.Process(pid).parents():
        if any("exchange" in part for part in parent.cmdline()[:3]):
            root = parent
    return root


def _label(proc: psutil.Process) -> str:
    """``ray::PairActor`` for a Ray worker (its title, without the method it runs), else the program
    (the script for a Python process)."""
    cmd = proc.cmdline() or [proc.name()]
    if cmd[0].startswith("ray::"):
        return cmd[0].split()[0].split(".")[0]
    if "python" in cmd[0].rsplit("/", 1)[-1]:
        script = next((part for part in cmd[1:] if not part.startswith("-")), cmd[0])
        return script.rsplit("/", 1)[-1]
    return cmd[0].rsplit("/", 1)[-1]


def _sample(root: psutil.Process) -> dict[int, Sample]:
    samples = {}
    for proc in [root, *root.children(recursive=True)]:
        try:
            with proc.oneshot():
                times = proc.cpu_times()
                samples[proc.pid] = Sample(proc.pid, _label(proc), times.user + times.system)
        except psutil.Error:
            continue
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--http-port", type=int, default=8000, help="the instance's HTTP port (default 8000)")
    parser.add_argument("--pid", type=int, help="the root process instead (e.g. the `exchange up` pid)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds to wait before the window")
    parser.add_argument("--seconds", type=float, default=30.0, help="the window")
    parser.add_argument("--each", action="store_true", help="one line per process, not per kind")
    args = parser.parse_args()

    root = _root(args.pid or _listener(args.http_port))
    print(f"root: pid {root.pid} {' '.join(root.cmdline()[:3])}")
    time.sleep(args.warmup)
    before, began = _sample(root), time.monotonic()
    time.sleep(args.seconds)
    after, wall = _sample(root), time.monotonic() - began

    used = {pid: (s.name, s.cpu_s - (before[pid].cpu_s if pid in before else 0.0)) for pid, s in after.items()}
    rows: dict[str, list[float]] = defaultdict(list)
    for pid, (name, cpu) in used.items():
        rows[f"{name} ({pid})" if args.each else name].append(cpu)
    print(f"window {wall:.1f} s, {len(after)} processes; % of one core (CPU s per wall s)")
    print(f"{'process':<44} {'count':>5} {'% core':>8}")
    for name, cpus in sorted(rows.items(), key=lambda kv: -sum(kv[1])):
        print(f"{name:<44} {len(cpus):>5} {100 * sum(cpus) / wall:>8.1f}")
    total = sum(cpu for _, cpu in used.values())
    print(f"{'total':<44} {len(used):>5} {100 * total / wall:>8.1f}")


if __name__ == "__main__":
    main()
