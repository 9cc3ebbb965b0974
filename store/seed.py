"""Load the seed data of ``config/seed/*.toml``. Idempotent: run it as often as you like.

Reference data (currencies, pairs, areas, news) is upserted by id, so the files stay the source of
truth. Site settings and quotations are only created when missing: an operator's change to a setting
and the engine's live ticker survive a re-seed.
"""

from __future__ import annotations

import tomllib
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from tortoise import connections
from tortoise.transactions import in_transaction

from store.earn import sale_seeds
from store.models import (
    Area,
    Currency,
    CurrencyMatch,
    CurrencyProtocol,
    LockProduct,
    MiningProduct,
    News,
    NewsCategory,
    Quotation,
    SiteSetting,
)

SEED_DIR = Path(__file__).resolve().parent.parent / "config" / "seed"
PAIR_FIELDS = (
    "open_change", "open_lever", "open_microtrade", "sell_disabled", "added", "price_decimals",
    "qty_decimals", "maker_fee", "taker_fee", "lever_point_rate", "lever_share_num", "lever_fee_rate",
    "max_price", "max_quantity", "min_notional", "price_band", "max_open_orders", "lever_multiples", "lever_shares",
    "lever_overnight_rate", "lever_max_hands", "lever_max_exposure", "micro_seconds", "micro_fee_rate",
    "micro_max_exposure", "impact_notional",
)  # fmt: skip
PAIR_DECIMALS = ("maker_fee", "taker_fee", "lever_point_rate", "lever_share_num", "lever_fee_rate", "max_price",
                 "max_quantity", "min_notional", "price_band", "lever_overnight_rate",
                 "lever_max_exposure", "micro_fee_rate", "micro_max_exposure", "impact_notional")  # fmt: skip
CURRENCY_DECIMALS = ("usd_price", "draw_rate", "draw_min", "draw_max", "recharge_min", "max_amount", "micro_min",
                     "micro_max", "micro_max_open")  # fmt: skip
EXPLICIT_ID_TABLES = ("currencies", "currency_protocols", "currency_matches", "areas", "news_categories", "news",
                      "lock_products", "mining_products", "token_sales", "listing_projects")  # fmt: skip
LOCK_DECIMALS = ("display_rate", "limit_number")
MINING_DECIMALS = ("rate_min", "rate_max", "mins", "maxs", "penalty_rate")


def _load(name: str) -> dict[str, Any]:
    with (SEED_DIR / name).open("rb") as fh:
        return tomllib.load(fh)


def _decimals(row: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: Decimal(v) if k in names else v for k, v in row.items()}


async def seed() -> dict[str, int]:
    """Upsert everything; returns how many rows of each kind the files hold."""
    coins = _load("currencies.toml")
    currencies, protocols = coins["currency"], coins.get("protocol", [])
    pairs = _load("pairs.toml")
    site = _load("site.toml")
    news = _load("news.toml")
    async with in_transaction():
        for row in currencies:
            row = _decimals(row, *CURRENCY_DECIMALS)
            await Currency.update_or_create(id=row.pop("id"), defaults=row)
        by_code = {c.code: c for c in await Currency.all()}
        for sort, row in enumerate(protocols):
            values = {
                "currency": by_code[row["currency"]],
                "chain_protocol": row["chain"],
                "token_address": row.get("token_address", ""),
                "uses_memo": row.get("memo", False),
                "sort": sort,
            }
            await CurrencyProtocol.update_or_create(id=row["id"], defaults=values)
        for sort, row in enumerate(pairs["pair"]):
            fields = {**pairs["defaults"], **row}
            values = _decimals({k: fields[k] for k in PAIR_FIELDS if k in fields}, *PAIR_DECIMALS)
            values.update(base_currency=by_code[row["base"]], quote_currency=by_code[row["quote"]], sort=sort)
            match, _ = await CurrencyMatch.update_or_create(id=row["id"], defaults=values)
            quote = {k: Decimal(v) for k, v in row.get("quotation", {}).items()}
            await Quotation.get_or_create(currency_match=match, defaults=quote)
        for key, value in site["settings"].items():
            await SiteSetting.get_or_create(key=key, defaults={"value": value})
        for sort, (area_id, name, code) in enumerate(site["areas"]["list"]):
            await Area.update_or_create(id=area_id, defaults={"name": name, "global_code": code, "sort": sort})
        for sort, (cat_id, name) in enumerate(news["categories"]):
            await NewsCategory.update_or_create(id=cat_id, defaults={"name": name, "sort": sort})
        for row in news["news"]:
            values = {
                "category_id": row["category"],
                "title": row["title"],
                "content": row["content"],
                "banner": row.get("banner", ""),
                "created_at": datetime.fromisoformat(row["created_at"]),
            }
            await News.update_or_create(id=row["id"], defaults=values)
        earn = await _earn_products(by_code)
        earn.update(await sale_seeds.seed(_load("sales.toml"), by_code))
    await _advance_sequences()
    return {
        "currencies": len(currencies),
        "protocols": len(protocols),
        "pairs": len(pairs["pair"]),
        "areas": len(site["areas"]["list"]),
        "news": len(news["news"]),
        **earn,
    }


async def _earn_products(by_code: dict[str, Currency]) -> dict[str, int]:
    """Lock savings and mining products of ``earn.toml``, created when missing (by id): an operator's
    change to a product's terms survives a re-seed."""
    earn = _load("earn.toml")
    for row in earn.get("lock", []):
        values = _decimals({k: v for k, v in row.items() if k not in ("id", "currency")}, *LOCK_DECIMALS)
        await LockProduct.get_or_create(id=row["id"], defaults={**values, "currency": by_code[row["currency"]]})
    for row in earn.get("mining", []):
        values = _decimals({k: v for k, v in row.items() if k != "id"}, *MINING_DECIMALS)
        await MiningProduct.get_or_create(id=row["id"], defaults=values)
    return {"lock_products": len(earn.get("lock", [])), "mining_products": len(earn.get("mining", []))}


async def _advance_sequences() -> None:
    """Rows were inserted with explicit ids; move PostgreSQL's id sequences past them."""
    conn = connections.get("default")
    if conn.capabilities.dialect != "postgres":
        return
    for table in EXPLICIT_ID_TABLES:
        await conn.execute_script(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT COALESCE(MAX(id), 1) FROM {table}))"
        )
