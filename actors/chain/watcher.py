"""The ChainWatcher actor: one per configured chain (``chain-watcher-ltc`` when settings.ltc_rpc_url is
set, ``chain-watcher-erc20`` when settings.evm_rpc_url is), started by the stack after the Scheduler.

It runs ``store.chain.watch.Watcher.step`` in a loop: at once again while it is behind the node's tip,
every ``chain_poll_seconds`` once caught up. Its state is the stored cursor (``chain_blocks``), so a
restarted actor (Ray restarts it: ``max_restarts=-1``) resumes where the last one stopped, and a step
cut short is simply done again. A node that does not answer, refuses, or answers nonsense is logged
and retried with a backoff of up to a minute; no error ends the loop. Credits and drops are pushed to
their users on ``DEPOSIT`` (store/chain/push.py).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from typing import Any

import ray

from actors.runtime import DbActor
from store.cache import connect_redis
from store.chain import push
from store.chain.sources import source_for
from store.chain.watch import Watcher
from store.chain_rpc.jsonrpc import NodeError

log = logging.getLogger(__name__)
MAX_BACKOFF_S = 60.0


# Waits on its node and the database; reserves no CPU.
@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=-1)
class ChainWatcher(DbActor):
    def __init__(self, settings: dict[str, Any], chain: str) -> None:
        super().__init__(settings, f"chain watcher {chain}")
        self._chain = chain
        self._poll_s = self._settings.chain_poll_seconds
        self._watcher: Watcher | None = None
        self._error = ""
        self._failures = 0
        self._last_step: dict[str, Any] | None = None
        # The loop starts here: Ray runs __init__ again when it restarts the actor.
        self._life.loop("steps", self._run)

    async def status(self) -> dict[str, Any]:
        """The node's height, the cursor, the lag and the deposits still followed (``exchange chain
        status``); with the loop's last error (empty when its last step succeeded) and last step."""
        error = self._error or self._life.error  # a step's, or why it has not started yet
        answer: dict[str, Any] = {"chain": self._chain, "error": error, "failures": self._failures,
                                  "poll_s": self._poll_s, "last_step": self._last_step}  # fmt: skip
        if self._watcher is None:
            return {**answer, "node_height": None, "cursor": None, "lag": None, "pending_deposits": None}
        try:
            return {**answer, **await self._watcher.status()}
        except NodeError as exc:
            cursor = await self._watcher.cursor()
            return {**answer, "node_height": None, "cursor": cursor.height if cursor else None, "lag": None,
                    "pending_deposits": None, "error": f"node: {exc}"}  # fmt: skip

    async def _run(self) -> None:
        """Start (tried again every ``poll_s`` while the database is not up yet), then step forever."""
        await self._life.load(self._start, delays=(self._poll_s,))
        while True:
            delay = await self._step()
            await asyncio.sleep(delay)

    async def _start(self) -> None:
        await self._ready()
        redis = connect_redis(self._settings)
        source = source_for(self._settings, self._chain)
        notify = functools.partial(push.notify, redis)
        self._watcher = Watcher(source, final_confirmations=self._settings.withdraw_confirmations, notify=notify)

    async def _step(self) -> float:
        """One step; how long to wait before the next."""
        assert self._watcher is not None
        try:
            progress = await self._watcher.step()
        except NodeError as exc:  # the node is down, restarting, or refusing: wait for it
            return self._failed(f"node: {exc}", exc_info=False)
        except Exception as exc:  # the database, or a bug: logged with its trace, tried again
            return self._failed(f"{type(exc).__name__}: {exc}", exc_info=True)
        self._error, self._failures = "", 0
        self._last_step = {"at": time.time(), "tip": progress.tip, "cursor": progress.cursor,
                           "scanned": progress.scanned, "rolled_back": progress.rolled_back,
                           "events": len(progress.events)}  # fmt: skip
        return 0.0 if progress.lag > 0 and progress.scanned else self._poll_s

    def _failed(self, error: str, *, exc_info: bool) -> float:
        self._error, self._failures = error, self._failures + 1
        delay = min(self._poll_s * 2 ** min(self._failures - 1, 10), MAX_BACKOFF_S)
        log.warning("chain watcher %s: %s; trying again in %.0f s", self._chain, error, delay, exc_info=exc_info)
        return delay
