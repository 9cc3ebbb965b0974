"""Leveraged contracts through the API, end to end: alice moves USDT to her lever account, opens a
long and a short on BTC/USDT, entrusts and cancels, sets take-profit and stop-loss, watches the
take-profit fire when the market moves, closes, batch-closes, and finds it all in her lever records.
Every refusal a lever shard can give reaches her as a translated message with its status."""

from __future__ import annotations

import asyncio
import json
from decimal import Decimal
from typing import Any

import httpx
from websockets.asyncio.client import connect

from config.settings import Settings
from serve.i18n import translate
from serve.stack import Stack
from store.cache import connect_redis
from tests.utils.prices import age_mark, held_mark, live_mark, mark_to, wait_for
from tests.utils.push import next_of
from tests.utils.users import Member, error, member, ok
from tests.utils.wallets import BTC, USDT, balance, fund

BTC_USDT, ETH_USDT, XRP_USDT = 1, 2, 4
LEVER = 3
LONG, SHORT = 1, 2
MARKET, FIXED = 1, 0


def post(api: httpx.Client, m: Member, route: str, body: dict[str, Any], lang: str = "en") -> httpx.Response:
    return api.post(f"lever/{route}", json=body, headers={**m.auth, "lang": lang})


def market(side: int, hands: int, multiple: int, pair_id: int = BTC_USDT) -> dict[str, Any]:
    return {"currency_match_id": pair_id, "type": side, "status": MARKET, "share": hands, "multiple": multiple}


def entrust(side: int, hands: int, multiple: int, target: str, pair_id: int = BTC_USDT) -> dict[str, Any]:
    return {**market(side, hands, multiple, pair_id), "status": FIXED, "target_price": target}


def transfer(api: httpx.Client, m: Member, amount: str, source: str, target: str, currency_id: int = USDT) -> Any:
    body = {"currency_id": currency_id, "balance": amount, "from": source, "to": target}
    return api.post("account/transfer", json=body, headers=m.auth)


def my_trade(api: httpx.Client, m: Member, status: int, page: int = 1, pair_id: int = 0) -> dict[str, Any]:
    return ok(post(api, m, "my_trade", {"status": status, "page": page, "currency_match_id": pair_id}))


def lever_records(api: httpx.Client, m: Member) -> list[dict[str, Any]]:
    return ok(api.get("account_log/lever", params={"currency_id": USDT}, headers=m.auth))["data"]


def lever_balance(api: httpx.Client, m: Member) -> tuple[Decimal, Decimal]:
    return balance(api, m, USDT, LEVER)


async def lever_trader(api: httpx.Client, usdt: str) -> Member:
    """A new user with ``usdt`` in the lever account, moved there from the trade account by the API."""
    trader = member(api)
    await fund(trader, "USDT", usdt)
    ok(transfer(api, trader, usdt, "change_account", "lever_account"))
    return trader


def wait_closed(api: httpx.Client, m: Member, position_id: int) -> dict[str, Any]:
    def closed() -> dict[str, Any] | None:
        return next((p for p in my_trade(api, m, 3)["data"] if p["id"] == position_id), None)

    return wait_for(closed, f"position {position_id} to close", timeout=20)


# --- the trader's day ------------------------------------------------------------------------------


async def test_alice_opens_entrusts_sets_stops_and_closes(
    stack: Stack, api: httpx.Client, btc_at_60000: tuple[Member, Member]
) -> None:
    alice = await lever_trader(api, "5000")
    assert lever_balance(api, alice) == (Decimal(5000), 0)

    panel = ok(post(api, alice, "deal", {"currency_match_id": BTC_USDT}))
    assert panel["user_lever"] == "5000" and panel["mark"] == "60000" and panel["hazard_rate"] is None
    assert panel["multiple"]["muit"] == [5, 10, 20, 50, 100, 200]
    assert panel["multiple"]["share"][:2] == [{"value": 1, "label": "1"}, {"value": 2, "label": "2"}]
    assert panel["my_transaction"] == []

    # a long of 2 hands at 10x opens at the mark plus the 0.05 % spread: 60030
    response = post(api, alice, "submit", market(LONG, 2, 10))
    long = ok(response)
    assert response.json()["msg"] == "Order placed"
    assert (long["type"], long["type_name"], long["status"], long["status_name"]) == (LONG, "Long", 1, "Open")
    assert (long["share"], long["multiple"], long["number"], long["price"]) == (2, 10, "0.02", "60030")
    assert (long["caution_money"], long["trade_fee"], long["symbol"]) == ("120.06", "1.2006", "BTC/USDT")
    assert (long["base_currency_id"], long["quote_currency_id"], long["close_reason_name"]) == (BTC, USDT, "")
    # a short of 1 hand at 20x, at the mark less the spread: 59970
    short = ok(post(api, alice, "submit", market(SHORT, 1, 20), lang="hk"))
    assert (short["price"], short["caution_money"], short["trade_fee"]) == ("59970", "29.985", "0.5997")
    assert short["type_name"] == translate("Short", "hk") != "Short"
    free = Decimal(5000) - Decimal("120.06") - Decimal("1.2006") - Decimal("29.985") - Decimal("0.5997")
    assert Decimal(ok(post(api, alice, "deal", {"currency_match_id": BTC_USDT}))["user_lever"]) == free

    # an entrustment below the market freezes its margin and fee at the target, then is cancelled
    pending = ok(post(api, alice, "submit", entrust(LONG, 1, 50, "59000")))
    assert (pending["status"], pending["status_name"], pending["target_price"]) == (0, "Entrusted", "59000")
    assert lever_balance(api, alice) == (
        free - Decimal("12.39"),
        Decimal("120.06") + Decimal("29.985") + Decimal("12.39"),
    )
    panel = ok(post(api, alice, "deal", {"currency_match_id": BTC_USDT}))
    assert [p["id"] for p in panel["my_transaction"]] == [pending["id"]]
    assert [p["id"] for p in my_trade(api, alice, 0)["data"]] == [pending["id"]]
    response = post(api, alice, "cancel", {"id": pending["id"]})
    cancelled = ok(response)
    assert response.json()["msg"] == "Order cancelled"
    assert (cancelled["status"], cancelled["status_name"], cancelled["close_reason_name"]) == (
        4,
        "Cancelled",
        "Cancelled",
    )
    assert error(post(api, alice, "cancel", {"id": pending["id"]}), 409) == "The entrustment is no longer pending"
    assert [p["id"] for p in my_trade(api, alice, 4)["data"]] == [pending["id"]]
    assert lever_balance(api, alice) == (free, Decimal("150.045"))

    # the pair's open positions, newest first, with their profits at the mark
    table = ok(post(api, alice, "dealall", {"currency_match_id": BTC_USDT, "page": 1}))
    assert [(p["id"], p["profits"], p["update_price"]) for p in table["order"]["data"]] == [
        (short["id"], "-0.3", "60000"),
        (long["id"], "-0.6", "60000"),
    ]
    assert (table["order"]["total"], table["order"]["per_page"], table["profits_all"]) == (2, 10, "-0.9")
    equity = free + Decimal("150.045") - Decimal("0.9")
    assert Decimal(table["hazard_rate"]) == (equity / Decimal("150.045") * 100).quantize(Decimal("0.01"))
    assert [p["id"] for p in my_trade(api, alice, 5, pair_id=BTC_USDT)["data"]] == [short["id"], long["id"]]
    assert my_trade(api, alice, 5, pair_id=ETH_USDT)["data"] == []

    # take-profit and stop-loss: each on its side of the mark, empty or 0 clears
    def setstop(position: dict[str, Any], tp: Any, sl: Any, lang: str = "en") -> httpx.Response:
        return post(api, alice, "setstop", {"id": position["id"], "target_profit_price": tp, "stop_loss_price": sl},
                    lang)  # fmt: skip

    assert error(setstop(long, "59000", ""), 400) == "The take-profit price must be above the market price 60000"
    assert error(setstop(long, "", "61000"), 400) == "The stop-loss price must be below the market price 60000"
    assert error(setstop(short, "61000", ""), 400) == "The take-profit price must be below the market price 60000"
    assert error(setstop(short, "", "59000"), 400) == "The stop-loss price must be above the market price 60000"
    assert error(setstop(long, "6100O", ""), 400) == "Please enter a valid take-profit price"
    assert error(setstop(long, "", "-1"), 400) == "Please enter a valid stop-loss price"
    assert error(setstop(long, "", "x", lang="gm"), 400) == translate("Please enter a valid stop-loss price", "gm")
    assert error(setstop(long, "61000.00001", ""), 400) == "The amount can have at most 4 decimal places"
    stopped = ok(setstop(long, "61000", 58000))
    assert (stopped["target_profit_price"], stopped["stop_loss_price"]) == ("61000", "58000")
    cleared = ok(setstop(long, "", 0))
    assert (cleared["target_profit_price"], cleared["stop_loss_price"]) == ("0", "0")
    ok(setstop(long, "61000", None))

    # the market rises to 61000: the long's take-profit closes it as a market close at that mark would
    # (61000 less the spread: 60969.5), and alice is told
    url = f"ws://{stack.settings.http_host}:{stack.settings.ws_port}/ws"
    async with connect(url) as ws:
        await ws.send(json.dumps({"type": "login", "token": alice.token}))
        await ws.send(json.dumps({"type": "sub", "params": "LEVER_CLOSED"}))
        assert (await next_of(ws, "sub"))["code"] == 1
        await asyncio.sleep(0.3)  # the fanout subscribes upstream asynchronously
        await asyncio.to_thread(mark_to, api, *btc_at_60000, BTC_USDT, Decimal(61000))
        pushed = (await next_of(ws, "lever_closed", wait=20))["position"]
    assert (pushed["id"], pushed["close_reason"]) == (long["id"], "take_profit")
    closed = await asyncio.to_thread(wait_closed, api, alice, long["id"])
    assert (closed["close_price"], closed["profits"], closed["close_reason_name"]) == (
        "60969.5",
        "18.79",
        "Take-profit",
    )
    assert closed["close_tick_id"] > 0 and closed["status_name"] == "Closed"

    # alice closes the short herself, at the mark plus the spread (61030.5)
    response = post(api, alice, "close", {"id": short["id"]})
    done = ok(response)
    assert response.json()["msg"] == "Position closed"
    assert (done["status"], done["close_reason"], done["close_reason_name"]) == (3, "manual", "Closed manually")
    assert (done["close_price"], done["profits"]) == ("61030.5", "-10.605")
    assert error(post(api, alice, "close", {"id": short["id"]}), 409) == "The position is no longer open"
    assert error(setstop(short, "60000", ""), 409) == "The position is no longer open"
    assert [p["id"] for p in my_trade(api, alice, 3)["data"]] == [short["id"], long["id"]]
    assert my_trade(api, alice, 1)["data"] == []

    # what is left: the balance plus each margin and its profit (less the overnight fee, were 00:00
    # UTC to pass while the positions were open); the records add up to it
    records = lever_records(api, alice)
    overnight = sum((Decimal(r["value"]) for r in records if r["log_type"] == "lever_overnight"), Decimal(0))
    final = free + Decimal("120.06") + Decimal("18.79") + Decimal("29.985") - Decimal("10.605") + overnight
    assert lever_balance(api, alice) == (final, 0)
    assert sum(Decimal(r["value"]) for r in records) == final
    assert sum(Decimal(r["lock_value"]) for r in records) == 0
    kinds = [r["log_type"] for r in records]
    assert kinds.count("transfer") == 1 and kinds.count("lever_open") == 2 and len(kinds) >= 7

    # and out again, all of it: nothing holds it any more
    ok(transfer(api, alice, str(final), "lever_account", "change_account"))
    assert lever_balance(api, alice) == (0, 0)


# --- every refusal --------------------------------------------------------------------------------


async def test_what_a_lever_shard_refuses(api: httpx.Client, btc_at_60000: tuple[Member, Member]) -> None:
    alice, bob = await lever_trader(api, "3000"), member(api)

    def refused(body: dict[str, Any], status: int = 400, who: Member = alice, lang: str = "en") -> str:
        return error(post(api, who, "submit", body, lang), status)

    assert refused(market(LONG, 1, 10, XRP_USDT)) == "Leveraged trading is not offered on this pair"
    assert refused(market(LONG, 1, 7)) == "This pair offers the multiples 5, 10, 20, 50, 100, 200"
    assert refused(market(LONG, 101, 10)) == "A position can have 1 to 100 hands"
    assert refused(market(LONG, 101, 10), lang="fr") == translate("A position can have 1 to {max} hands", "fr", max=100)
    for side, target in ((LONG, "60001"), (SHORT, "59999")):
        message = f"The market price has already reached {target}: open at the market price instead"
        assert refused(entrust(side, 1, 10, target)) == message
    assert (
        refused(entrust(LONG, 1, 10, "11000")) == "The price must be between 12000 and 300000, around the market price"
    )
    assert refused(market(LONG, 1, 10), who=bob) == "Insufficient balance"
    assert lever_balance(api, alice) == (Decimal(3000), 0)  # nothing refused held anything

    opened = ok(post(api, alice, "submit", market(LONG, 1, 5)))
    pending = ok(post(api, alice, "submit", entrust(SHORT, 1, 5, "62000")))
    # someone else's position is not found, whatever the call
    for route, body in (
        ("close", {"id": opened["id"]}),
        ("cancel", {"id": pending["id"]}),
        ("setstop", {"id": opened["id"], "target_profit_price": "70000"}),
    ):
        assert error(post(api, bob, route, body), 404) == "Position not found"
    # the wrong call for the state it is in
    assert error(post(api, alice, "cancel", {"id": opened["id"]}), 409) == "The entrustment is no longer pending"
    assert error(post(api, alice, "close", {"id": pending["id"]}), 409) == "The position is no longer open"
    body = {"id": pending["id"], "target_profit_price": "50000"}
    assert error(post(api, alice, "setstop", body), 409) == "The position is no longer open"

    # out of the lever account: only what the position and the entrustment leave free
    free = lever_balance(api, alice)[0]
    message = error(transfer(api, alice, str(free), "lever_account", "change_account"), 400)
    most = Decimal(message.removeprefix("At most ").split(" ")[0])
    assert message.endswith("can leave the lever account while its positions are open") and 0 < most < free
    ok(transfer(api, alice, str(most), "lever_account", "change_account"))
    ok(post(api, alice, "batch_close", {"type": 0, "currency_match_id": 0}))
    ok(post(api, alice, "cancel", {"id": pending["id"]}))


async def test_a_stale_mark_refuses_opens_and_closes(api: httpx.Client, settings: Settings,
                                                     btc_at_60000: tuple[Member, Member]) -> None:  # fmt: skip
    alice = await lever_trader(api, "1000")
    opened = ok(post(api, alice, "submit", market(SHORT, 1, 10)))
    redis = connect_redis(settings)
    try:
        async with held_mark(redis, "BTC/USDT") as mark:
            await age_mark(redis, mark, 10)
            for route, body in (("submit", market(LONG, 1, 10)), ("close", {"id": opened["id"]})):
                assert error(post(api, alice, route, body), 503) == "Prices are updating, please try again"
    finally:
        await redis.aclose()
    wait_for(lambda: (live_mark(api, BTC_USDT) or {}).get("fresh"), "the mark to be fresh again")
    assert ok(post(api, alice, "close", {"id": opened["id"]}))["status"] == 3


async def test_the_house_caps_its_net_exposure_on_a_pair(
    stack: Stack, api: httpx.Client, btc_at_60000: tuple[Member, Member]
) -> None:
    """5,000,000 USDT of net exposure on BTC/USDT, shared by the lever shards: longs of 1 BTC each are
    taken until the cap, then refused; a short, which reduces it, is still taken."""
    whale = await lever_trader(api, "25000")
    cap = Decimal(5_000_000) / stack.settings.lever_shards
    taken = 0
    while (response := post(api, whale, "submit", market(LONG, 100, 200))).status_code == 200:
        taken += 1
        assert taken * 60000 <= cap
    assert error(response, 400) == "This pair cannot take more positions on this side now, please try later"
    assert (taken + 1) * 60000 > cap
    ok(post(api, whale, "submit", market(SHORT, 100, 200)))
    ok(post(api, whale, "submit", market(LONG, 100, 200)))  # room again
    closed = ok(post(api, whale, "batch_close", {"type": 0, "currency_match_id": BTC_USDT}))
    assert closed["closed"] == taken + 2


# --- batch close and the pages --------------------------------------------------------------------


async def test_batch_close_by_side_then_everything(api: httpx.Client, btc_at_60000: tuple[Member, Member]) -> None:
    mark_to(api, *btc_at_60000, ETH_USDT, Decimal(3500))
    alice = await lever_trader(api, "5000")
    longs = [ok(post(api, alice, "submit", market(LONG, hands, 10)))["id"] for hands in (1, 2)]
    short = ok(post(api, alice, "submit", market(SHORT, 1, 10)))["id"]
    eth = ok(post(api, alice, "submit", market(LONG, 1, 10, ETH_USDT)))
    assert (eth["symbol"], eth["number"], eth["base_currency_id"]) == ("ETH/USDT", "0.1", 3)

    response = post(api, alice, "batch_close", {"type": LONG, "currency_match_id": BTC_USDT}, lang="gm")
    first = ok(response)
    assert first["closed"] == 2 and sorted(p["id"] for p in first["data"]) == sorted(longs)
    assert {(p["close_reason"], p["close_reason_name"]) for p in first["data"]} == {
        ("batch", translate("Closed together", "gm"))
    }
    assert response.json()["msg"] == translate("Position closed", "gm")
    assert sorted(p["id"] for p in my_trade(api, alice, 1)["data"]) == sorted([short, eth["id"]])

    rest = ok(post(api, alice, "batch_close", {"type": 0, "currency_match_id": 0}))
    assert rest["closed"] == 2 and sorted(p["id"] for p in rest["data"]) == sorted([short, eth["id"]])
    assert my_trade(api, alice, 1)["total"] == 0
    assert ok(post(api, alice, "batch_close", {"type": 0, "currency_match_id": 0})) == {"closed": 0, "data": []}
    assert lever_balance(api, alice)[1] == 0


async def test_positions_come_ten_to_a_page_newest_first(api: httpx.Client,
                                                         btc_at_60000: tuple[Member, Member]) -> None:  # fmt: skip
    alice = await lever_trader(api, "1000")
    made = [ok(post(api, alice, "submit", entrust(LONG, 1, 200, str(50000 + i))))["id"] for i in range(12)]
    first, second = my_trade(api, alice, 0), my_trade(api, alice, 0, page=2)
    assert (first["total"], first["per_page"], first["current_page"], first["last_page"]) == (12, 10, 1, 2)
    assert [p["id"] for p in first["data"] + second["data"]] == made[::-1]
    assert (second["current_page"], len(second["data"])) == (2, 2)
    assert my_trade(api, alice, 0, page=3)["data"] == []
    assert len(ok(post(api, alice, "deal", {"currency_match_id": BTC_USDT}))["my_transaction"]) == 12

    opened = [ok(post(api, alice, "submit", market(SHORT, 1, 200)))["id"] for _ in range(11)]
    pages = [ok(post(api, alice, "dealall", {"currency_match_id": BTC_USDT, "page": n}))["order"] for n in (1, 2)]
    assert [len(p["data"]) for p in pages] == [10, 1] and pages[0]["last_page"] == 2
    assert [p["id"] for p in pages[0]["data"] + pages[1]["data"]] == opened[::-1]
    for position_id in made:
        ok(post(api, alice, "cancel", {"id": position_id}))
    assert ok(post(api, alice, "batch_close", {"type": SHORT, "currency_match_id": BTC_USDT}))["closed"] == 11
