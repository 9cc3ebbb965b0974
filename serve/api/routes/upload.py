"""common/image_upload (multipart field ``file``) and the images it stored, served back read-only."""

from __future__ import annotations

from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from serve.api.deps import CurrentUid, Svc
from serve.api.schemas import fail
from serve.body_limit import mb
from serve.errors import envelope
from serve.i18n import N_
from store import uploads
from store.errors import DomainError, ErrorCode

router = APIRouter(tags=["upload"])

CHOOSE_IMAGE = N_("Please choose an image to upload")
NOT_AN_IMAGE = N_("Only JPEG, PNG, GIF or WebP images can be uploaded")


def _file_part(content_type: str, body: bytes) -> bytes | None:
    """The bytes of the ``file`` field (or the only file field) of a multipart/form-data body."""
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1", "replace")
    message = BytesParser(policy=policy.HTTP).parsebytes(head + body)
    if not isinstance(message, EmailMessage) or not message.is_multipart():
        return None
    files = [p for p in message.iter_parts() if p.get_param("filename", header="content-disposition") is not None]
    named = [p for p in files if p.get_param("name", header="content-disposition") == "file"]
    found = named or files
    part = found[0] if found else None
    if part is None:
        return None
    payload = part.get_payload(decode=True)
    return payload if isinstance(payload, bytes) else None


@router.post("/common/image_upload")
async def image_upload(request: Request, uid: CurrentUid, svc: Svc) -> Any:
    """Store an image (JPEG, PNG, GIF or WebP, recognised by its content) and answer its URL; at most
    ``upload_daily_count`` images and ``upload_daily_bytes`` per user per UTC day (429 beyond)."""
    limit = svc.settings.upload_max_bytes
    content_type = request.headers.get("content-type", "")
    if not content_type.lower().startswith("multipart/form-data"):
        raise fail(CHOOSE_IMAGE)
    body = await request.body()  # at most the limit and its framing: the edge refuses more (serve.body_limit)
    data = _file_part(content_type, body)
    if not data:
        raise fail(CHOOSE_IMAGE)
    if len(data) > limit:
        raise DomainError(ErrorCode.UPLOAD_TOO_LARGE, mb=mb(limit))
    kind = uploads.sniff(data)
    if kind is None:
        raise fail(NOT_AN_IMAGE)
    s = svc.settings
    if not await uploads.take_quota(svc.redis, uid, len(data), max_count=s.upload_daily_count,
                                    max_bytes=s.upload_daily_bytes):  # fmt: skip
        raise DomainError(ErrorCode.UPLOAD_QUOTA, count=s.upload_daily_count, mb=mb(s.upload_daily_bytes))
    stored = await uploads.store(svc.settings.data_dir, uid, data, *kind)
    return envelope({"url": uploads.url_of(stored), "name": stored.name})


@router.get("/uploads/{name}", include_in_schema=False)
async def uploaded(name: str, svc: Svc) -> Any:
    """An uploaded image by its random name; sent with its sniffed type and never as anything else."""
    if not uploads.NAME_RE.match(name):
        raise DomainError(ErrorCode.NOT_FOUND)
    path = uploads.directory(svc.settings.data_dir) / name
    if not path.is_file():
        raise DomainError(ErrorCode.NOT_FOUND)
    headers = {
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'",
        "Cache-Control": "private, max-age=86400",
    }
    return FileResponse(path, media_type=uploads.CONTENT_TYPES[name.rsplit(".", 1)[1]], headers=headers)
