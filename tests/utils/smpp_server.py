"""A small SMSC for the tests, built on smpplib's PDUs: it speaks SMPP 3.4 over TCP on a loopback port,
answers binds (transmitter, receiver, transceiver) for one system id and password, records every
``submit_sm`` as it arrived (the raw fields: coding, esm_class, the short message's bytes), answers it
with a message id, and sends a delivery receipt (``deliver_sm``, esm_class 0x04, with the
``receipted_message_id`` and ``message_state`` TLVs and the appendix B text) to the same system's
receiver binds. ``refuse`` makes it answer every submit with that command status.
"""

from __future__ import annotations

import queue
import select
import socket
import socketserver
import struct
import threading
from dataclasses import dataclass, field
from typing import Any

from smpplib import consts, smpp
from smpplib.client import SimpleSequenceGenerator

BINDS = {"bind_transmitter", "bind_receiver", "bind_transceiver"}


@dataclass
class Submitted:
    system_id: str
    source_addr: str
    source_addr_ton: int
    destination_addr: str
    dest_addr_ton: int
    data_coding: int
    esm_class: int
    registered_delivery: int
    short_message: bytes
    message_id: str

    @property
    def udh(self) -> bytes:
        """The user data header (empty without UDHI)."""
        return self.short_message[: self.short_message[0] + 1] if self.esm_class & 0x40 else b""

    @property
    def payload(self) -> bytes:
        return self.short_message[len(self.udh) :]


@dataclass
class SmscState:
    system_id: str
    password: str
    binds: list[tuple[str, str]] = field(default_factory=list)  # (command, system id) in order
    submitted: list[Submitted] = field(default_factory=list)
    receipt_stat: str = "DELIVRD"
    refuse: int = 0  # a command status to answer every submit_sm with (0: accept)
    receivers: list[queue.Queue[Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    counter: int = 0

    def texts(self) -> list[str]:
        """The submitted messages' texts, parts joined, decoded by their data coding."""
        joined: list[str] = []
        pending = b""
        for s in self.submitted:
            pending += s.payload
            udh = s.udh
            if udh and udh[4] != udh[5]:  # IE 0x00: ref, total, index; wait for the last part
                continue
            joined.append(pending.decode("utf-16-be" if s.data_coding == consts.SMPP_ENCODING_ISO10646 else "latin-1"))
            pending = b""
        return joined


class _Handler(socketserver.BaseRequestHandler):
    server: _Server

    def handle(self) -> None:
        state, seq = self.server.state, SimpleSequenceGenerator()
        sock: socket.socket = self.request
        outgoing: queue.Queue[Any] = queue.Queue()
        bound_as = ""
        while True:
            while not outgoing.empty():
                sock.sendall(outgoing.get().generate())
            readable, _, _ = select.select([sock], [], [], 0.05)
            if not readable:
                continue
            head = _read(sock, 4)
            if not head:
                return
            raw = head + _read(sock, struct.unpack(">L", head)[0] - 4)
            pdu = smpp.parse_pdu(raw, client=seq, allow_unknown_opt_params=True)
            if pdu.command in BINDS:
                ok = pdu.system_id.decode() == state.system_id and pdu.password.decode() == state.password
                with state.lock:
                    state.binds.append((pdu.command, pdu.system_id.decode()))
                    if ok and pdu.command != "bind_transmitter":
                        state.receivers.append(outgoing)
                bound_as = pdu.command if ok else ""
                self._answer(sock, seq, pdu, f"{pdu.command}_resp", 0 if ok else consts.SMPP_ESME_RBINDFAIL,
                             system_id="TESTSMSC")  # fmt: skip
            elif pdu.command == "submit_sm":
                if bound_as not in ("bind_transmitter", "bind_transceiver"):
                    self._answer(sock, seq, pdu, "submit_sm_resp", consts.SMPP_ESME_RINVBNDSTS, message_id="0")
                    continue
                self._submit(sock, seq, pdu)
            elif pdu.command == "enquire_link":
                self._answer(sock, seq, pdu, "enquire_link_resp", 0)
            elif pdu.command == "unbind":
                self._answer(sock, seq, pdu, "unbind_resp", 0)
                return
            # deliver_sm_resp and anything else: nothing to answer

    def _submit(self, sock: socket.socket, seq: SimpleSequenceGenerator, pdu: Any) -> None:
        state = self.server.state
        if state.refuse:
            self._answer(sock, seq, pdu, "submit_sm_resp", state.refuse, message_id="0")
            return
        with state.lock:
            state.counter += 1
            message_id = f"smsc{state.counter}"
            state.submitted.append(Submitted(
                state.system_id, pdu.source_addr.decode(), pdu.source_addr_ton, pdu.destination_addr.decode(),
                pdu.dest_addr_ton, pdu.data_coding, pdu.esm_class, pdu.registered_delivery,
                bytes(pdu.short_message or b""), message_id))  # fmt: skip
            receivers = list(state.receivers)
        self._answer(sock, seq, pdu, "submit_sm_resp", 0, message_id=message_id)
        if pdu.registered_delivery:
            stat = state.receipt_stat
            text = f"id:{message_id} sub:001 dlvrd:{int(stat == 'DELIVRD'):03d} submit date:2401010000 " \
                   f"done date:2401010001 stat:{stat} err:000 text:"  # fmt: skip
            code = {"DELIVRD": consts.SMPP_MESSAGE_STATE_DELIVERED}.get(stat, consts.SMPP_MESSAGE_STATE_UNDELIVERABLE)
            for receiver in receivers:
                receiver.put(smpp.make_pdu("deliver_sm", client=seq, esm_class=0x04, source_addr=pdu.destination_addr.decode(),
                                           destination_addr=pdu.source_addr.decode(), short_message=text.encode(),
                                           receipted_message_id=message_id, message_state=code))  # fmt: skip

    @staticmethod
    def _answer(sock: socket.socket, seq: SimpleSequenceGenerator, request: Any, command: str, status: int,
                **fields: Any) -> None:  # fmt: skip
        answer = smpp.make_pdu(command, client=seq, status=status, **fields)
        answer.sequence = request.sequence
        sock.sendall(answer.generate())


def _read(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            return b""
        data += chunk
    return data


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    state: SmscState


class Smsc:
    """The test SMSC on 127.0.0.1:``port``, in threads of the test process; ``stop()`` closes it."""

    def __init__(self, system_id: str = "exchange", password: str = "secret") -> None:
        self.state = SmscState(system_id, password)
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.state = self.state
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
