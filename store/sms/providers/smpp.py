"""The SMPP 3.4 provider (``smpplib``): an SMSC reached over two binds, as the protocol intends.

- A **transmitter** bind (``bind_transmitter``) submits: each text goes as ``submit_sm`` PDUs, encoded by
  ``smpplib.gsm.make_parts``: the GSM 03.38 default alphabet (``data_coding`` 0) when every character
  has a place in it, UCS2 (``data_coding`` 8, UTF-16BE) otherwise: Chinese, Japanese, most accents. A
  text longer than one segment (160 GSM characters, 70 UCS2) is split into parts of 153 / 67 with a
  concatenation header (UDH IE 0x00: reference, total, index) and ``esm_class`` 0x40 (UDHI). Every
  part asks for a delivery receipt (``registered_delivery`` 1); the SMSC's ``message_id`` of the first
  part names the message.
- A **receiver** bind (``bind_receiver``) reads the receipts: ``deliver_sm`` with ``esm_class`` 0x04,
  answered with ``deliver_sm_resp``. The outcome is the ``message_state`` TLV, or the ``stat:`` field of
  the receipt text (SMPP 3.4 appendix B) when the SMSC sends no TLV; the id likewise
  (``receipted_message_id``, else ``id:``).

smpplib's client is blocking: its calls run in a worker thread, one at a time per bind. A connection
the SMSC dropped is opened and bound again on the next call. ``ESME_RTHROTTLED``, ``ESME_RMSGQFUL`` and
``ESME_RSYSERR`` are worth another try; any other refusal of a ``submit_sm`` is permanent.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Sequence
from typing import Any

from smpplib import consts, gsm
from smpplib.client import Client
from smpplib.exceptions import ConnectionError as SmppConnectionError
from smpplib.exceptions import PDUError

from config.settings import Settings
from store.sms.providers import Accepted, Outgoing, ProviderError, Receipt

log = logging.getLogger(__name__)
TEMPORARY = (consts.SMPP_ESME_RTHROTTLED, consts.SMPP_ESME_RMSGQFUL, consts.SMPP_ESME_RSYSERR)
RECEIPT_ESM = 0x04  # esm_class: SMSC delivery receipt
FINAL_STATES = {
    consts.SMPP_MESSAGE_STATE_DELIVERED: "DELIVRD",
    consts.SMPP_MESSAGE_STATE_EXPIRED: "EXPIRED",
    consts.SMPP_MESSAGE_STATE_DELETED: "DELETED",
    consts.SMPP_MESSAGE_STATE_UNDELIVERABLE: "UNDELIV",
    consts.SMPP_MESSAGE_STATE_UNKNOWN: "UNKNOWN",
    consts.SMPP_MESSAGE_STATE_REJECTED: "REJECTD",
}
RECEIPT_FIELD = re.compile(rb"(id|stat|err):(\S+)")
RECONNECT_S = 5.0  # the receiver waits this long after a failed connect before it tries again


def _text(value: Any) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else str(value or "")


class SmppProvider:
    name = "smpp"

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._tx: Client | None = None
        self._rx: Client | None = None
        self._rx_retry_at = 0.0
        self._tx_lock, self._rx_lock = asyncio.Lock(), asyncio.Lock()
        self._arrived: list[Receipt] = []
        source = settings.sms_smpp_source
        numeric = source.lstrip("+").isdigit()
        self._source = {"source_addr": source.lstrip("+"),
                        "source_addr_ton": consts.SMPP_TON_INTL if numeric else consts.SMPP_TON_ALNUM,
                        "source_addr_npi": consts.SMPP_NPI_ISDN if numeric else consts.SMPP_NPI_UNK}  # fmt: skip

    async def send(self, message: Outgoing) -> Accepted:
        async with self._tx_lock:
            return await asyncio.to_thread(self._send, message)

    async def receipts(self, pending: Sequence[str]) -> list[Receipt]:
        async with self._rx_lock:
            await asyncio.to_thread(self._read_receipts)
            found, self._arrived = self._arrived, []
            return found

    async def close(self) -> None:
        async with self._tx_lock, self._rx_lock:
            for client in (self._tx, self._rx):
                if client is not None:
                    await asyncio.to_thread(self._close, client)
            self._tx = self._rx = None

    # --- the transmitter (in a worker thread) -----------------------------------------------------------

    def _send(self, message: Outgoing) -> Accepted:
        reused = self._tx is not None
        try:
            return self._submit(message)
        except (SmppConnectionError, OSError) as exc:
            self._drop("_tx")
            if not reused:
                raise ProviderError(f"smpp: cannot reach the SMSC: {exc or type(exc).__name__}") from exc
        try:  # the SMSC closed an idle bind: once more on a fresh one
            return self._submit(message)
        except (SmppConnectionError, OSError) as exc:
            self._drop("_tx")
            raise ProviderError(f"smpp: cannot reach the SMSC: {exc or type(exc).__name__}") from exc

    def _submit(self, message: Outgoing) -> Accepted:
        client = self._tx or self._bind("bind_transmitter")
        self._tx = client
        parts, coding, esm_class = gsm.make_parts(message.text)
        ids = []
        for part in parts:
            pdu = client.send_message(**self._source, dest_addr_ton=consts.SMPP_TON_INTL,
                                      dest_addr_npi=consts.SMPP_NPI_ISDN, destination_addr=message.to.lstrip("+"),
                                      short_message=part, data_coding=coding, esm_class=esm_class,
                                      registered_delivery=consts.SMPP_SMSC_DELIVERY_RECEIPT_BOTH)  # fmt: skip
            answer = self._answer(client, pdu.sequence)
            if answer.status != consts.SMPP_ESME_ROK:
                why = consts.DESCRIPTIONS.get(answer.status, "unknown status")
                raise ProviderError(f"smpp: submit_sm refused: 0x{answer.status:08x} {why}",
                                    permanent=answer.status not in TEMPORARY)  # fmt: skip
            ids.append(_text(answer.message_id))
        return Accepted(ref=ids[0], parts=len(ids))

    def _answer(self, client: Client, sequence: int) -> Any:
        """The submit_sm_resp of ``sequence``, answering the SMSC's enquire_links meanwhile."""
        while True:
            pdu = client.read_pdu()
            if pdu.command == "enquire_link":
                client._enquire_link_received(pdu)
            elif pdu.command in ("submit_sm_resp", "generic_nack") and pdu.sequence == sequence:
                return pdu

    # --- the receiver (in a worker thread) --------------------------------------------------------------

    def _read_receipts(self) -> None:
        if self._rx is None:
            if time.monotonic() < self._rx_retry_at:
                return
            try:
                self._rx = self._bind("bind_receiver")
            except (SmppConnectionError, PDUError, ProviderError, OSError) as exc:
                self._rx_retry_at = time.monotonic() + RECONNECT_S
                log.warning("sms smpp: cannot bind the receiver: %s", exc)
                return
            self._rx.set_message_received_handler(self._on_deliver)
        try:
            self._rx.poll()
        except (SmppConnectionError, PDUError, OSError) as exc:
            log.warning("sms smpp: the receiver bind broke: %s", exc)
            self._drop("_rx")

    def _on_deliver(self, pdu: Any) -> int:
        if not (pdu.esm_class or 0) & RECEIPT_ESM:
            return consts.SMPP_ESME_ROK  # a message from a handset: not ours to read
        fields = {k.decode(): v for k, v in RECEIPT_FIELD.findall(pdu.short_message or b"")}
        ref = _text(pdu.receipted_message_id) or _text(fields.get("id"))
        stat = FINAL_STATES.get(pdu.message_state) if pdu.message_state else _text(fields.get("stat"))
        if not ref or not stat or stat in ("ENROUTE", "ACCEPTD"):
            return consts.SMPP_ESME_ROK  # not final yet
        if stat == "DELIVRD":
            self._arrived.append(Receipt(ref, "delivered"))
        else:
            self._arrived.append(Receipt(ref, "failed", f"receipt {stat} err:{_text(fields.get('err')) or '-'}"))
        return consts.SMPP_ESME_ROK

    # --- binds ------------------------------------------------------------------------------------------

    def _bind(self, how: str) -> Client:
        s = self._settings
        client = Client(s.sms_smpp_host, s.sms_smpp_port, timeout=s.sms_timeout_seconds,
                        allow_unknown_opt_params=True)  # fmt: skip
        client.connect()
        try:
            getattr(client, how)(system_id=s.sms_smpp_system_id, password=s.sms_smpp_password,
                                 system_type=s.sms_smpp_system_type)  # fmt: skip
        except PDUError as exc:
            client.disconnect()
            raise ProviderError(f"smpp: {how} refused: {exc}") from exc
        return client

    def _drop(self, which: str) -> None:
        client = getattr(self, which)
        setattr(self, which, None)
        if client is not None:
            client.disconnect()

    @staticmethod
    def _close(client: Client) -> None:
        try:
            client.unbind()
        except (SmppConnectionError, PDUError, OSError):
            pass
        client.disconnect()
