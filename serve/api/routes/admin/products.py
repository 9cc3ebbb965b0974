"""The console's products (issue 16, the products role): lock savings, mining, token sales and
listing projects listed, created, edited, opened and closed by ``store.earn.products``, the rules and
refusals ``exchange products`` uses, each change audited in its own transaction. Field values travel
as texts, as the command takes them (money is never a JSON float); ``admin/products/kinds`` says
which fields each kind has, so the console's form follows the store's table."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from serve.api.deps import Svc
from serve.api.routes.admin.auth import NO_NUL, Console, role
from serve.errors import envelope
from store.earn import clock, product_views, products
from store.models import INT_MAX

router = APIRouter(tags=["back office"])
Products = Annotated[Console, Depends(role("products"))]
KIND_PATTERN = f"^({'|'.join(products.KINDS)})$"
KIND_HELP = ", ".join(products.KINDS)

# A field's value: text as `exchange products` takes it (amounts "0.05", times "+7d" or
# "2026-12-01T08:00"); true or false and whole numbers may come as JSON too, never a float.
Text = Annotated[str, Field(max_length=products.DESC_MAX)]
Whole = Annotated[int, Field(strict=True, ge=-(10**18), le=10**18)]
Name = Annotated[str, Field(max_length=32)]
Values = dict[Name, Text | StrictBool | Whole]


class ProductCreateIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    kind: str = Field(pattern=KIND_PATTERN, description=KIND_HELP)
    values: Values = Field(max_length=32, description="the fields by name (see admin/products/kinds)")
    reason: str = Field(default="", max_length=500, pattern=NO_NUL)


class ProductEditIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    kind: str = Field(pattern=KIND_PATTERN, description=KIND_HELP)
    id: int = Field(ge=1, le=INT_MAX)
    values: Values = Field(min_length=1, max_length=32, description="only the fields that change")
    reason: str = Field(default="", max_length=500, pattern=NO_NUL)


class ProductSwitchIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    kind: str = Field(pattern=KIND_PATTERN, description=KIND_HELP)
    id: int = Field(ge=1, le=INT_MAX)
    reason: str = Field(default="", max_length=500, pattern=NO_NUL)


def _texts(values: dict[str, str | bool | int]) -> dict[str, str]:
    return {k: ("true" if v else "false") if isinstance(v, bool) else str(v) for k, v in values.items()}


async def _view(svc: Svc, kind: str, product_id: int) -> dict[str, Any]:
    row = await products.get(kind, product_id)
    (found,) = await product_views.views(kind, [row], await clock.scheduler_now_ms(svc.redis))
    return found


@router.get("/products/kinds")
async def product_kinds(console: Products) -> Any:
    """Each kind's fields: name, type (text, int, amount, currency, time, bool), whether a create needs
    it, whether it is fixed once a sale or listing has orders, and a text's or number's bound."""
    return envelope([
        {"kind": kind.name, "fields": [
            {"name": f.name, "type": f.kind, "required": f.required, "fixed": f.fixed,
             "max": kind.text_max(f) if f.kind == products.TEXT else f.maximum if f.kind == products.INT else None}
            for f in kind.fields]}
        for kind in products.KINDS.values()
    ])  # fmt: skip


@router.get("/products")
async def product_list(
    console: Products,
    svc: Svc,
    kind: Annotated[str | None, Query(pattern=KIND_PATTERN, description=KIND_HELP)] = None,
) -> Any:
    """Every product of one kind (or of each), oldest first: its fields as texts, its state (open,
    closed, upcoming, ended, allocated), whether it can be opened or closed, its orders."""
    now, found = await clock.scheduler_now_ms(svc.redis), []
    for name in [kind] if kind else list(products.KINDS):
        found += await product_views.views(name, await products.listed(name), now)
    return envelope(found)


@router.post("/products/create")
async def product_create(body: ProductCreateIn, console: Products, svc: Svc) -> Any:
    """A new product from its fields (a create needs the kind's required ones); answers it as listed."""
    row = await products.create(body.kind, _texts(body.values), actor=console.actor("products"), reason=body.reason,
                                now=await clock.scheduler_now_ms(svc.redis))  # fmt: skip
    return envelope(await _view(svc, body.kind, row.pk))


@router.post("/products/edit")
async def product_edit(body: ProductEditIn, console: Products, svc: Svc) -> Any:
    """Change some fields (later orders take them; a sale's or listing's terms are fixed once it has
    orders, its texts alone once allocated); answers the product as listed."""
    await products.edit(body.kind, body.id, _texts(body.values), actor=console.actor("products"), reason=body.reason,
                        now=await clock.scheduler_now_ms(svc.redis))  # fmt: skip
    return envelope(await _view(svc, body.kind, body.id))


@router.post("/products/open")
async def product_open(body: ProductSwitchIn, console: Products, svc: Svc) -> Any:
    """Open to new orders (lock: open; mining: status 1; a sale or listing: its start moved to now)."""
    await products.set_open(body.kind, body.id, True, actor=console.actor("products"), reason=body.reason,
                            now=await clock.scheduler_now_ms(svc.redis))  # fmt: skip
    return envelope(await _view(svc, body.kind, body.id))


@router.post("/products/close")
async def product_close(body: ProductSwitchIn, console: Products, svc: Svc) -> Any:
    """Close to new orders (a sale or listing: its end moved to now; the Scheduler allocates it)."""
    await products.set_open(body.kind, body.id, False, actor=console.actor("products"), reason=body.reason,
                            now=await clock.scheduler_now_ms(svc.redis))  # fmt: skip
    return envelope(await _view(svc, body.kind, body.id))
