"""common/image_upload has a daily quota per user: ``upload_daily_count`` images and
``upload_daily_bytes`` in all (429 beyond), also when the uploads arrive in parallel."""

from __future__ import annotations

import asyncio
from collections import Counter

import httpx

from config.settings import Settings
from tests.utils.users import Member, error, member, ok

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(64)


def upload(api: httpx.Client, user: Member, data: bytes = PNG) -> httpx.Response:
    return api.post("common/image_upload", files={"file": ("a.png", data, "image/png")}, headers=user.auth)


def quota_message(settings: Settings) -> str:
    mb = f"{settings.upload_daily_bytes / 1024 / 1024:g}"
    return f"You can upload {settings.upload_daily_count} images or {mb} MB a day; please try again tomorrow"


def test_uploads_beyond_the_daily_count_are_refused(api: httpx.Client, settings: Settings) -> None:
    user = member(api)
    for _ in range(settings.upload_daily_count):
        ok(upload(api, user))
    assert error(upload(api, user), 429) == quota_message(settings)
    ok(upload(api, member(api)))  # the quota is per user


def test_uploads_beyond_the_daily_bytes_are_refused(api: httpx.Client, settings: Settings) -> None:
    user = member(api)
    largest = PNG + bytes(settings.upload_max_bytes - len(PNG))
    whole, rest = divmod(settings.upload_daily_bytes, len(largest))
    assert whole < settings.upload_daily_count, "the byte quota must be reachable before the count"
    for _ in range(whole):
        ok(upload(api, user, largest))
    if rest >= len(PNG):
        ok(upload(api, user, PNG + bytes(rest - len(PNG))))  # exactly up to the quota is still fine
    assert error(upload(api, user, PNG), 429) == quota_message(settings)


async def test_parallel_uploads_never_pass_the_quota_together(api: httpx.Client, settings: Settings) -> None:
    user = member(api)
    tries = settings.upload_daily_count + 10
    async with httpx.AsyncClient(base_url=str(api.base_url), timeout=60) as client:
        answers = await asyncio.gather(*[
            client.post("common/image_upload", files={"file": ("a.png", PNG, "image/png")}, headers=user.auth)
            for _ in range(tries)
        ])  # fmt: skip
    assert Counter(r.status_code for r in answers) == {200: settings.upload_daily_count, 429: 10}
