"""Factories for API tests: unique accounts, codes read from the dev outbox, registered users."""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx

T = TypeVar("T")
_seq = itertools.count()
PASSWORD = "Secret123"


def unique_email(tag: str = "u") -> str:
    return f"{tag}{os.getpid()}x{next(_seq)}x{time.time_ns() % 10**9}@example.com"


# A valid mobile number of each test area (libphonenumber's plans, store/sms/phones.py): a prefix, then
# free digits. 712 is a United States area code and a United Kingdom mobile range at once.
MOBILE_SHAPES = {1: ("712", 7), 2: ("712", 7), 3: ("712", 7), 5: ("61", 7), 10: ("80", 8), 12: ("61", 6),
                 21: ("40", 7), 34: ("138", 8)}  # fmt: skip


def unique_mobile(area_id: int = 1) -> str:
    """A number no other test of the session uses, valid in the area's country."""
    prefix, free = MOBILE_SHAPES[area_id]
    n = ((os.getpid() % 97) * 82_000 + next(_seq) + time.time_ns() // 10**9 % 1000 * 80) % 10 ** (free - 1)
    lead = 2 + n % 8 if prefix == "712" else n // 10 ** (free - 2) % 10  # a US exchange starts 2-9
    return f"{prefix}{lead}{n % 10 ** (free - 1):0{free - 1}d}"


def ok(response: httpx.Response) -> Any:
    """Assert a success envelope and return its data."""
    body = response.json()
    assert response.status_code == 200 and body["code"] == 1, (response.status_code, body)
    return body["data"]


def error(response: httpx.Response, status: int, code: int = 0) -> str:
    """Assert an error envelope with this status and code; return its message."""
    body = response.json()
    assert (response.status_code, body["code"]) == (status, code), (response.status_code, body)
    assert body["data"] is None and body["msg"], body
    return body["msg"]


def last_code(api: httpx.Client, to: str, purpose: int | None = None) -> str:
    sent = ok(api.get("dev/outbox", params={"to": to}))
    matching = [m for m in sent if purpose is None or m["type"] == purpose]
    assert matching, f"no code of type {purpose} was sent to {to}"
    return matching[0]["code"]


def send_code(api: httpx.Client, to: str, purpose: int, *, token: str | None = None, area_id: int = 1) -> str:
    headers = {"Authorization": token} if token else {}
    if "@" in to:
        ok(api.post("notify/send_email", json={"to": to, "type": purpose}, headers=headers))
    else:
        ok(api.post("notify/send_sms", json={"to": to, "type": purpose, "area_id": area_id}, headers=headers))
    return last_code(api, to, purpose)


@dataclass
class Member:
    account: str
    password: str
    token: str
    uid: int

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": self.token}


def register(api: httpx.Client, account: str | None = None, *, area_id: int = 1, invite_code: str = "") -> str:
    account = account or unique_email()
    kind = "email" if "@" in account else "mobile"
    code = send_code(api, account, 1, area_id=area_id)
    body = {
        "type": kind,
        "account": account,
        "password": PASSWORD,
        "re_password": PASSWORD,
        "sms_code": code,
        "invite_code": invite_code,
        "area_id": area_id,
    }
    ok(api.post("user/register", json=body))
    return account


def login(api: httpx.Client, account: str, password: str = PASSWORD, **extra: Any) -> httpx.Response:
    kind = "email" if "@" in account else "mobile"
    return api.post("user/login", json={"account": account, "password": password, "login_type": kind, **extra})


def member(api: httpx.Client, account: str | None = None, **kw: Any) -> Member:
    """A registered, logged-in user."""
    account = register(api, account, **kw)
    data = ok(login(api, account))
    return Member(account=account, password=PASSWORD, token=data["token"], uid=data["uid"])


# --- White-box helpers for API tests: stand in for the passage of time and read stored rows. ---


def auth(token: str) -> dict[str, str]:
    return {"Authorization": token}


def redis_client(settings: Any) -> Any:
    """A synchronous client on the Redis of the test session."""
    from redis import Redis as SyncRedis

    return SyncRedis.from_url(settings.redis_url, decode_responses=True)


def target_keys(r: Any, prefix: str, target: str) -> list[str]:
    """The Redis keys ``<prefix><code target>`` of an e-mail, or of a phone number under any dialling
    code (``serve.security.code_target``: ``+44 5551234``)."""
    if "@" in target:
        return [f"{prefix}{target.lower()}"]
    return sorted(r.scan_iter(match=f"{prefix}+* {target}", count=1000))


def expire_code(settings: Any, purpose: int, target: str) -> None:
    """Let the stored code of (purpose, target) reach its TTL now, as if ``code_ttl_seconds`` had passed."""
    from store.sessions import PREFIX

    with redis_client(settings) as r:
        keys = [k for k in target_keys(r, f"{PREFIX}code:{purpose}:", target) if r.exists(k)]
        assert keys, f"no live code of type {purpose} for {target}"
        for key in keys:
            r.pexpire(key, 1)
        deadline = time.monotonic() + 2
        while r.exists(*keys):
            assert time.monotonic() < deadline, "the code did not expire"
            time.sleep(0.005)


def end_resend_window(settings: Any, target: str) -> None:
    """Close the resend window of a target, as if ``code_resend_seconds`` had passed."""
    from store.sessions import PREFIX

    with redis_client(settings) as r:
        keys = target_keys(r, f"{PREFIX}code_lock:", target)
        assert keys and r.delete(*keys) >= 1, f"no resend window open for {target}"


def wrong_code(code: str) -> str:
    """A six-digit code that is certainly not ``code``."""
    return f"{(int(code) + 1) % 10**6:06d}"


def run_apart(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to its end from sync code, also when the caller is itself inside an event
    loop (an async test or fixture): on a thread of its own."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()


def end_security_cooldown(settings: Any, uid: int) -> None:
    """Move the user's last security change (deal password, binding, password) back past the
    withdrawal cool-off, as if ``security_cooldown_hours`` had passed since."""
    from datetime import UTC, datetime, timedelta

    hours = getattr(settings, "security_cooldown_hours", 24)
    then = datetime.now(UTC) - timedelta(hours=hours, minutes=1)
    if settings.database_url:
        import asyncpg

        async def update() -> str:
            conn = await asyncpg.connect(settings.db_url.replace("postgres://", "postgresql://", 1))
            try:
                return await conn.execute("UPDATE users SET security_changed_at = $1 WHERE id = $2", then, uid)
            finally:
                await conn.close()

        assert run_apart(update) == "UPDATE 1", f"no user {uid}"
        return
    import sqlite3

    conn = sqlite3.connect(str(settings.data_dir / "exchange.sqlite3"))
    try:
        # as tortoise writes an aware datetime to SQLite
        cursor = conn.execute("UPDATE users SET security_changed_at = ? WHERE id = ?", (then.isoformat(" "), uid))
        conn.commit()
        assert cursor.rowcount == 1, f"no user {uid}"
    finally:
        conn.close()


def db_user(settings: Any, uid: int) -> dict[str, Any]:
    """The stored ``users`` row of a user (SQLite or PostgreSQL, whichever the session runs on)."""
    if settings.database_url:
        import asyncpg

        async def fetch() -> dict[str, Any]:
            conn = await asyncpg.connect(settings.db_url.replace("postgres://", "postgresql://", 1))
            try:
                row = await conn.fetchrow("SELECT * FROM users WHERE id = $1", uid)
            finally:
                await conn.close()
            assert row is not None, f"no user {uid}"
            return dict(row)

        return run_apart(fetch)
    import sqlite3

    conn = sqlite3.connect(str(settings.data_dir / "exchange.sqlite3"))
    try:
        conn.row_factory = sqlite3.Row
        row = conn.execute("SELECT * FROM users WHERE id = ?", (uid,)).fetchone()
    finally:
        conn.close()
    assert row is not None, f"no user {uid}"
    return dict(row)


def fresh_code(
    api: httpx.Client, settings: Any, to: str, purpose: int, *, token: str | None = None, area_id: int = 1
) -> str:
    """Send a code to a target that may have had one moments ago (registering sends one), skipping the wait."""
    from store.sessions import PREFIX

    with redis_client(settings) as r:
        if keys := target_keys(r, f"{PREFIX}code_lock:", to):
            r.delete(*keys)
    return send_code(api, to, purpose, token=token, area_id=area_id)
