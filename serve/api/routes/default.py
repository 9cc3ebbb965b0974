"""Reference data for forms and the shell: areas and public site settings."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from serve.api.deps import Svc
from serve.errors import envelope
from store.errors import DomainError, ErrorCode
from store.models import Area, SiteSetting

router = APIRouter(prefix="/default", tags=["default"])

# Only these site settings are public; others (rates, operator switches) stay server-side.
PUBLIC_SETTINGS = frozenset({"kefu", "login_use_sms", "tips", "contact_mobile", "contact_email", "app_download_ios",
                             "app_download_android"})  # fmt: skip


@router.get("/area_list")
async def area_list() -> Any:
    """Countries and regions with their dialling codes, for the phone forms."""
    areas = await Area.all().order_by("sort", "id")
    return envelope([{"id": a.id, "name": a.name, "global_code": a.global_code} for a in areas])


@router.get("/setting")
async def setting(key: Annotated[str, Query(max_length=64)]) -> Any:
    """One public site setting's value (an empty string when unset)."""
    if key not in PUBLIC_SETTINGS:
        raise DomainError(ErrorCode.SETTING_UNKNOWN)
    row = await SiteSetting.get_or_none(key=key)
    return envelope(row.value if row else "")


@router.get("/push_address")
async def push_address(request: Request, svc: Svc) -> Any:
    """Where the web app opens its socket: the configured public URL, else this host on WS_PORT."""
    if svc.settings.public_ws_url:
        return envelope({"url": svc.settings.public_ws_url})
    host = (request.url.hostname or svc.settings.http_host).strip("[]")
    scheme = "wss" if request.url.scheme == "https" else "ws"
    netloc = f"[{host}]" if ":" in host else host
    return envelope({"url": f"{scheme}://{netloc}:{svc.settings.ws_port}/ws"})
