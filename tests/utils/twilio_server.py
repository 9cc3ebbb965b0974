"""A local stand-in for Twilio's Messages API (REST version 2010-04-01) that checks each request the way
Twilio documents it: ``POST /2010-04-01/Accounts/{AccountSid}/Messages.json`` with HTTP basic auth
(the account SID and auth token), a form body (``application/x-www-form-urlencoded``) with ``To`` in
E.164, ``From`` and a non-empty ``Body``; it answers ``201`` with the message resource (``sid`` SM + 32
hex digits, ``status`` queued, ``num_segments``) or Twilio's error object (``code``, ``message``,
``more_info``, ``status``): 20003 for bad credentials, 21211 for an invalid ``To``, 21602 for a missing
body. ``GET …/Messages/{sid}.json`` reads a message back with the status ``final_status`` sets.
``down`` makes every request answer 503.
"""

from __future__ import annotations

import base64
import json
import re
import threading
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

E164 = re.compile(r"^\+[1-9][0-9]{1,14}$")


@dataclass
class TwilioState:
    sid: str
    token: str
    messages: dict[str, dict[str, str]] = field(default_factory=dict)  # sid -> the form it was sent with
    final_status: str = "delivered"
    down: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass

    def _answer(self, status: int, body: dict[str, object]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, code: int, message: str) -> None:
        self._answer(status, {"code": code, "message": message, "status": status,
                              "more_info": f"https://www.twilio.com/docs/errors/{code}"})  # fmt: skip

    def _authorised(self) -> bool:
        state = self.server.state
        expected = base64.b64encode(f"{state.sid}:{state.token}".encode()).decode()
        if self.headers.get("Authorization") != f"Basic {expected}":
            self._error(401, 20003, "Authenticate")
            return False
        return True

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        state = self.server.state
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode()
        if state.down:
            return self._error(503, 20500, "Service unavailable")
        if self.path != f"/2010-04-01/Accounts/{state.sid}/Messages.json":
            return self._error(404, 20404, "The requested resource was not found")
        if not self._authorised():
            return None
        if self.headers.get("Content-Type", "").split(";")[0] != "application/x-www-form-urlencoded":
            return self._error(400, 20001, "Expected a form body")
        form = {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}
        if not E164.match(form.get("To", "")):
            return self._error(400, 21211, f"The 'To' number {form.get('To', '')} is not a valid phone number.")
        if not form.get("From"):
            return self._error(400, 21603, "A 'From' phone number is required.")
        if not form.get("Body"):
            return self._error(400, 21602, "Message body is required.")
        sid = "SM" + uuid.uuid4().hex
        with state.lock:
            state.messages[sid] = form
        segments = 1 if len(form["Body"]) <= 70 else -(-len(form["Body"]) // 67)
        return self._answer(201, {"sid": sid, "account_sid": state.sid, "to": form["To"], "from": form["From"],
                                  "body": form["Body"], "status": "queued", "num_segments": str(segments),
                                  "api_version": "2010-04-01", "error_code": None, "error_message": None,
                                  "uri": f"/2010-04-01/Accounts/{state.sid}/Messages/{sid}.json"})  # fmt: skip

    def do_GET(self) -> None:  # noqa: N802
        state = self.server.state
        if state.down:
            return self._error(503, 20500, "Service unavailable")
        match = re.fullmatch(rf"/2010-04-01/Accounts/{state.sid}/Messages/(SM[0-9a-f]{{32}})\.json", self.path)
        if not match or match.group(1) not in state.messages:
            return self._error(404, 20404, "The requested resource was not found")
        if not self._authorised():
            return None
        failed = state.final_status in ("undelivered", "failed")
        return self._answer(200, {"sid": match.group(1), "status": state.final_status,
                                  "error_code": 30003 if failed else None,
                                  "error_message": "Unreachable destination handset" if failed else None})  # fmt: skip


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    state: TwilioState


class FakeTwilio:
    """The stand-in on http://127.0.0.1:``port``, in a thread of the test process."""

    def __init__(self, sid: str = "AC" + "0" * 32, token: str = "test-token") -> None:
        self.state = TwilioState(sid, token)
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.state = self.state
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def bodies(self, to: str) -> list[str]:
        with self.state.lock:
            return [m["Body"] for m in self.state.messages.values() if m["To"] == to]

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
