"""Ray's, Serve's and the exchange's own metrics, in Prometheus text at the head node's metrics port."""

from __future__ import annotations

import time

import httpx

from serve.stack import Stack
from tests.utils.users import member, ok


def scrape(port: int, wanted: list[str], timeout_s: float = 60) -> str:
    """The metrics page once every name in ``wanted`` is on it (Ray exports every few seconds)."""
    deadline = time.monotonic() + timeout_s
    body = ""
    while time.monotonic() < deadline:
        try:
            body = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
        except httpx.HTTPError:
            body = ""
        if all(name in body for name in wanted):
            return body
        time.sleep(1)
    missing = [name for name in wanted if name not in body]
    raise AssertionError(f"not exported within {timeout_s} s: {missing}")


def test_metrics_port_exports_ray_serve_and_pair_metrics(stack: Stack, api: httpx.Client) -> None:
    trader = member(api)
    ok(api.post("dev/credit", json={"currency": "USDT", "amount": "1000"}, headers=trader.auth))
    body = {"currency_match_id": 1, "number": "0.001", "price": "20000"}  # rests: below the market, in its band
    placed = api.post("tx_in/add", json=body, headers=trader.auth).json()["data"]
    api.post("tx_in/cancel", json={"id": placed["id"]}, headers=trader.auth)
    assert stack.settings.metrics_port is not None

    page = scrape(stack.settings.metrics_port, [
        'ray_exchange_pair_commands_total{',  # the pair actor's own counter (BTC/USDT runs on the head)
        "ray_exchange_pair_commit_ms_bucket{",
        "ray_serve_num_http_requests_total{",  # Serve's proxy
        "ray_node_mem_used{",  # Ray's node metrics
    ])  # fmt: skip
    submits = [line for line in page.splitlines()
               if line.startswith("ray_exchange_pair_commands_total{") and 'pair="BTC/USDT"' in line
               and 'kind="submit"' in line]  # fmt: skip
    assert submits and float(submits[0].rsplit(" ", 1)[1]) >= 1, submits
