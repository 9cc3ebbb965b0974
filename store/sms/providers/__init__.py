"""The SMS provider interface: one small contract, one module per provider behind it.

- ``smpp``: an SMSC over SMPP 3.4 (``smpplib``), ``store/sms/providers/smpp.py``;
- ``http``: a gateway in the shape of the big international ones (account SID and token, a form POST,
  a JSON answer), written against Twilio's Messages API, ``store/sms/providers/http.py``;
- ``log``: development only, the text goes to the log, ``store/sms/providers/log.py``.

``settings.sms_providers`` lists them in the order they are tried (primary, then fallbacks).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from config.settings import Settings


@dataclass(frozen=True)
class Outgoing:
    id: int  # the sms_messages row
    to: str  # E.164
    text: str


@dataclass(frozen=True)
class Accepted:
    """A provider took the message: its id there and how many segments it sent."""

    ref: str
    parts: int = 1


@dataclass(frozen=True)
class Receipt:
    """A delivery report: the provider's id of the message, and whether it reached the handset."""

    ref: str
    state: Literal["delivered", "failed"]
    reason: str = ""


class ProviderError(Exception):
    """The provider did not take the message. ``permanent``: it would refuse it again (a number it
    cannot reach, a text it refuses), so retrying it there later is no use."""

    def __init__(self, reason: str, *, permanent: bool = False) -> None:
        super().__init__(reason)
        self.reason, self.permanent = reason, permanent


class SmsProvider(Protocol):
    name: str

    async def send(self, message: Outgoing) -> Accepted:
        """Hand the message over; raises ProviderError. Returns once the provider answered."""
        ...

    async def receipts(self, pending: Sequence[str]) -> list[Receipt]:
        """The delivery reports that arrived since the last call (``pending``: ids of messages sent
        here and not yet final, for providers that are asked rather than told)."""
        ...

    async def close(self) -> None: ...


def build(name: str, settings: Settings) -> SmsProvider:
    """The provider ``name`` (smpp, http or log) configured from ``settings``."""
    if name == "smpp":
        from store.sms.providers.smpp import SmppProvider

        return SmppProvider(settings)
    if name == "http":
        from store.sms.providers.http import TwilioHttp

        return TwilioHttp(settings)
    if name == "log":
        if not settings.is_development:
            raise ValueError("the log SMS provider is for development: production sends through smpp or http")
        from store.sms.providers.log import LogProvider

        return LogProvider()
    raise ValueError(f"unknown SMS provider {name!r}: smpp, http or log")
