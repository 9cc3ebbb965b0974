"""The console's markets (issue 16): a markets operator closes a pair and its running actor refuses
orders at once (no restart), then opens it again; fees and bounds are checked; each change audited.
Lever and second-contract terms reach the running lever shards and timers at once: the next position
pays the new fee, a pair closed for lever refuses opens while its positions still close, a pair newly
opened is followed at once, and the next contract takes the new ratio while accepted ones keep theirs."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from decimal import ROUND_CEILING, Decimal
from typing import Any

import httpx
import pytest
import ray

from actors.micro.actor import OFFERS_TTL_MS
from actors.names import lever_name, micro_name
from config.settings import Settings
from serve.i18n import translate
from store.models import AccountType, AuditLog, CurrencyMatch, LeverPosition, MicroOrder, MicroStatus
from tests.api.test_admin import make_operator, token_of
from tests.api.test_lever import LONG, SHORT, lever_trader, market
from tests.utils.prices import live_mark, mark_to
from tests.utils.sales import get, post
from tests.utils.users import Member, error, member, ok
from tests.utils.wallets import USDT, fund

LTC_USDT = 3


async def operator_of(role: str, api: httpx.Client) -> tuple[str, dict[str, str]]:
    """A new operator holding ``role``, signed in: its e-mail and its session header."""
    op, secret = await make_operator(role)
    return op.email, token_of(api, op, secret)


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


# --- lever and second-contract terms (admin/pairs/lever, admin/pairs/micro) ----------------------------

BTC_USDT, ETH_USDT, ACB_USDT, ETH_BTC = 1, 2, 64, 20
LEVER_FIELDS = ("open_lever", "lever_share_num", "lever_fee_rate", "lever_point_rate", "lever_overnight_rate",
                "lever_max_exposure", "lever_multiples", "lever_shares", "lever_max_hands")  # fmt: skip
MICRO_FIELDS = ("open_microtrade", "micro_seconds", "micro_fee_rate", "micro_max_exposure")
NOT_OFFERED = "Leveraged trading is not offered on this pair"


@asynccontextmanager
async def terms_restored(settings: Settings, *pair_ids: int) -> AsyncIterator[dict[int, CurrencyMatch]]:
    """The pairs' lever and second-contract terms as they are, put back afterwards (every lever shard and
    timer told at once)."""
    saved = {i: await CurrencyMatch.get(id=i) for i in pair_ids}
    try:
        yield saved
    finally:
        for i, pair in saved.items():
            await CurrencyMatch.filter(id=i).update(**{k: getattr(pair, k) for k in (*LEVER_FIELDS, *MICRO_FIELDS)})
        names = [lever_name(i) for i in range(settings.lever_shards)]
        for name in names + [micro_name(i) for i in range(settings.micro_shards)]:
            await ray.get_actor(name).reload_terms.remote()


@pytest.fixture
async def movers(api: httpx.Client, db: None) -> tuple[Member, Member]:
    """A seller of BTC and a buyer with USDT: their trades set BTC/USDT's mark."""
    seller, buyer = member(api), member(api)
    await fund(seller, "BTC", "100")
    await fund(buyer, "USDT", "10000000")
    return seller, buyer


def lever_call(api: httpx.Client, m: Member, route: str, body: dict[str, Any]) -> httpx.Response:
    return api.post(f"lever/{route}", json=body, headers=m.auth)


def fee_at(position: dict[str, Any], rate: str) -> Decimal:
    """What opening ``position`` costs at the fee ``rate`` (the rule of actors.lever.terms.fee)."""
    value = Decimal(position["price"]) * Decimal(position["number"]) * Decimal(rate)
    return value.quantize(Decimal("0.000001"), rounding=ROUND_CEILING)


async def test_lever_terms_reach_the_running_shards_and_open_positions_keep_theirs(
    api: httpx.Client, settings: Settings, movers: tuple[Member, Member]
) -> None:
    email, auth = await operator_of("markets", api)
    await asyncio.to_thread(mark_to, api, *movers, BTC_USDT, Decimal(60000))
    alice = await lever_trader(api, "5000")
    async with terms_restored(settings, BTC_USDT):
        before = ok(lever_call(api, alice, "submit", market(LONG, 1, 10)))  # opened at the seeded 0.1 % fee
        assert Decimal(before["trade_fee"]) == fee_at(before, "0.001")
        changed = ok(post(api, "admin/pairs/lever", json={"id": BTC_USDT, "lever_fee_rate": "0.002",
                                                          "lever_overnight_rate": "0.001", "lever_multiples": "5,10",
                                                          "reason": "fee review"}, headers=auth))  # fmt: skip
        assert (changed["lever_fee_rate"], changed["lever_multiples"], changed["applied_live"]) == (
            "0.002",
            "5,10",
            True,
        )
        after = ok(lever_call(api, alice, "submit", market(LONG, 1, 10)))  # at once: no restart, no wait
        assert Decimal(after["trade_fee"]) == fee_at(after, "0.002") != fee_at(after, "0.001")
        assert (
            error(lever_call(api, alice, "submit", market(LONG, 1, 20)), 400) == "This pair offers the multiples 5, 10"
        )
        panel = ok(lever_call(api, alice, "deal", {"currency_match_id": BTC_USDT}))
        assert panel["multiple"]["muit"] == [5, 10]
        kept = await LeverPosition.get(id=before["id"])  # the open position keeps the terms it was made with
        made = await LeverPosition.get(id=after["id"])
        assert (kept.fee_rate, kept.overnight_rate) == (Decimal("0.001"), Decimal("0.0005"))
        assert (made.fee_rate, made.overnight_rate) == (Decimal("0.002"), Decimal("0.001"))

        off = ok(post(api, "admin/pairs/lever", json={"id": BTC_USDT, "open_lever": False, "reason": "risk review"},
                      headers=auth))  # fmt: skip
        assert (off["open_lever"], off["applied_live"]) == (False, True)
        assert error(lever_call(api, alice, "submit", market(LONG, 1, 10)), 400) == NOT_OFFERED
        assert error(lever_call(api, alice, "deal", {"currency_match_id": BTC_USDT}), 400) == NOT_OFFERED
        closed = ok(lever_call(api, alice, "close", {"id": before["id"]}))  # what is open still closes
        assert closed["status"] == 3
        ok(
            post(
                api, "admin/pairs/lever", json={"id": BTC_USDT, "open_lever": True, "reason": "reviewed"}, headers=auth
            )
        )
        ok(lever_call(api, alice, "submit", market(SHORT, 1, 5)))
        ok(lever_call(api, alice, "batch_close", {"currency_match_id": BTC_USDT}))
    rows = await AuditLog.filter(operator=email, action__startswith="pair.").order_by("id")
    assert [(r.action, r.target, r.reason) for r in rows] == [
        ("pair.lever", f"pair:{BTC_USDT}", "fee review"),
        ("pair.lever", f"pair:{BTC_USDT}", "risk review"),
        ("pair.lever", f"pair:{BTC_USDT}", "reviewed"),
    ]
    assert rows[0].before == {"lever_fee_rate": "0.001", "lever_overnight_rate": "0.0005",
                              "lever_multiples": "5,10,20,50,100,200"}  # fmt: skip
    assert rows[0].after == {"lever_fee_rate": "0.002", "lever_overnight_rate": "0.001", "lever_multiples": "5,10"}
    assert (rows[1].before, rows[1].after) == ({"open_lever": True}, {"open_lever": False})


async def test_a_pair_newly_opened_for_lever_is_followed_at_once(api: httpx.Client, settings: Settings,
                                                                 db: None) -> None:  # fmt: skip
    _, auth = await operator_of("markets", api)
    mark = live_mark(api, ACB_USDT)
    assert mark is not None and mark["fresh"]  # the pair runs, with a mark (its seeded last price)
    bob = await lever_trader(api, "100")
    async with terms_restored(settings, ACB_USDT):
        assert error(lever_call(api, bob, "submit", market(LONG, 1, 5, ACB_USDT)), 400) == NOT_OFFERED
        ok(post(api, "admin/pairs/lever", json={"id": ACB_USDT, "open_lever": True, "reason": "listing"}, headers=auth))
        for i in range(settings.lever_shards):
            assert ACB_USDT in (await ray.get_actor(lever_name(i)).status.remote())["offered"]
        opened = ok(lever_call(api, bob, "submit", market(LONG, 1, 5, ACB_USDT)))
        assert (opened["symbol"], opened["status"], opened["price"]) == ("ACB/USDT", 1, mark["price"])
        ok(post(api, "admin/pairs/lever", json={"id": ACB_USDT, "open_lever": False, "reason": "delisting"},
                headers=auth))  # fmt: skip
        assert error(lever_call(api, bob, "submit", market(LONG, 1, 5, ACB_USDT)), 400) == NOT_OFFERED
        assert ok(lever_call(api, bob, "close", {"id": opened["id"]}))["status"] == 3


async def test_second_contract_terms_reach_the_timers_and_accepted_contracts_keep_theirs(
    api: httpx.Client, settings: Settings, db: None
) -> None:
    email, auth = await operator_of("markets", api)
    carol = member(api)
    await fund(carol, "USDT", "1000", AccountType.MICRO)
    stake = {"match_id": ETH_USDT, "currency_id": USDT, "type": 1, "lx": 1, "seconds": 5, "number": "100"}

    def seconds() -> list[dict[str, Any]]:
        return ok(get(api, "microtrade/seconds", params={"match_id": ETH_USDT}))

    async with terms_restored(settings, ETH_USDT):
        saved = (await CurrencyMatch.get(id=ETH_USDT)).micro_seconds
        changed = ok(post(api, "admin/pairs/micro", json={"id": ETH_USDT, "micro_seconds": f"5:80,{saved}",
                                                          "reason": "short contracts"}, headers=auth))  # fmt: skip
        assert changed["applied_live"] is True
        assert seconds()[0] == {"seconds": 5, "profit_ratio": "80"}
        first = ok(post(api, "microtrade/submit", json=stake, headers=carol.auth))  # at once: no wait
        ok(post(api, "admin/pairs/micro", json={"id": ETH_USDT, "micro_seconds": f"5:90,{saved}", "reason": "promo"},
                headers=auth))  # fmt: skip
        assert seconds()[0] == {"seconds": 5, "profit_ratio": "90"}
        second = ok(post(api, "microtrade/submit", json=stake, headers=carol.auth))
        assert (first["profit_ratio"], second["profit_ratio"]) == ("80", "90")
        # A change written to the database by other means (a seed, a script) reaches the timers within
        # their refresh (OFFERS_TTL_MS) even untold.
        await CurrencyMatch.filter(id=ETH_USDT).update(micro_seconds=f"5:85,{saved}")
        await asyncio.sleep(OFFERS_TTL_MS / 1000 + 0.2)
        third = ok(post(api, "microtrade/submit", json=stake, headers=carol.auth))
        assert third["profit_ratio"] == "85"

        ok(post(api, "admin/pairs/micro", json={"id": ETH_USDT, "open_microtrade": False, "reason": "pause"},
                headers=auth))  # fmt: skip
        refused = post(api, "microtrade/submit", json=stake, headers=carol.auth)
        assert error(refused, 400) == "Second contracts are not offered on this pair"
        assert error(get(api, "microtrade/seconds", params={"match_id": ETH_USDT}), 400)

        # The pair closed for new contracts still settles the accepted ones, promptly (from its ticks and
        # fence, not after the timers give up on it), each by the ratio it was accepted with.
        ids, deadline = [first["id"], second["id"], third["id"]], time.monotonic() + 20
        while len(rows := await MicroOrder.filter(id__in=ids, status=MicroStatus.CLOSED).order_by("id")) < 3:
            assert time.monotonic() < deadline, "the contracts did not settle"
            await asyncio.sleep(0.2)
    ratios = {first["id"]: 80, second["id"]: 90, third["id"]: 85}
    for row in rows:
        ratio = ratios[row.id]
        payout = {"win": 100 + ratio, "loss": 0, "tie": 100, "void": 100}[row.outcome]
        assert (row.profit_ratio, row.payout) == (Decimal(ratio), Decimal(payout)), row.outcome
    actions = [
        (r.action, r.reason) for r in await AuditLog.filter(operator=email, action__startswith="pair.").order_by("id")
    ]
    assert actions == [("pair.micro", "short contracts"), ("pair.micro", "promo"), ("pair.micro", "pause")]


LEVER_BAD = [  # (change, message; None: a shape the schema refuses, any message)
    ({"lever_fee_rate": "0.06"}, "lever_fee_rate must be a number from 0 to 0.05"),
    ({"lever_fee_rate": "-0.001"}, "lever_fee_rate must be a number from 0 to 0.05"),
    ({"lever_fee_rate": "0.1%"}, "lever_fee_rate must be a number from 0 to 0.05"),
    ({"lever_fee_rate": 0.002}, None),  # a JSON number: money travels as a decimal string
    ({"lever_point_rate": "5.5"}, "lever_point_rate must be a number from 0 to 5"),
    ({"lever_overnight_rate": "0.02"}, "lever_overnight_rate must be a number from 0 to 0.01"),
    ({"lever_share_num": "0"}, "lever_share_num must be a number above 0 and at most 1000000000000000"),
    ({"lever_share_num": "0." + "0" * 18 + "1"}, "lever_share_num can have at most 18 decimal places"),
    ({"lever_max_exposure": ""}, "lever_max_exposure must be a number above 0 and at most 1000000000000000"),
    ({"lever_multiples": "5,5"}, "lever_multiples must list 1 to 12 different whole numbers from 1 to 1000, "
                                 "separated by commas"),
    ({"lever_multiples": "0,5"}, "lever_multiples must list 1 to 12 different whole numbers from 1 to 1000, "
                                 "separated by commas"),
    ({"lever_multiples": "5;10"}, "lever_multiples must list 1 to 12 different whole numbers from 1 to 1000, "
                                  "separated by commas"),
    ({"lever_multiples": ",".join(map(str, range(1, 14)))}, "lever_multiples must list 1 to 12 different whole "
                                                             "numbers from 1 to 1000, separated by commas"),
    ({"lever_shares": "1,2,500"}, "lever_shares must list 1 to 12 different whole numbers from 1 to 100, separated "
                                  "by commas"),  # above lever_max_hands
    ({"lever_max_hands": 10}, "lever_shares must list 1 to 12 different whole numbers from 1 to 10, separated by "
                              "commas"),  # the presets 20 and 50 would be out of reach
    ({"lever_max_hands": 0}, None),
    ({"lever_max_hands": "many"}, None),
    ({"open_lever": "maybe"}, None),
    ({}, "Nothing to change: give at least one setting"),
]  # fmt: skip
DURATIONS = ("micro_seconds must list 1 to 12 durations as seconds:percent separated by commas, such as 30:80,60:85: "
             "each duration once, from 1 to 86400 seconds, a percent above 0 and at most 100 with at most 2 decimal "
             "places")  # fmt: skip
BAD_DURATIONS = ("30", "30:0", "30:100.5", "0:80", "86401:80", "30:80,30:85", "30:80.123", "", "30:-5", "30:80,,60:85")
MICRO_BAD = [
    *[({"micro_seconds": bad}, DURATIONS) for bad in BAD_DURATIONS],
    ({"micro_fee_rate": "51"}, "micro_fee_rate must be a number from 0 to 50"),
    ({"micro_max_exposure": "0"}, "micro_max_exposure must be a number above 0 and at most 1000000000000000"),
    ({"open_microtrade": "maybe"}, None),
    ({}, "Nothing to change: give at least one setting"),
]


@pytest.mark.parametrize(("route", "change", "message"),
                         [("lever", c, m) for c, m in LEVER_BAD] + [("micro", c, m) for c, m in MICRO_BAD])  # fmt: skip
async def test_bad_lever_and_micro_terms_are_refused_with_what_to_fix_and_change_nothing(
    api: httpx.Client, db: None, route: str, change: dict[str, Any], message: str | None
) -> None:
    email, auth = await operator_of("markets", api)
    fields = (*LEVER_FIELDS, *MICRO_FIELDS)
    before = {k: getattr(await CurrencyMatch.get(id=BTC_USDT), k) for k in fields}
    text = error(post(api, f"admin/pairs/{route}", json={"id": BTC_USDT, **change}, headers=auth), 400)
    if message is not None:
        assert text == message
    assert {k: getattr(await CurrencyMatch.get(id=BTC_USDT), k) for k in fields} == before
    assert not await AuditLog.filter(operator=email, action__startswith="pair.").exists()


async def test_lever_and_micro_only_on_usdt_pairs_and_only_for_markets(api: httpx.Client, db: None) -> None:
    _, auth = await operator_of("markets", api)
    for route, switch in (("lever", "open_lever"), ("micro", "open_microtrade")):
        refused = post(api, f"admin/pairs/{route}", json={"id": ETH_BTC, switch: True}, headers={**auth, "lang": "hk"})
        assert error(refused, 400) == translate(
            "Only pairs quoted in USDT can offer leveraged or second contracts", "hk"
        )
        assert error(post(api, f"admin/pairs/{route}", json={"id": 999999, switch: True}, headers=auth), 404)
    assert not (await CurrencyMatch.get(id=ETH_BTC)).open_lever
    listed = {p["id"]: p for p in ok(get(api, "admin/pairs", headers=auth))}
    assert (listed[BTC_USDT]["quote"], listed[ETH_BTC]["quote"], listed[BTC_USDT]["lever_max_hands"]) == (
        "USDT", "BTC", 100,
    )  # fmt: skip
    assert listed[BTC_USDT]["micro_seconds"] == "30:80,60:85,120:90,300:90"
    _, support = await operator_of("support", api)
    for route, switch in (("lever", "open_lever"), ("micro", "open_microtrade")):
        body = {"id": BTC_USDT, switch: False}
        assert error(post(api, f"admin/pairs/{route}", json=body, headers=support), 403)
    assert (await CurrencyMatch.get(id=BTC_USDT)).open_lever
