"""Seed data: the spec's fixed ids and settings are there, and loading twice changes nothing."""

from __future__ import annotations

from store.models import Area, Currency, CurrencyMatch, News, NewsCategory, Quotation, SiteSetting
from store.seed import seed


async def test_seed_holds_what_the_product_relies_on(db: None) -> None:
    codes = set(await Currency.all().values_list("code", flat=True))
    assert {"USDT", "BTC", "ETH", "ACB", "MVBT"} <= codes
    assert await CurrencyMatch.all().count() >= 14
    assert (await CurrencyMatch.get(id=64)).sell_disabled
    assert set(await NewsCategory.all().values_list("id", flat=True)) >= {22, 23, 24, 25, 26}
    assert (await News.get(id=66)).category_id == 26  # type: ignore[attr-defined]
    keys = set(await SiteSetting.all().values_list("key", flat=True))
    assert {"kefu", "login_use_sms", "tips", "contact_mobile", "contact_email"} <= keys
    assert await Area.filter(global_code="44").exists()


async def test_seeding_again_is_idempotent_and_keeps_operator_changes(db: None) -> None:
    before = {m: await m.all().count() for m in (Currency, CurrencyMatch, Area, News, NewsCategory, SiteSetting)}
    await SiteSetting.filter(key="tips").update(value="operator text")
    await Quotation.filter(currency_match_id=1).update(close="12345")
    await seed()
    after = {m: await m.all().count() for m in before}
    assert after == before
    assert (await SiteSetting.get(key="tips")).value == "operator text"
    assert str((await Quotation.get(currency_match_id=1)).close).startswith("12345")


async def test_new_rows_get_ids_past_the_seeded_ones(db: None) -> None:
    """PostgreSQL sequences were advanced past the explicit seed ids."""
    item = await News.create(
        category_id=22, title="operator notice", content="<p>x</p>", created_at="2026-11-20T00:00:00Z"
    )
    assert item.id > 66
