"""The log provider (development only): writes the text to the log and calls it sent. No handset
receives it, so no receipt ever says delivered; ``/api/dev/outbox`` shows the code to the developer."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from store.sms.providers import Accepted, Outgoing, Receipt

log = logging.getLogger(__name__)


class LogProvider:
    name = "log"

    async def send(self, message: Outgoing) -> Accepted:
        log.info("sms %s to %s: %s", message.id, message.to, message.text)
        return Accepted(ref=f"log-{message.id}")

    async def receipts(self, pending: Sequence[str]) -> list[Receipt]:
        return []

    async def close(self) -> None:
        return None
