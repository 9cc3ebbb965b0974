"""How HTTP reaches the API (issue 15, ``EXCHANGE_SERVE_INGRESS``): Serve's variables for each mode, put
where Serve's processes read them."""

from __future__ import annotations

import logging
import os

from config.settings import Settings
from serve.body_limit import limit_environment

log = logging.getLogger(__name__)

# Serve reads these when its controller, proxies and replicas import it, in their own processes: they
# must be in the environment Ray starts its workers with, so they are set before Ray starts (or passed
# in the job's runtime environment when joining a cluster), never later in the driver.
INGRESS_ENV: dict[str, dict[str, str]] = {
    "proxy": {},
    # Serve's throughput mode (gRPC from the proxy to the replicas, a frozen GC, the handler on the
    # replica's own loop) without direct ingress: the proxies stay on every node, on http_host.
    "throughput": {"RAY_SERVE_THROUGHPUT_OPTIMIZED": "1", "RAY_SERVE_ENABLE_DIRECT_INGRESS": "0"},
    # The same with direct ingress: each API replica also serves HTTP on a port of its own.
    "direct": {"RAY_SERVE_THROUGHPUT_OPTIMIZED": "1"},
    # HAProxy on http_port in front of the replicas' own ports (direct ingress, no ProxyActor).
    "haproxy": {"RAY_SERVE_THROUGHPUT_OPTIMIZED": "1", "RAY_SERVE_ENABLE_HA_PROXY": "1"},
}


def ingress_environment(settings: Settings) -> dict[str, str]:
    """Put the mode's variables, and what every HTTP server of Serve needs to cap request bodies
    (``serve.body_limit``, in every mode), in this process's environment (a Ray it starts passes them
    to its workers) and answer them (for a joined cluster's runtime environment)."""
    ingress = {**INGRESS_ENV[settings.serve_ingress], **limit_environment(settings)}
    os.environ.update(ingress)
    if settings.serve_ingress == "haproxy":
        log.warning("HAProxy ingress: the API sees HAProxy's address, not the client's (Ray 2.60's HAProxy "
                    "sends no X-Forwarded-For): per-address throttles count all clients as one")  # fmt: skip
    return ingress
