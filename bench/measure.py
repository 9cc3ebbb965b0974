"""Measuring a benchmark phase: nearest-rank percentiles, the CPU the machine and each group of
processes used during a window (from /proc), one phase's requests, latencies and errors, and the two
ways to run a phase: closed loop (``drive``) and open loop at a rate (``paced``)."""

from __future__ import annotations

import asyncio
import itertools
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

Outcome = tuple[bool, str, int]  # success, why not (a short reason), orders it accepted
Call = Callable[[int], Awaitable[Outcome]]  # one request by worker ``index``


def pct(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an already sorted list (q in 0-100)."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), round(q / 100 * len(sorted_values) + 0.5)))
    return sorted_values[rank - 1]


def cpu_times() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as f:
        parts = [float(x) for x in f.readline().split()[1:]]
    idle = parts[3] + parts[4]  # idle + iowait
    return sum(parts) - idle, sum(parts)


SERVICES = ("postgres", "redis-server")  # the storage under test, whoever started it


def process_label(pid: str, args: list[str]) -> str:
    first = args[0]
    if first.startswith("ray::"):  # a Ray worker's title: ray::[name:]Class.method or ray::ServeReplica:app:Deployment
        return "ray::" + first.split()[0].removeprefix("ray::").split(".")[0].rstrip("()")
    if int(pid) == os.getpid():
        return "bench client (this process)"
    if first.startswith("postgres:"):  # a backend (postgres: user db host state) or a background worker
        words = first.split()
        host = next((i for i, w in enumerate(words) if i >= 2 and ("(" in w or w == "[local]")), None)
        return f"postgres (db {words[host - 1]})" if host else "postgres (background)"
    if any("multiprocessing" in a for a in args):
        return "bench subscriber processes"
    base = Path(first.split()[0]).name
    if base.startswith("python"):
        script = next((a for a in args[1:] if not a.startswith("-")), "")
        base = Path(script).name or base
    return base


def process_jiffies() -> dict[str, tuple[str, float]]:
    """pid -> (group label, CPU jiffies used so far). Processes that neither descend from this one
    nor are the storage services fall into one group: other load on the machine."""
    raw: dict[str, tuple[str, list[str], float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        args = [a for a in cmd.decode(errors="replace").split("\0") if a]
        if args:
            raw[entry] = (fields[1], args, float(fields[11]) + float(fields[12]))  # ppid, argv, utime + stime
    me = str(os.getpid())
    our_db = urlparse(os.environ.get("DATABASE_URL") or os.environ.get("EXCHANGE_DATABASE_URL") or "").path.lstrip("/")

    def mine(pid: str) -> bool:
        for _ in range(64):
            if pid == me:
                return True
            if pid not in raw:
                return False
            pid = raw[pid][0]
        return False

    out: dict[str, tuple[str, float]] = {}
    for pid, (_, args, jiffies) in raw.items():
        label = process_label(pid, args)
        other_db = label.startswith("postgres (db ") and label != f"postgres (db {our_db})"
        if other_db or (not mine(pid) and not label.startswith(SERVICES)):
            label = "(other processes on the machine)"
        out[pid] = (label, jiffies)
    return out


@dataclass
class CpuWindow:
    """CPU used by the machine and by each process group between ``start()`` and ``stop()``."""

    busy0: float = 0.0
    total0: float = 0.0
    procs0: dict[str, tuple[str, float]] = field(default_factory=dict)
    t0: float = 0.0
    machine_busy: float = 0.0
    by_group: dict[str, float] = field(default_factory=dict)  # group -> cores used on average

    def start(self) -> None:
        self.busy0, self.total0 = cpu_times()
        self.procs0 = process_jiffies()
        self.t0 = time.monotonic()

    def stop(self) -> None:
        busy, total = cpu_times()
        elapsed = time.monotonic() - self.t0
        self.machine_busy = (busy - self.busy0) / max(total - self.total0, 1)
        hz = os.sysconf("SC_CLK_TCK")
        groups: dict[str, float] = {}
        for pid, (label, jiffies) in process_jiffies().items():
            before = self.procs0.get(pid)
            used = jiffies - (before[1] if before is not None else 0.0)  # a new process: all of its time
            if used > 0:
                groups[label] = groups.get(label, 0.0) + used / hz / elapsed
        self.by_group = dict(sorted(groups.items(), key=lambda kv: -kv[1]))

    def server_cores(self) -> float:
        """Cores used by everything the run started or uses, except the load generator and other processes."""
        return sum(c for g, c in self.by_group.items() if not g.startswith(("bench", "(other")))

    def report(self, indent: str = "    ", top: int = 9, per_second: float = 0.0) -> str:
        """The busiest process groups; with ``per_second`` (completed requests per second) also the
        CPU milliseconds each group spent per request, and the server's total (everything this run
        started or uses except the load generator)."""
        head = "busiest processes: cores" + ("  ms CPU/request" if per_second else "")
        lines = [f"{indent}machine CPU busy: {self.machine_busy * 100:.0f} % of {os.cpu_count()} cores; {head}"]
        for label, cores in list(self.by_group.items())[:top]:
            per = f"  {cores * 1000 / per_second:8.2f}" if per_second else ""
            lines.append(f"{indent}  {cores:5.2f}{per}  {label}")
        if per_second:
            server = self.server_cores()
            lines.append(f"{indent}  {server:5.2f}  {server * 1000 / per_second:8.2f}  = server side (Ray, Serve, "
                         f"actors, storage; not the load generator or other processes)")  # fmt: skip
        return "\n".join(lines)


@dataclass
class Phase:
    name: str
    seconds: float
    latencies: list[float]
    errors: dict[str, int]
    cpu: CpuWindow
    orders: int = 0  # orders accepted (a batch request carries many)
    # open loop: (wall clock when due, latency) of every successful call
    timeline: list[tuple[float, float]] = field(default_factory=list)

    @property
    def rps(self) -> float:
        return len(self.latencies) / self.seconds

    @property
    def ops(self) -> float:
        """Accepted orders per second."""
        return self.orders / self.seconds

    def line(self) -> str:
        lat = sorted(self.latencies)
        errs = sum(self.errors.values())
        return (f"{self.name:<7} {len(lat):>7} ok  {errs:>5} errors  {self.rps:8.1f} req/s   "
                f"p50 {pct(lat, 50) * 1000:7.1f} ms   p99 {pct(lat, 99) * 1000:7.1f} ms   "
                f"max {(lat[-1] if lat else float('nan')) * 1000:7.1f} ms"
                + (f"   {self.ops:8.1f} orders/s" if self.orders else ""))  # fmt: skip

    def stalls(self, over_s: float) -> str:
        """The moments (wall clock, to set beside the actors' logs) when calls took ``over_s`` or more:
        consecutive slow calls as one stall, its first due time, how many and the longest."""
        runs: list[list[tuple[float, float]]] = []
        for due, latency in sorted(self.timeline):
            if latency < over_s:
                continue
            if runs and due - runs[-1][-1][0] <= latency:
                runs[-1].append((due, latency))
            else:
                runs.append([(due, latency)])
        return (
            "; ".join(
                f"{time.strftime('%H:%M:%S', time.localtime(run[0][0]))}.{int(run[0][0] % 1 * 1000):03d} "
                f"{len(run)} calls, max {max(lat for _, lat in run) * 1000:.0f} ms"
                for run in runs
            )
            or "none"
        )


async def drive(name: str, call: Call, concurrency: int, seconds: float, warmup: float, orders: bool = False) -> Phase:
    """Closed loop: ``concurrency`` workers call back to back; only completions after the warm-up and
    before the deadline count. ``orders``: report the orders accepted (a batch carries many)."""
    start = time.monotonic()
    measure_from, deadline = start + warmup, start + warmup + seconds
    latencies: list[float] = []
    errors: dict[str, int] = {}
    accepted = [0]

    async def worker(index: int) -> None:
        while (t0 := time.monotonic()) < deadline:
            good, why, count = await call(index)
            t1 = time.monotonic()
            if measure_from <= t1 <= deadline:
                record(good, why, count, t1 - t0)

    def record(good: bool, why: str, count: int, latency: float) -> None:
        if good:
            latencies.append(latency)
            accepted[0] += count
        else:
            errors[why] = errors.get(why, 0) + 1

    cpu = await _measured(measure_from, deadline, [worker(i) for i in range(concurrency)])
    return Phase(name, seconds, latencies, errors, cpu, accepted[0] if orders else 0)


async def paced(name: str, call: Call, rate: float, seconds: float, warmup: float, orders: bool = False) -> Phase:
    """Open loop: a call every ``1 / rate`` seconds whatever the answers do; each latency counts from
    the call's scheduled time, so a server falling behind shows in the percentiles (no coordinated
    omission)."""
    start = time.monotonic()
    measure_from, deadline = start + warmup, start + warmup + seconds
    latencies: list[float] = []
    errors: dict[str, int] = {}
    accepted = [0]
    tasks: list[asyncio.Task[None]] = []
    timeline: list[tuple[float, float]] = []
    wall = time.time() - start  # monotonic -> wall clock

    async def one(index: int, due: float) -> None:
        good, why, count = await call(index)
        if measure_from <= due < deadline:
            if good:
                latencies.append(time.monotonic() - due)
                timeline.append((wall + due, latencies[-1]))
                accepted[0] += count
            else:
                errors[why] = errors.get(why, 0) + 1

    async def schedule() -> None:
        for index in itertools.count():
            due = start + index / rate
            if due >= deadline:
                break
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            tasks.append(asyncio.create_task(one(index, due)))
        await asyncio.gather(*tasks)

    cpu = await _measured(measure_from, deadline, [schedule()])
    return Phase(f"{name}@{rate:g}/s", seconds, latencies, errors, cpu, accepted[0] if orders else 0, timeline)


async def _measured(measure_from: float, deadline: float, work: list[Awaitable[None]]) -> CpuWindow:
    """Run ``work`` while a CpuWindow measures from ``measure_from`` to ``deadline``."""
    cpu = CpuWindow()

    async def window() -> None:
        # Each snapshot reads /proc of every process on the machine (8 ms with nothing running, more beside
        # a stack): in a thread, so an open-loop phase does not send the calls due meanwhile late and count
        # the load generator's delay as the server's latency.
        await asyncio.sleep(max(0.0, measure_from - time.monotonic()))
        await asyncio.to_thread(cpu.start)
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        await asyncio.to_thread(cpu.stop)

    await asyncio.gather(window(), *work)
    return cpu
