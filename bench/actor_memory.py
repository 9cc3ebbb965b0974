"""Memory of every actor kind of a running exchange: USS, PSS and RSS per process, as a table.

By default it attaches to the instance already running on this machine (``exchange up`` /
``make run``): it finds the process listening on the instance's HTTP port (the Serve proxy), reads
the Ray GCS address from the raylet above it, connects to that Ray as a driver, lists the live
actors from the GCS actor table (class, name, pid, node) and reads each actor process's memory
with psutil. The Ray system processes of the node (GCS, raylet, agents, idle workers and the
``exchange up`` driver itself) are listed in a second table from the same process tree.

    .venv/bin/python bench/actor_memory.py                   # the instance on HTTP_PORT (8000)
    .venv/bin/python bench/actor_memory.py --http-port 8100  # another instance on this machine
    .venv/bin/python bench/actor_memory.py --address 10.0.0.5:6379   # a Ray GCS address
    .venv/bin/python bench/actor_memory.py --start           # start a stack of its own, then stop it
    .venv/bin/python bench/actor_memory.py --each            # also one line per actor

- **USS** (unique set size) is what the process alone holds: what ending it would give back. This
  is the figure to multiply by a count ("50 more pairs cost 50 × USS").
- **PSS** splits each shared page between the processes sharing it; PSS summed over all processes
  is the machine's real total. **RSS** counts shared pages (the Python interpreter, Ray's libraries)
  in full in every process, so RSS summed over processes overstates the total.

Only processes on this machine can be measured (actors on other nodes of a cluster are counted and
named as such). Attaching starts no process: the script is one more Ray driver, and disconnects
before it exits. With ``--start`` it starts the whole stack in a temporary data directory (what
``make run`` starts: development mode, every open pair, the market maker; free ports; DATABASE_URL /
REDIS_URL when set), waits
``--settle`` seconds, measures, and stops every process it started (Ray, Serve, actors, the
embedded Redis). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

MIB = 1024 * 1024
# Ray's class names of Serve's own actors, and the label each kind gets in the table.
SERVE_KINDS = {"ServeController": "Serve controller", "ProxyActor": "Serve HTTP proxy"}
# Order of the table: the exchange's actors first, then Serve.
KIND_ORDER = ["PairActor", "WalletShard", "Fanout", "MarketMaker", "MicroTimer", "Scheduler"]


@dataclass
class Sample:
    kind: str
    label: str  # actor name or process title
    pid: int
    rss: int
    pss: int
    uss: int


def kind_of(class_name: str) -> str:
    """Group actors by what they are: ``ServeReplica:api:ApiIngress`` is a Serve replica of ``api``."""
    if class_name.startswith("ServeReplica:"):
        _, app, deployment = (class_name.split(":") + ["", ""])[:3]
        return f"Serve replica {app}:{deployment}"
    return SERVE_KINDS.get(class_name, class_name)


def measure(pid: int) -> tuple[int, int, int] | None:
    """(rss, pss, uss) in bytes from /proc/<pid>/smaps, or None if the process is gone."""
    with contextlib.suppress(psutil.Error):
        info = psutil.Process(pid).memory_full_info()
        return info.rss, getattr(info, "pss", 0), info.uss
    return None


# -- finding the instance's Ray ----------------------------------------------------------------------


def _arg(proc: psutil.Process, flag: str) -> str | None:
    """The value of ``--flag=value`` on a process's command line."""
    with contextlib.suppress(psutil.Error):
        for part in proc.cmdline():
            if part.startswith(f"{flag}="):
                return part.split("=", 1)[1]
    return None


def gcs_address_for_port(port: int) -> str:
    """The GCS address of the Ray whose Serve proxy listens on ``port``.

    The proxy is a worker process under the node's raylet, and the raylet's command line carries
    ``--gcs-address``. Raises SystemExit with a readable message when nothing listens there.
    """
    listeners = [c.pid for c in psutil.net_connections(kind="tcp") if c.status == psutil.CONN_LISTEN
                 and c.laddr and c.laddr.port == port and c.pid]  # fmt: skip
    if not listeners:
        raise SystemExit(f"nothing listens on port {port}: start the exchange, or pass --http-port / --address")
    proc: psutil.Process | None = psutil.Process(listeners[0])
    while proc is not None:
        if "raylet" in proc.name():
            address = _arg(proc, "--gcs-address")
            if address:
                return address
        proc = proc.parent()
    raise SystemExit(f"the process on port {port} (pid {listeners[0]}) is not under a Ray raylet")


def follow_auth_mode(raylet: psutil.Process | None) -> None:
    """Use the cluster's ``RAY_AUTH_MODE``: a local Ray started by ``ray.init`` runs in token mode
    (token in ``~/.ray/auth_token``), and a driver that does not know it is refused by the GCS."""
    if raylet is None or "RAY_AUTH_MODE" in os.environ:
        return
    with contextlib.suppress(psutil.Error):
        mode = raylet.environ().get("RAY_AUTH_MODE")
        if mode:
            os.environ["RAY_AUTH_MODE"] = mode


def raylet_of(gcs_address: str) -> psutil.Process | None:
    """This machine's raylet of the cluster at ``gcs_address``."""
    for proc in psutil.process_iter(["name"]):
        if "raylet" in (proc.info["name"] or "") and _arg(proc, "--gcs-address") == gcs_address:
            return proc
    return None


# -- listing ------------------------------------------------------------------------------------------


def list_actor_processes() -> tuple[list[dict[str, Any]], str]:
    """Live actors of the connected cluster (class_name, name, pid, node_id) and this node's id.

    Read from the GCS actor table: ``ray.util.state.list_actors`` needs the dashboard's HTTP server,
    which the exchange's local Ray does not start (``include_dashboard=False``).
    """
    import ray
    from ray._private import state

    local_node = ray.get_runtime_context().get_node_id()
    actors = [
        {"class_name": a["ActorClassName"], "name": a.get("Name") or a["ActorID"][:8], "pid": a.get("Pid"),
         "node_id": (a.get("Address") or {}).get("NodeID")}
        for a in state.actors().values()
        if a.get("State") == "ALIVE"
    ]  # fmt: skip
    return actors, local_node


def actor_samples(actors: list[dict[str, Any]], local_node: str) -> tuple[list[Sample], list[str]]:
    samples, elsewhere = [], []
    for actor in actors:
        kind, label = kind_of(actor["class_name"]), actor["name"]
        if actor.get("node_id") != local_node or not actor.get("pid"):
            elsewhere.append(f"{kind} {label}")
            continue
        mem = measure(int(actor["pid"]))
        if mem is not None:
            samples.append(Sample(kind, label, int(actor["pid"]), *mem))
    return samples, elsewhere


def system_samples(raylet: psutil.Process | None, actor_pids: set[int], driver_pid: int | None) -> list[Sample]:
    """The node's Ray processes that are not actors: raylet, GCS, agents, idle workers, the driver."""
    if raylet is None:
        return []
    procs: dict[int, psutil.Process] = {}
    root = raylet
    with contextlib.suppress(psutil.Error):
        # A local Ray started by a driver (exchange up) hangs the GCS, the raylet and the monitors
        # (and the embedded Redis) under that driver; a `ray start` node has no such parent.
        parent = raylet.parent()
        if parent is not None and any("gcs_server" in child.name() for child in parent.children()):
            root = parent
        for proc in [root, *root.children(recursive=True)]:
            procs[proc.pid] = proc
    samples = []
    for pid, proc in sorted(procs.items()):
        if pid in actor_pids or (pid == os.getpid() and pid != driver_pid):
            continue
        try:
            kind = _system_kind(proc, driver_pid)
        except psutil.Error:
            continue
        mem = measure(pid)
        if mem is not None:
            samples.append(Sample(kind, proc.name(), pid, *mem))
    return samples


def _system_kind(proc: psutil.Process, driver_pid: int | None) -> str:
    cmd = " ".join(proc.cmdline())
    title = cmd.split(" ")[0] if cmd.startswith("ray::") else ""
    if title:
        # ``ray::IDLE`` (a pre-started worker), ``ray::DashboardAgent``, ``ray::RuntimeEnvAgent`` ...
        return f"Ray worker {title.removeprefix('ray::')}" if title == "ray::IDLE" else title.removeprefix("ray::")
    for marker, kind in (("gcs_server", "Ray GCS server"), ("raylet", "Ray raylet"), ("redis-server", "embedded Redis"),
                         ("dashboard/dashboard.py", "Ray dashboard head"), ("monitor.py", "Ray monitor"),
                         ("log_monitor.py", "Ray log monitor")):  # fmt: skip
        if marker in cmd and not (marker == "monitor.py" and "log_monitor.py" in cmd):
            return kind
    if proc.pid == driver_pid:
        return "driver (this script, as exchange up)"
    if "exchange up" in cmd:
        return "driver (exchange up)"
    return proc.name()


# -- the table -----------------------------------------------------------------------------------------


def _order(kind: str) -> tuple[int, str]:
    if kind in KIND_ORDER:
        return KIND_ORDER.index(kind), kind
    return (len(KIND_ORDER) + (0 if kind.startswith("Serve") else 1)), kind


def print_table(title: str, samples: list[Sample], each: bool = False) -> None:
    groups: dict[str, list[Sample]] = {}
    for sample in samples:
        groups.setdefault(sample.kind, []).append(sample)
    print(f"\n{title}")
    header = f"{'kind':<42} {'n':>3}  {'USS MiB each':>14}  {'PSS MiB':>8}  {'RSS MiB':>8}  {'USS MiB total':>13}"
    print(header)
    print("-" * len(header))
    for kind in sorted(groups, key=_order):
        group = groups[kind]
        uss = [s.uss / MIB for s in group]
        spread = f"{statistics.mean(uss):.1f}" + (f" ({min(uss):.0f}-{max(uss):.0f})" if len(uss) > 1 else "")
        print(f"{kind:<42} {len(group):>3}  {spread:>14}  {statistics.mean(s.pss for s in group) / MIB:>8.1f}  "
              f"{statistics.mean(s.rss for s in group) / MIB:>8.1f}  {sum(uss):>13.1f}")  # fmt: skip
        if each:
            for s in sorted(group, key=lambda s: s.label):
                mib = f"{s.uss / MIB:>14.1f}  {s.pss / MIB:>8.1f}  {s.rss / MIB:>8.1f}"
                print(f"    {s.label[:38]:<38} {s.pid:>3}  {mib}")
    print("-" * len(header))
    print(f"{'total':<42} {len(samples):>3}  {'':>14}  {sum(s.pss for s in samples) / MIB:>8.1f}  "
          f"{sum(s.rss for s in samples) / MIB:>8.1f}  {sum(s.uss for s in samples) / MIB:>13.1f}")  # fmt: skip
    print("(the total's PSS and RSS columns are sums, the others are per process)")


def report(gcs_address: str, each: bool, driver_pid: int | None = None) -> None:
    """Print both tables; connects to ``gcs_address`` unless this process is already a driver there."""
    raylet = raylet_of(gcs_address)
    attach = "ray" not in sys.modules or not sys.modules["ray"].is_initialized()
    if attach:
        follow_auth_mode(raylet)  # before Ray is imported: it reads the mode once
    import ray

    print(f"Ray at {gcs_address}")
    if attach:
        ray.init(address=gcs_address, namespace="exchange", log_to_driver=False, logging_level="ERROR")
    try:
        actors, local_node = list_actor_processes()
    finally:
        if attach:
            ray.shutdown()  # this driver only: the cluster belongs to the instance
    samples, elsewhere = actor_samples(actors, local_node)
    system = system_samples(raylet, {s.pid for s in samples}, driver_pid)
    mem = psutil.virtual_memory()
    print(f"machine: {os.cpu_count()} CPUs, {mem.total / 2**30:.1f} GiB, {mem.available / 2**30:.1f} GiB available, "
          f"{platform.platform()}")  # fmt: skip
    print(f"python {platform.python_version()} · ray {ray.__version__} · psutil {psutil.__version__}")
    print_table(f"Actors on this node ({len(samples)} live actors measured)", samples, each)
    if elsewhere:
        print(f"\n{len(elsewhere)} actors on other nodes (not measured here): {', '.join(sorted(elsewhere))}")
    print_table("The driver, Ray's own processes and the embedded Redis on this node (not actors)", system, each)


# -- --start: a stack of its own -------------------------------------------------------------------------


@contextlib.contextmanager
def own_stack() -> Iterator[Any]:
    """The whole stack in a temporary data directory, as the tests start it plus the market maker."""
    from harness import free_port, quiet_stack

    from config.settings import Settings

    tmp = Path(tempfile.mkdtemp(prefix="exmem-"))
    settings = Settings(env="development", data_dir=tmp, http_port=free_port(), ws_port=free_port(), market_maker=True)
    stack = quiet_stack(settings)
    try:
        print(f"starting the stack (data dir {tmp}) ...", flush=True)
        stack.start()
        yield stack
    finally:
        print("stopping the stack ...", flush=True)
        stack.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--http-port", type=int, default=int(os.environ.get("HTTP_PORT", 8000)),
                        help="HTTP port of the running instance (default HTTP_PORT or 8000)")  # fmt: skip
    parser.add_argument("--address", help="GCS address of the Ray to inspect (default: found from --http-port)")
    parser.add_argument("--start", action="store_true", help="start a stack of its own, measure, stop it")
    parser.add_argument("--settle", type=float, default=20.0, help="with --start: seconds to wait before measuring")
    parser.add_argument("--each", action="store_true", help="also one line per process")
    args = parser.parse_args()

    if not args.start:
        report(args.address or gcs_address_for_port(args.http_port), args.each)
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import ray

    with own_stack():
        time.sleep(args.settle)
        report(ray.get_runtime_context().gcs_address, args.each, driver_pid=os.getpid())


if __name__ == "__main__":
    main()
