"""The SmsSender actor (``sms-sender``, one per cluster, started by the stack): drains the SMS queue
with ``store.sms.dispatch.Dispatcher`` in a loop and reads the providers' delivery receipts.

The API wakes it when it queues a message (a Redis list, ``WAKE_KEY``); otherwise it sleeps until the
next queued message's retry comes due (or a claim's lease ends) and reads receipts every
``sms_receipt_poll_seconds``, waking at least every ``IDLE_MAX_S`` in case a wake-up was lost. Its
state is the queue itself, so a restarted actor (``max_restarts=-1``) simply carries on; a message it
was sending when it died is claimed again once its lease ends.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import ray

from actors.runtime import DbActor
from store.cache import connect_redis
from store.sms import queue
from store.sms.dispatch import Dispatcher
from store.sms.queue import WAKE_KEY

log = logging.getLogger(__name__)
IDLE_S = 1.0  # after a failed pass; and the receipts' period when sms_receipt_poll_seconds is 0
IDLE_MAX_S = 30.0  # the longest sleep with nothing due (was IDLE_S: an idle sender woke every second)
MIN_WAIT_S = 0.01  # a wait of 0 would block on the wake-up list for ever


# Waits on its providers and the database; reserves no CPU.
@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=-1)
class SmsSender(DbActor):
    def __init__(self, settings: dict[str, Any]) -> None:
        super().__init__(settings, "sms sender")
        self._dispatcher = Dispatcher.from_settings(self._settings)
        self._error = ""
        self._receipts_at = 0.0
        # The loop starts here: Ray runs __init__ again when it restarts the actor.
        self._life.loop("send", self._run)

    async def status(self) -> dict[str, Any]:
        """The providers in the order they are tried, and the loop's last error (empty when fine)."""
        return {"providers": self._dispatcher.providers, "error": self._error}

    async def _run(self) -> None:
        redis = connect_redis(self._settings)
        while True:
            try:
                await self._ready()
                while await self._dispatcher.step():
                    pass
                if time.monotonic() >= self._receipts_at:
                    self._receipts_at = time.monotonic() + (self._settings.sms_receipt_poll_seconds or IDLE_S)
                    await self._dispatcher.collect()
                wait = await self._idle_wait()
                self._error = ""
            except Exception as exc:  # the database or Redis is down: logged, tried again
                self._error = f"{type(exc).__name__}: {exc}"
                log.exception("sms sender: a pass failed; trying again")
                wait = IDLE_S
            try:
                await redis.blpop([WAKE_KEY], timeout=wait)
            except Exception:  # Redis is down: wait as long as a wake-up would have
                await asyncio.sleep(IDLE_S)

    async def _idle_wait(self) -> float:
        """Seconds until the next retry or lease end, or the next receipts read, at most ``IDLE_MAX_S``."""
        wait = min(IDLE_MAX_S, self._receipts_at - time.monotonic())
        due = await queue.next_due()
        if due is not None:
            wait = min(wait, (due - queue.now()).total_seconds())
        return max(wait, MIN_WAIT_S)
