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


def where(api: httpx.Client, auth: dict[str, str], symbol: str) -> dict[str, object]:
    view = ok(get(api, "admin/placement", headers=auth))
    return {"pair": next(p for p in view["pairs"] if p["symbol"] == symbol), "nodes": view["nodes"]}


async def test_the_placement_view_lists_nodes_and_moves_a_pair_with_its_orders(api: httpx.Client, db: None) -> None:
    op, secret = await make_operator("markets")
    auth = token_of(api, op, secret)
    before = where(api, auth, "LTC/USDT")
    nodes = {n["name"]: n for n in before["nodes"]}  # type: ignore[union-attr]
    assert {"node-1", "node-2"} <= nodes.keys() and all(n["pair_slots"] >= 1 for n in nodes.values())
    assert "BTC/USDT" in nodes["node-1"]["pairs"] and "LTC/USDT" in nodes[before["pair"]["node"]]["pairs"]  # type: ignore[index]
    home = before["pair"]["node"]  # type: ignore[index]
    away = "node-1" if home == "node-2" else "node-2"
    trader = member(api)
    await fund(trader, "USDT", "100")
    resting = ok(buy(api, trader.auth))["id"]
    try:
        report = ok(post(api, "admin/placement/move", json={"symbol": "ltc/usdt", "node": away, "reason": "rebalance"},
                         headers=auth))  # fmt: skip
        assert (report["moved"], report["from"], report["to"], report["matches_database"]) == (True, home, away, True)
        after = where(api, auth, "LTC/USDT")
        assert (after["pair"]["node"], after["pair"]["state"]) == (away, "up")  # type: ignore[index]
        listed = ok(get(api, "tx_in/list", params={"currency_match_id": LTC_USDT}, headers=trader.auth))["data"]
        assert [o["id"] for o in listed] == [resting]  # the order moved with its pair
        refused = post(api, "admin/placement/move", json={"symbol": "LTC/USDT", "node": "no-such-node"}, headers=auth)
        assert error(refused, 409).startswith("The pair could not be moved: ")
        for bad in ({"symbol": "LTC", "node": away}, {"symbol": "LTC/USDT", "node": ""}, {"symbol": "LTC/USDT"}):
            assert error(post(api, "admin/placement/move", json=bad, headers=auth), 400)
        actions = [(r.action, r.after) for r in await AuditLog.filter(target="pair:LTC/USDT").order_by("id")]
        assert actions[-2][0] == "pair.move" and actions[-2][1]["node"] == away
        assert actions[-1][0] == "pair.move.failed"
    finally:
        ok(post(api, "admin/placement/move", json={"symbol": "LTC/USDT", "node": home}, headers=auth))
        ok(post(api, "tx_in/cancel", json={"id": resting}, headers=trader.auth))
    support, secret = await make_operator("support")
    assert error(get(api, "admin/placement", headers=token_of(api, support, secret)), 403)
