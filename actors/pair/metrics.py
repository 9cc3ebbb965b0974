"""What a pair reports to Prometheus through Ray's metrics agent (``ray_exchange_pair_*``)."""

from __future__ import annotations

from typing import Any

from ray.util.metrics import Counter, Gauge, Histogram


class PairMetrics:
    def __init__(self) -> None:
        self.commands = Counter("exchange_pair_commands", "orders and cancels committed", tag_keys=("pair", "kind"))
        self.refused = Counter("exchange_pair_refused", "orders and cancels refused by a rule", tag_keys=("pair",))
        self.commit_ms = Histogram("exchange_pair_commit_ms", "match and commit of one batch, in ms",
                                   boundaries=[1, 2, 5, 10, 20, 50, 100, 250, 1000], tag_keys=("pair",))  # fmt: skip
        self.batch = Histogram("exchange_pair_batch_size", "commands in one batch",
                               boundaries=[1, 2, 4, 8, 16, 32, 64, 128, 256], tag_keys=("pair",))  # fmt: skip
        self.open_orders = Gauge("exchange_pair_open_orders", "orders resting in the book", tag_keys=("pair",))
        self.failed = Counter("exchange_pair_failed_batches", "batches that could not be committed",
                              tag_keys=("pair",))  # fmt: skip

    def batch_done(self, pair: str, commands: list[tuple[str, Any, Any]], refused: int, seconds: float,
                   open_orders: int) -> None:  # fmt: skip
        tags = {"pair": pair}
        for kind in ("submit", "cancel"):
            count = sum(1 for c in commands if c[0] == kind)
            if count:
                self.commands.inc(count, tags={**tags, "kind": kind})
        if refused:
            self.refused.inc(refused, tags=tags)
        self.commit_ms.observe(seconds * 1000, tags=tags)
        self.batch.observe(len(commands), tags=tags)
        self.open_orders.set(open_orders, tags=tags)

    def batch_failed(self, pair: str) -> None:
        self.failed.inc(1, tags={"pair": pair})
