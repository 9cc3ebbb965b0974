"""The durable SMS queue: rows of ``sms_messages`` (store/models/sms.py), written on the request path
and moved through their states by the sender (store/sms/dispatch.py). Every change of state is one
conditional UPDATE on the state it expects, so a claim or a receipt that lost a race changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from redis.asyncio import Redis

from store.models import SmsMessage, SmsState
from store.sessions import PREFIX
from store.sms.phones import Phone
from store.sms.providers import Accepted, Receipt

MASK = "******"
WAKE_KEY = f"{PREFIX}sms_wake"  # the API pushes here when it queues a message; the sender waits on it
FINAL = (SmsState.DELIVERED, SmsState.FAILED)


def now() -> datetime:
    return datetime.now(UTC)


def redact(text: str, secret: str) -> str:
    """The text as operators see it: the code masked."""
    return text.replace(secret, MASK) if secret else text


async def enqueue(*, phone: Phone, purpose: int, text: str, secret: str, ttl_s: int) -> SmsMessage:
    """Queue a text to ``phone``; durable once this returns. ``secret`` (the code) is masked in what
    operators see; the message is not sent after ``ttl_s`` seconds (the code's lifetime)."""
    at = now()
    return await SmsMessage.create(to=phone.e164, region=phone.region, purpose=purpose, body=text,
                                   redacted=redact(text, secret), next_at=at,
                                   expires_at=at + timedelta(seconds=ttl_s))  # fmt: skip


async def wake(redis: Redis) -> None:
    """Tell the sender a message is waiting (at most one wake-up is kept: it drains the whole queue)."""
    async with redis.pipeline(transaction=True) as pipe:
        pipe.lpush(WAKE_KEY, 1)
        pipe.ltrim(WAKE_KEY, 0, 0)
        await pipe.execute()


async def claim_due(*, limit: int, lease_s: float) -> list[SmsMessage]:
    """Queued messages whose time has come, and claims older than their lease (a sender that died while
    sending: the message is sent again, at least once rather than at most once), claimed for ``lease_s``."""
    at = now()
    due = await SmsMessage.filter(state__in=(SmsState.QUEUED, SmsState.SENDING), next_at__lte=at) \
        .order_by("next_at", "id").limit(limit)  # fmt: skip
    claimed = []
    for row in due:
        taken = await SmsMessage.filter(id=row.id, state=row.state, next_at=row.next_at).update(
            state=SmsState.SENDING, next_at=at + timedelta(seconds=lease_s)
        )
        if taken:
            claimed.append(row)
    return claimed


async def next_due() -> datetime | None:
    """When the next queued message is due, or the next claim's lease ends (None: nothing waits)."""
    row = await SmsMessage.filter(state__in=(SmsState.QUEUED, SmsState.SENDING)).order_by("next_at") \
        .first().values_list("next_at", flat=True)  # fmt: skip
    return row if isinstance(row, datetime) else None


async def sent(row: SmsMessage, provider: str, accepted: Accepted, errors: str) -> None:
    """A provider took it: wait for its receipt. The text is no longer needed: only the masked one stays."""
    await SmsMessage.filter(id=row.id, state=SmsState.SENDING).update(
        state=SmsState.SENT, provider=provider, provider_ref=accepted.ref, parts=accepted.parts, error=errors,
        sent_at=now(), body=row.redacted,
    )  # fmt: skip


async def retry(row: SmsMessage, errors: str, after_s: float) -> None:
    """A round failed: queued again ``after_s`` seconds from now."""
    await SmsMessage.filter(id=row.id, state=SmsState.SENDING).update(
        state=SmsState.QUEUED, rounds=row.rounds + 1, error=errors, next_at=now() + timedelta(seconds=after_s)
    )


async def fail(row: SmsMessage, reason: str) -> None:
    """Given up: failed with ``reason``, the text masked."""
    await SmsMessage.filter(id=row.id, state=SmsState.SENDING).update(
        state=SmsState.FAILED, error=reason, done_at=now(), body=row.redacted
    )


async def receipt(provider: str, report: Receipt) -> bool:
    """A delivery report for a sent message: delivered or failed. False when no sent message has that id
    (a receipt for a part other than the first, or a repeat)."""
    changes = {"state": SmsState(report.state), "done_at": now()}
    if report.reason:
        changes["error"] = report.reason
    done = await SmsMessage.filter(provider=provider, provider_ref=report.ref, state=SmsState.SENT).update(**changes)
    return bool(done)


async def awaiting_receipt(provider: str, *, limit: int, within_s: float = 86_400) -> list[str]:
    """Ids at ``provider`` of messages sent there in the last ``within_s`` seconds without a final receipt."""
    since = now() - timedelta(seconds=within_s)
    rows = await SmsMessage.filter(provider=provider, state=SmsState.SENT, sent_at__gte=since) \
        .order_by("sent_at").limit(limit).values_list("provider_ref", flat=True)  # fmt: skip
    return [str(r) for r in rows if r]


def public(row: SmsMessage) -> dict[str, Any]:
    """A message as operators see it (the code masked)."""
    stamp = lambda at: int(at.timestamp()) if at else None  # noqa: E731
    return {"id": row.id, "to": row.to, "region": row.region, "purpose": row.purpose, "state": str(row.state),
            "provider": row.provider, "provider_ref": row.provider_ref, "parts": row.parts, "rounds": row.rounds,
            "error": row.error, "text": row.redacted, "created_at": stamp(row.created_at),
            "sent_at": stamp(row.sent_at), "done_at": stamp(row.done_at)}  # fmt: skip


async def recent(*, state: str = "", to: str = "", limit: int = 50, offset: int = 0) -> tuple[list[SmsMessage], int]:
    """Messages newest first, of one state and/or to one number (E.164, or its digits), and how many match."""
    query = SmsMessage.all()
    if state:
        query = query.filter(state=SmsState(state))
    if to:
        query = query.filter(to="+" + to.lstrip("+"))
    return await query.order_by("-id").offset(offset).limit(limit), await query.count()
