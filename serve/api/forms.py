"""Text fields of a form post (urlencoded or multipart/form-data; JSON objects too), read without the
python-multipart package, with a size cap. File parts are ignored."""

from __future__ import annotations

import json
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from urllib.parse import parse_qsl

from fastapi import Request

from store.errors import DomainError, ErrorCode

MAX_FORM_BYTES = 64 * 1024


async def read_fields(request: Request, limit: int = MAX_FORM_BYTES) -> dict[str, str]:
    """The posted fields as strings (a field sent twice keeps its first value). Raises BAD_REQUEST for a
    body over ``limit`` or one that cannot be read as a form."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise DomainError(ErrorCode.BAD_REQUEST)
    content_type = request.headers.get("content-type", "").lower()
    fields: dict[str, str] = {}
    try:
        if content_type.startswith("multipart/form-data"):
            head = f"Content-Type: {request.headers['content-type']}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1")
            message = BytesParser(policy=policy.HTTP).parsebytes(head + bytes(body))
            if isinstance(message, EmailMessage) and message.is_multipart():
                for part in message.iter_parts():
                    name = part.get_param("name", header="content-disposition")
                    if isinstance(name, str) and part.get_param("filename", header="content-disposition") is None:
                        payload = part.get_payload(decode=True)
                        if isinstance(payload, bytes):
                            fields.setdefault(name, payload.decode("utf-8", "replace"))
        elif content_type.startswith("application/json"):
            data = json.loads(body or b"{}")
            if isinstance(data, dict):
                for key, value in data.items():
                    if isinstance(value, str | int | float) and not isinstance(value, bool):
                        fields[str(key)] = str(value)
        else:
            for key, value in parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True):
                fields.setdefault(key, value)
    except (ValueError, UnicodeEncodeError) as exc:
        raise DomainError(ErrorCode.BAD_REQUEST) from exc
    for key, value in request.query_params.items():
        fields.setdefault(key, value)
    return fields
