"""What the load test's users share: the API caller and sign-up, the push socket, and the exchange's pairs
and push address (read once per process). Imported by ``locustfile.py`` and the per-domain user
modules beside it (Locust puts this folder on the import path while it loads the locustfile)."""

from __future__ import annotations

import itertools
import json
import os
import time
import urllib.request
import uuid
from decimal import Decimal
from typing import Any

import gevent
import websocket
from locust import FastHttpUser
from locust.env import Environment

PAIRS = [int(p) for p in os.environ.get("LOAD_PAIRS", "1,2,3").split(",") if p.strip()]
PASSWORD = "Load12345"
_ids = itertools.count()


class ApiUser(FastHttpUser):
    """Calls ``/api/`` and checks the envelope: anything but code 1 is a failure."""

    abstract = True
    token = ""

    def api(self, method: str, path: str, name: str | None = None, expected: tuple[int, ...] = (), **kw: Any) -> Any:
        """``data`` of a code-1 answer; None otherwise. ``expected``: HTTP statuses of business answers
        that are a normal outcome of this call under load (counted as successes, answer None)."""
        headers = {"Authorization": self.token} if self.token else {}
        with self.client.request(method, f"/api/{path}", name=name or path, headers=headers,
                                 catch_response=True, **kw) as answer:  # fmt: skip
            try:
                body = answer.json()
            except ValueError:
                answer.failure(f"not JSON: {answer.status_code}")
                return None
            if answer.status_code in expected:
                answer.success()
                return None
            if body.get("code") != 1:
                answer.failure(f"code {body.get('code')}: {body.get('msg')}")
                return None
            return body["data"]

    def sign_up(self, funds: dict[str, str]) -> str:
        """Register a fresh e-mail account, log in, and credit ``funds``; answers the e-mail."""
        email = f"load-{uuid.uuid4().hex[:12]}-{next(_ids)}@example.com"
        self.api("POST", "notify/send_email", json={"to": email, "type": 1})
        sent = self.api("GET", f"dev/outbox?to={email}", name="dev/outbox") or []
        if not sent:
            raise RuntimeError("no code in the dev outbox: is the instance in development mode?")
        self.api("POST", "user/register", json={"type": "email", "account": email, "password": PASSWORD,
                                                "re_password": PASSWORD, "sms_code": sent[0]["code"]})  # fmt: skip
        data = self.api("POST", "user/login", json={"account": email, "password": PASSWORD})
        if not data:
            raise RuntimeError(f"could not log in {email}")
        self.token = data["token"]
        for currency, amount in funds.items():
            self.api("POST", "dev/credit", json={"currency": currency, "amount": amount})
        return email


class PushSocket:
    """A websocket to the push address, read by a greenlet that hands every message to ``on_push``;
    ``report`` counts a delivery (or a failure) as a ``WS`` request in Locust's figures."""

    environment: Environment

    def open_push(self, channels: list[str], token: str = "") -> None:
        self.ws = websocket.create_connection(push_url(self.environment), timeout=10)
        if token:
            self.ws.send(json.dumps({"type": "login", "token": token}))
        for channel in channels:
            self.ws.send(json.dumps({"type": "sub", "params": channel}))
        self.reader = gevent.spawn(self._read)

    def close_push(self) -> None:
        self.reader.kill()
        self.ws.close()

    def ping_push(self) -> None:
        self.ws.send(json.dumps({"type": "ping"}))

    def _read(self) -> None:
        while True:
            try:
                raw = self.ws.recv()
            except websocket.WebSocketTimeoutException:
                continue
            except Exception as exc:  # the connection ended: one failure, then stop reading
                self.report("connection", 0, exc)
                return
            self.on_push(raw)

    def on_push(self, raw: str) -> None:
        raise NotImplementedError

    def report(self, name: str, ms: float, exc: Exception | None, size: int = 0, kind: str = "WS") -> None:
        self.environment.events.request.fire(request_type=kind, name=name, response_time=ms,
                                             response_length=size, exception=exc, context={})  # fmt: skip


def since(ms: float) -> float:
    """Milliseconds from ``ms`` (this machine's clock) to now, never negative."""
    return max(0.0, time.time() * 1000 - ms)


_cache: dict[str, Any] = {}


def push_url(environment: Environment) -> str:
    if "push" not in _cache:
        url = os.environ.get("LOAD_WS_URL")
        if not url:
            with urllib.request.urlopen(f"{environment.host}/api/default/push_address", timeout=10) as answer:
                url = json.load(answer)["data"]["url"]
        _cache["push"] = url
    return _cache["push"]


def matches(environment: Environment) -> list[dict[str, Any]]:
    if "matches" not in _cache:
        with urllib.request.urlopen(f"{environment.host}/api/market/currency_matches", timeout=10) as answer:
            groups = json.load(answer)["data"]
        _cache["matches"] = [m for group in groups for m in group.get("matches", [])]
    return _cache["matches"]


def symbols(environment: Environment) -> dict[int, str]:
    return {m["id"]: m["symbol"] for m in matches(environment) if "symbol" in m}


def min_notional(environment: Environment) -> dict[int, Decimal]:
    return {m["id"]: Decimal(m["min_notional"]) for m in matches(environment) if "min_notional" in m}
