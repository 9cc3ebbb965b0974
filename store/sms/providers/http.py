"""The HTTP provider, in the shape of the big international gateways, written against Twilio's
Messages API (REST API version 2010-04-01) with plain httpx:

- send: ``POST {url}/2010-04-01/Accounts/{AccountSid}/Messages.json``, HTTP basic auth with the account
  SID and auth token, a form body of ``To`` (E.164), ``From`` (a number of the account or an
  alphanumeric sender id) and ``Body``; the answer is ``201`` with the message resource as JSON
  (``sid``, ``status``, ``num_segments``), or an error object (``code``, ``message``, ``status``).
- receipts: the message resource read back, ``GET …/Messages/{sid}.json``: ``delivered`` is delivered;
  ``undelivered``, ``failed`` and ``canceled`` are failures with their ``error_code``; anything else
  (queued, sending, sent) is not final yet. Asking keeps the exchange free of a public callback URL.

429 and 5xx answers and network errors are worth another try; any other 4xx is permanent for that
message (an invalid or unreachable ``To``, a sender the account may not use).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import httpx

from config.settings import Settings
from store.sms.providers import Accepted, Outgoing, ProviderError, Receipt

log = logging.getLogger(__name__)
API_VERSION = "2010-04-01"
FAILED = ("undelivered", "failed", "canceled")
POLL_BATCH = 50  # messages asked about per call: one GET each


class TwilioHttp:
    name = "http"

    def __init__(self, settings: Settings) -> None:
        self._sid, self._from = settings.sms_http_account_sid, settings.sms_http_from
        base = f"{settings.sms_http_url.rstrip('/')}/{API_VERSION}/Accounts/{self._sid}/"
        self._client = httpx.AsyncClient(base_url=base, auth=(self._sid, settings.sms_http_auth_token),
                                         timeout=settings.sms_timeout_seconds)  # fmt: skip

    async def send(self, message: Outgoing) -> Accepted:
        form = {"To": message.to, "From": self._from, "Body": message.text}
        resource = await self._call("POST", "Messages.json", data=form)
        if not isinstance(resource.get("sid"), str):
            raise ProviderError(f"http: an answer without a message sid: {resource}")
        return Accepted(ref=resource["sid"], parts=int(resource.get("num_segments") or 1))

    async def receipts(self, pending: Sequence[str]) -> list[Receipt]:
        found = []
        for sid in pending[:POLL_BATCH]:
            try:
                resource = await self._call("GET", f"Messages/{sid}.json")
            except ProviderError as exc:
                log.warning("sms http: cannot read message %s: %s", sid, exc.reason)
                continue
            status = resource.get("status")
            if status == "delivered":
                found.append(Receipt(sid, "delivered"))
            elif status in FAILED:
                reason = f"{status} (error {resource.get('error_code')}: {resource.get('error_message') or ''})"
                found.append(Receipt(sid, "failed", reason.replace(": )", ")")))
        return found

    async def close(self) -> None:
        await self._client.aclose()

    async def _call(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        try:
            answer = await self._client.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise ProviderError(f"http: {type(exc).__name__}: {exc}") from exc
        try:
            body = answer.json()
        except ValueError:
            body = {}
        if not isinstance(body, dict):
            body = {}
        if answer.is_success:
            return body
        reason = f"http {answer.status_code}: {body.get('code', '')} {body.get('message', answer.text[:200])}".strip()
        raise ProviderError(reason, permanent=answer.status_code != 429 and answer.status_code < 500)
