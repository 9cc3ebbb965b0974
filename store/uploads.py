"""Uploaded images: the content decides the type (magic bytes), never the file name; stored under the
data directory with a random name, and owned by their uploader; a daily quota per user."""

from __future__ import annotations

import asyncio
import re
import secrets
from datetime import UTC, datetime
from pathlib import Path

from redis.asyncio import Redis

from store.models import Upload
from store.sessions import PREFIX

# (magic prefix, offset of a second marker or -1, that marker, extension, content type)
SIGNATURES: list[tuple[bytes, int, bytes, str, str]] = [
    (b"\x89PNG\r\n\x1a\n", -1, b"", "png", "image/png"),
    (b"\xff\xd8\xff", -1, b"", "jpg", "image/jpeg"),
    (b"GIF87a", -1, b"", "gif", "image/gif"),
    (b"GIF89a", -1, b"", "gif", "image/gif"),
    (b"RIFF", 8, b"WEBP", "webp", "image/webp"),
]
CONTENT_TYPES = {ext: ctype for _, _, _, ext, ctype in SIGNATURES}
NAME_RE = re.compile(r"^[0-9a-f]{32}\.(png|jpg|gif|webp)$")
URL_PREFIX = "/api/uploads/"


def sniff(data: bytes) -> tuple[str, str] | None:
    """(extension, content type) of an image by its first bytes, or None if it is not one we accept."""
    for magic, offset, marker, ext, ctype in SIGNATURES:
        if data.startswith(magic) and (offset < 0 or data[offset : offset + len(marker)] == marker):
            return ext, ctype
    return None


def directory(data_dir: Path) -> Path:
    return data_dir / "uploads"


async def store(data_dir: Path, uid: int, data: bytes, ext: str, content_type: str) -> Upload:
    folder = directory(data_dir)
    await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
    name = f"{secrets.token_hex(16)}.{ext}"
    await asyncio.to_thread((folder / name).write_bytes, data)
    return await Upload.create(user_id=uid, name=name, content_type=content_type, size=len(data))


def url_of(upload: Upload) -> str:
    return URL_PREFIX + upload.name


def name_of(url: str) -> str | None:
    """The stored name an image URL (absolute or not) points at, if it is one of ours."""
    tail = url.strip().rsplit(URL_PREFIX, 1)
    return tail[1] if len(tail) == 2 and NAME_RE.match(tail[1]) else None


async def owned(uid: int, url: str) -> bool:
    """Whether ``url`` is an image this user uploaded (so nobody can attach another user's image)."""
    name = name_of(url)
    return name is not None and await Upload.filter(user_id=uid, name=name).exists()


# Takes one image of ARGV[1] bytes from today's quota (KEYS[1]: a hash of count and bytes) if it fits
# both ARGV[2] images and ARGV[3] bytes; answers 1 taken, 0 over. One script: parallel uploads never
# pass the quota together.
_TAKE_QUOTA = """
local count = tonumber(redis.call('HGET', KEYS[1], 'count') or '0')
local bytes = tonumber(redis.call('HGET', KEYS[1], 'bytes') or '0')
if count + 1 > tonumber(ARGV[2]) or bytes + tonumber(ARGV[1]) > tonumber(ARGV[3]) then return 0 end
redis.call('HINCRBY', KEYS[1], 'count', 1)
redis.call('HINCRBY', KEYS[1], 'bytes', ARGV[1])
redis.call('EXPIRE', KEYS[1], 2 * 86400)
return 1
"""


async def take_quota(redis: Redis, uid: int, size: int, *, max_count: int, max_bytes: int) -> bool:
    """Count an upload of ``size`` bytes against the user's quota of the current UTC day; False (and
    nothing counted) when it would exceed ``max_count`` images or ``max_bytes`` bytes."""
    key = f"{PREFIX}upload_quota:{uid}:{datetime.now(UTC):%Y%m%d}"
    return bool(await redis.eval(_TAKE_QUOTA, 1, key, size, max_count, max_bytes))
