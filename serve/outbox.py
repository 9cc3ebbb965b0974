"""Delivery of verification codes.

E-mail goes over SMTP when ``EXCHANGE_SMTP_HOST`` is set (else to the log). A phone code is queued
durably for the SMS sender (``store/sms``: the SmsSender actor hands it to the configured providers,
off the request path), after the country's per-minute ceiling (``store/sms/ceiling.py``) admits it.
In development mode every message is also kept in Redis, newest first, for ``GET /api/dev/outbox``
(the route does not exist in production).
"""

from __future__ import annotations

import asyncio
import json
import logging
import smtplib
import time
from dataclasses import dataclass
from email.message import EmailMessage

from redis.asyncio import Redis

from config.settings import Settings
from serve.i18n import N_, translate
from store.sessions import PREFIX
from store.sms import queue
from store.sms.ceiling import CountryCeiling
from store.sms.phones import Phone

log = logging.getLogger(__name__)

CODE_TEXT = N_("Your verification code is {code}. It expires in {minutes} minutes.")
CODE_SUBJECT = N_("Your verification code")
DEV_KEEP = 50


@dataclass(frozen=True)
class Outbox:
    redis: Redis
    settings: Settings

    async def send_code(
        self, *, to: str, channel: str, purpose: int, code: str, lang: str | None, phone: Phone | None = None
    ) -> None:
        """Send (e-mail) or queue (``phone``, the number ``to`` in E.164) a code. A phone code is durable
        once this returns; raises SMS_COUNTRY_BUSY, sending nothing, when its country's ceiling is reached."""
        text = translate(CODE_TEXT, lang, code=code, minutes=self.settings.code_ttl_seconds // 60)
        if phone is not None:
            await CountryCeiling(self.redis, self.settings).take(phone.region)
            await queue.enqueue(phone=phone, purpose=purpose, text=text, secret=code,
                                ttl_s=self.settings.code_ttl_seconds)  # fmt: skip
            await queue.wake(self.redis)
        elif channel == "email" and self.settings.smtp_host:
            await asyncio.to_thread(self._smtp, to, translate(CODE_SUBJECT, lang), text)
        else:
            log.info("outbox %s to %s (type %s): %s", channel, to, purpose, text)
        if self.settings.is_development:
            entry = json.dumps(
                {"to": to, "channel": channel, "type": purpose, "code": code, "text": text, "sent_at": int(time.time())}
            )
            key = f"{PREFIX}outbox:{to}"
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.lpush(key, entry)
                pipe.ltrim(key, 0, DEV_KEEP - 1)
                pipe.expire(key, 86400)
                await pipe.execute()

    async def read(self, to: str) -> list[dict[str, object]]:
        """What was sent to a target, newest first (development only)."""
        return [json.loads(e) for e in await self.redis.lrange(f"{PREFIX}outbox:{to}", 0, DEV_KEEP - 1)]

    def _smtp(self, to: str, subject: str, text: str) -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = self.settings.smtp_from, to, subject
        msg.set_content(text)
        with smtplib.SMTP(self.settings.smtp_host or "", self.settings.smtp_port, timeout=10) as smtp:
            smtp.starttls()
            if self.settings.smtp_user:
                smtp.login(self.settings.smtp_user, self.settings.smtp_password or "")
            smtp.send_message(msg)
