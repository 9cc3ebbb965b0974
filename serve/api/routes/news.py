"""Notices: categories (22 announcements, 23 banners, 24 footer news, 25 about, 26 support)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from serve.api.paging import paginate
from serve.errors import envelope
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, News, NewsCategory

router = APIRouter(prefix="/news", tags=["news"])


def news_public(item: News, *, with_content: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": item.id,
        "category_id": item.category_id,
        "title": item.title,
        "banner": item.banner,
        "created_at": item.created_at.isoformat(),
    }
    if with_content:
        data["content"] = item.content
    return data


@router.get("/categories")
async def categories() -> Any:
    """Every notice category."""
    return envelope([{"id": c.id, "name": c.name} for c in await NewsCategory.all().order_by("sort", "id")])


@router.get("/list")
async def news_list(
    category_id: Annotated[int, Query()],
    page: Annotated[int, Query(ge=1, le=INT_MAX)] = 1,
    limit: Annotated[int, Query(ge=1, le=100)] = 10,
) -> Any:
    """Notices of one category, newest first (without their bodies)."""
    if not 0 < category_id <= INT_MAX or not await NewsCategory.exists(id=category_id):
        raise DomainError(ErrorCode.NOT_FOUND)
    query = News.filter(category_id=category_id)
    return envelope(await paginate(query, page, limit, lambda n: news_public(n, with_content=False)))


@router.get("/info")
async def news_info(id: Annotated[int, Query()]) -> Any:  # noqa: A002 - the spec's parameter name
    """One notice with its HTML body."""
    item = await News.get_or_none(id=id) if 0 < id <= INT_MAX else None
    if item is None:
        raise DomainError(ErrorCode.NOT_FOUND)
    return envelope(news_public(item, with_content=True))
