"""Delivery off the request path: the sender's plain core, with no Ray in it (the SmsSender actor,
``actors/sms/sender.py``, runs it in a loop; tests run it directly).

``step`` claims the queued messages that are due and offers each to the providers in order: the first
that accepts it wins (state ``sent``). When every provider refused, that round failed: the message is
queued again after ``retry_s`` x 2^(rounds - 1) (at most ``MAX_BACKOFF_S``) and failed for good after
``max_rounds`` rounds, at once when every refusal was permanent, or once its code expired (it could no
longer be used). ``collect`` reads the providers' delivery receipts into ``delivered`` or ``failed``.
Each failure is kept per provider in the row's ``error``, for operators.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from config.settings import Settings
from store.models import SmsMessage
from store.sms import queue
from store.sms.providers import Outgoing, ProviderError, SmsProvider, build

log = logging.getLogger(__name__)
MAX_BACKOFF_S = 300.0
LEASE_S = 120.0  # a claim older than this is taken again (its sender died mid-send)
BATCH = 50


class Dispatcher:
    def __init__(self, providers: Sequence[SmsProvider], *, max_rounds: int, retry_s: float) -> None:
        if not providers:
            raise ValueError("an SMS dispatcher needs at least one provider")
        self._providers = list(providers)
        self._max_rounds, self._retry_s = max_rounds, retry_s

    @classmethod
    def from_settings(cls, settings: Settings) -> Dispatcher:
        providers = [build(name, settings) for name in settings.sms_chain]
        return cls(providers, max_rounds=settings.sms_max_rounds, retry_s=settings.sms_retry_seconds)

    @property
    def providers(self) -> list[str]:
        return [p.name for p in self._providers]

    async def step(self) -> int:
        """Send what is due; how many messages were handled (sent, requeued or failed)."""
        rows = await queue.claim_due(limit=BATCH, lease_s=LEASE_S)
        for row in rows:
            await self.deliver(row)
        return len(rows)

    async def collect(self) -> int:
        """Apply the delivery receipts that arrived; how many changed a message."""
        changed = 0
        for provider in self._providers:
            pending = await queue.awaiting_receipt(provider.name, limit=200)
            for report in await provider.receipts(pending):
                changed += await queue.receipt(provider.name, report)
        return changed

    async def close(self) -> None:
        for provider in self._providers:
            await provider.close()

    async def deliver(self, row: SmsMessage) -> None:
        """One round for a claimed message (state ``sending``): sent, queued again, or failed."""
        if queue.now() >= row.expires_at:
            await queue.fail(row, f"expired before it could be sent ({row.error or 'not tried'})")
            return
        errors, permanent = [], True
        message = Outgoing(id=row.id, to=row.to, text=row.body)
        for provider in self._providers:
            try:
                accepted = await provider.send(message)
            except ProviderError as exc:
                errors.append(f"{provider.name}: {exc.reason}")
                permanent = permanent and exc.permanent
                log.warning("sms %s to %s: %s refused it: %s", row.id, row.to, provider.name, exc.reason)
                continue
            except Exception as exc:  # a provider's bug must not stop the others, nor the loop
                errors.append(f"{provider.name}: {type(exc).__name__}: {exc}")
                permanent = False
                log.exception("sms %s: provider %s failed", row.id, provider.name)
                continue
            await queue.sent(row, provider.name, accepted, "; ".join(errors))
            return
        rounds = row.rounds + 1
        summary = "; ".join(errors)
        if permanent or rounds >= self._max_rounds:
            await queue.fail(row, summary if permanent else f"{summary} (after {rounds} rounds)")
        else:
            await queue.retry(row, summary, min(self._retry_s * 2 ** (rounds - 1), MAX_BACKOFF_S))
