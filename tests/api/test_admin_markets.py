"""The console's markets (issue 16): a markets operator closes a pair and its running actor refuses
orders at once (no restart), then opens it again; fees and bounds are checked; each change audited."""

from __future__ import annotations

import time
from decimal import Decimal

import httpx

from store.models import AuditLog, CurrencyMatch
from tests.api.test_admin import make_operator, token_of
from tests.utils.sales import get, post
from tests.utils.users import error, member, ok
from tests.utils.wallets import fund

LTC_USDT = 3


def buy(api: httpx.Client, auth: dict[str, str]) -> httpx.Response:
    return post(api, "tx_in/add", json={"currency_match_id": LTC_USDT, "number": "0.1", "price": "50"}, headers=auth)


async def test_closing_a_pair_refuses_orders_within_a_second(api: httpx.Client, db: None) -> None:
    op, secret = await make_operator("markets")
    auth = token_of(api, op, secret)
    trader = member(api)
    await fund(trader, "USDT", "100")
    pair = await CurrencyMatch.get(id=LTC_USDT)
    try:
        closed = ok(post(api, "admin/pairs/update", json={"id": LTC_USDT, "open_change": False, "reason": "delisting"},
                         headers=auth))  # fmt: skip
        assert (closed["open_change"], closed["applied_live"]) == (False, True)
        started = time.monotonic()
        assert error(buy(api, trader.auth), 400) == "Trading is not currently supported"
        assert time.monotonic() - started < 1.0
        ok(post(api, "admin/pairs/update", json={"id": LTC_USDT, "open_change": True}, headers=auth))
        assert ok(buy(api, trader.auth))["id"]  # trading again, no restart
        fees = {"id": LTC_USDT, "maker_fee": "0.0005", "taker_fee": "0.0015"}
        updated = ok(post(api, "admin/pairs/update", json=fees, headers=auth))
        assert (updated["maker_fee"], updated["taker_fee"]) == ("0.0005", "0.0015")
        for bad in ({"taker_fee": "0.5"}, {"max_price": "0"}, {"maker_fee": "abc"}, {}):
            assert error(post(api, "admin/pairs/update", json={"id": LTC_USDT, **bad}, headers=auth), 400)
        assert error(post(api, "admin/pairs/update", json={"id": 999, "open_change": True}, headers=auth), 404)
        rows = await AuditLog.filter(action="pair.update", target=f"pair:{LTC_USDT}").order_by("id")
        assert rows[0].after == {"open_change": False} and rows[0].before == {"open_change": True}
        assert rows[0].reason == "delisting" and rows[0].operator == op.email
        listed = {p["id"]: p for p in ok(get(api, "admin/pairs", headers=auth))}
        assert listed[LTC_USDT]["symbol"] == "LTC/USDT"
    finally:
        restore = {"open_change": True, "maker_fee": pair.maker_fee, "taker_fee": pair.taker_fee}
        await CurrencyMatch.filter(id=LTC_USDT).update(**restore)
        ok(post(api, "admin/pairs/update", json={"id": LTC_USDT, "open_change": True}, headers=auth))
    assert (await CurrencyMatch.get(id=LTC_USDT)).taker_fee == Decimal(pair.taker_fee)
