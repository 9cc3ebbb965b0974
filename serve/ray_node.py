"""This process's Ray: where ``exchange up`` writes its address, how a driver (an operator command, or
``exchange up --address``) joins it, how often Ray's own processes wake when nothing happens, and how
the stack makes sure no Ray process outlives it."""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path
from typing import Any

from config.settings import Settings

log = logging.getLogger(__name__)

# Ray's own processes of a Ray the stack starts read these from the environment they inherit (set
# before ray.init); each is a period that costs CPU on an idle exchange, traded for how late Ray
# notices a change (issue 31; figures in docs/performance.md section 15, the trade-offs in
# docs/decisions.md "An idle exchange stays idle"). An operator's own value in the environment wins.
IDLE_ENV: dict[str, str] = {
    # The Serve controller's control loop (default 0.1 s): deploys, scaling and replacing a dead
    # replica or proxy start up to this much later.
    "RAY_SERVE_CONTROL_LOOP_INTERVAL_S": "0.5",
    # The log monitor globs the session's log directory for new files on every 0.1 s pass while it
    # follows fewer than 1000 files; now every 5 s: a new worker's first lines reach the driver's
    # terminal (log_to_driver) up to 5 s late. Lines of files it follows still come every 0.1 s.
    "RAY_LOG_MONITOR_MANY_FILES_THRESHOLD": "0",
    "LOG_NAME_UPDATE_INTERVAL_S": "5",
    # The dashboard agent's reporter reads every worker's CPU and memory (psutil) for the node's
    # metrics (the metrics port) every 5 s; now every 30 s, a Prometheus scrape's usual period.
    "REPORTER_UPDATE_INTERVAL_MS": "30000",
    # The dashboard agent checks that its raylet lives every 0.4 s; now every 2 s (it exits up to
    # 1.6 s later after a raylet died).
    "RAY_DASHBOARD_AGENT_CHECK_PARENT_INTERVAL_S": "2",
}


def idle_environment() -> dict[str, str]:
    """Put ``IDLE_ENV`` in this process's environment, where the driver has none of its own, before it
    starts Ray (its processes inherit it); answers the values in force."""
    for name, value in IDLE_ENV.items():
        os.environ.setdefault(name, value)
    return {name: os.environ[name] for name in IDLE_ENV}


def ray_address_file(settings: Settings) -> Path:
    """Where ``exchange up`` writes the address of the Ray it runs on, for the operator commands."""
    return settings.data_dir / "ray-address"


def join_ray(address: str, **kwargs: Any) -> None:
    """Connect this process to the Ray at ``address`` as a driver (``exchange up --address``, the
    operator commands).

    Ray 2.60 turns token authentication on for a cluster it starts when a token exists (in
    ``~/.ray/auth_token`` or RAY_AUTH_TOKEN / RAY_AUTH_TOKEN_PATH), but a driver that joins by address
    only sends the token when RAY_AUTH_MODE says so; without it the join fails with
    "Authentication token is missing". So a driver that has a token uses it, unless RAY_AUTH_MODE
    is set.
    """
    import ray
    from ray._private.authentication.authentication_token_setup import maybe_enable_token_auth_if_token_available

    # Its "token authentication is enabled" warning would open every operator command's output.
    logging.getLogger(maybe_enable_token_auth_if_token_available.__module__).setLevel(logging.ERROR)
    maybe_enable_token_auth_if_token_available(warn_if_disabled=False)
    ray.init(address=address, namespace="exchange", **kwargs)


def ray_processes(nodes: list[Any]) -> list[Any]:
    """Every process of the Ray nodes this driver started: raylet, GCS and the workers below them."""
    import psutil

    roots = [info.process.pid for node in nodes for infos in node.all_processes.values() for info in infos]
    found: dict[int, psutil.Process] = {}
    for pid in roots:
        with contextlib.suppress(psutil.Error):
            root = psutil.Process(pid)
            for proc in [root, *root.children(recursive=True)]:
                found[proc.pid] = proc
    return list(found.values())


def reap(processes: list[Any], grace_s: float = 10.0) -> None:
    """Give Ray's own shutdown `grace_s` to end its processes, then kill the ones still there.

    Ray asks its workers to exit and does not wait for them; a worker that does not honour SIGTERM
    (seen with actor processes in CI) would outlive the stack, so the stack ends it itself.
    """
    import psutil

    _, alive = psutil.wait_procs(processes, timeout=grace_s)
    for proc in alive:
        with contextlib.suppress(psutil.Error):
            log.warning("killing %s (pid %d): still running %.0f s after Ray shut down", proc.name(), proc.pid, grace_s)
            proc.kill()
    psutil.wait_procs(alive, timeout=5)
