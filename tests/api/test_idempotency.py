"""Retries never move money twice (issue 27, item 4): every money-moving POST takes a client key (the
``Idempotency-Key`` header or the body's ``client_id``); a repeat within 24 h answers the first answer
(same status, same body, ``Idempotent-Replayed: true``) and moves nothing. Alice double-clicks a lever
submit, a second contract and a spot order, then repeats each money route of the site once; a key
reused for another request, two keys that disagree and a malformed key are refused; Bob may use
Alice's keys; a refusal is a first answer too; and the OpenAPI document shows the key on each route."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import httpx
import pytest

from config.settings import Settings
from store.models import Account, LeverPosition, LeverStatus, MicroOrder, Order
from tests.api.test_withdraw import TRON, set_deal_password
from tests.utils.p2p import post_ad, trader
from tests.utils.prices import mark_to, mark_traders, move_mark
from tests.utils.sales import financial_member, make_project, make_sale
from tests.utils.spot import cancel, mark
from tests.utils.users import Member, error, member, ok
from tests.utils.wallets import BTC, USDT, fund

BTC_USDT, LTC_USDT = 1, 3
LEVER, MICRO, FINANCIAL = 3, 4, 5
REPLAYED = "Idempotent-Replayed"
BURST = 6
# Every money-moving POST (the list), with what the OpenAPI document must show on it.
MONEY_ROUTES = (
    "/api/tx_in/add",
    "/api/tx_out/add",
    "/api/tx/batch_add",
    "/api/lever/submit",
    "/api/microtrade/submit",
    "/api/account/transfer",
    "/api/account/convert",
    "/api/account/draw",
    "/api/storage_currency/submit_lock",
    "/api/mining/buy",
    "/api/shoufa/buy",
    "/api/listing/buy",
    "/api/legal/order/create",
)


def key() -> str:
    return f"test-{uuid.uuid4()}"


def post(api: httpx.Client, path: str, m: Member, body: dict[str, Any], headers: dict[str, str] | None = None
         ) -> httpx.Response:  # fmt: skip
    return api.post(path, json=body, headers={**m.auth, **(headers or {})})


def ids(api: httpx.Client, path: str, m: Member, field: str | None = None) -> list[int]:
    """The ids a list route shows the user (its rows under ``field`` when it is a page)."""
    data = ok(api.get(path, headers=m.auth))
    return [row["id"] for row in (data[field] if field else data)]


def durations(api: httpx.Client, pair_id: int) -> list[int]:
    return [d["seconds"] for d in ok(api.get("microtrade/seconds", params={"match_id": pair_id}))]


async def holdings(*users: Member) -> list[tuple[int, int, int, Decimal, Decimal]]:
    """Every account of these users: (user, currency, type, balance, lock)."""
    rows = await Account.filter(user_id__in=[u.uid for u in users]).order_by("user_id", "currency_id", "account_type")
    return [(a.user_id, a.currency_id, int(a.account_type), a.balance, a.lock_balance) for a in rows]  # type: ignore[attr-defined]


async def burst(api: httpx.Client, path: str, m: Member, body: dict[str, Any], headers: dict[str, str],
                count: int = BURST) -> list[httpx.Response]:  # fmt: skip
    """``count`` identical POSTs sent at once (a double click, a client that retries too eagerly)."""
    async with httpx.AsyncClient(base_url=api.base_url, timeout=30) as client:
        return list(await asyncio.gather(*(client.post(path, json=body, headers={**m.auth, **headers})
                                           for _ in range(count))))  # fmt: skip


def one_answer(responses: list[httpx.Response]) -> dict[str, Any]:
    """All the responses are the first one's answer; exactly one is not a replay. Answers its data."""
    first = responses[0].json()
    for r in responses:
        assert (r.status_code, r.json()) == (responses[0].status_code, first), (r.status_code, r.json(), first)
    assert sorted(r.headers.get(REPLAYED, "") for r in responses) == [""] + ["true"] * (len(responses) - 1)
    assert responses[0].status_code == 200 and first["code"] == 1, first
    return first["data"]


async def repeated(send: Callable[[dict[str, str]], httpx.Response], *users: Member) -> dict[str, Any]:
    """Send once with a new key, then again with the same key: the repeat answers the first answer,
    says it is a replay, and moves nothing. Answers the first answer's data."""
    headers = {"Idempotency-Key": key()}
    first = send(headers)
    after_first = await holdings(*users)
    again = send(headers)
    assert (again.status_code, again.json()) == (first.status_code, first.json())
    assert REPLAYED not in first.headers and again.headers[REPLAYED] == "true"
    assert await holdings(*users) == after_first
    return ok(first)


@pytest.fixture
async def btc_live(api: httpx.Client, db: None) -> Decimal:
    """BTC/USDT's mark at 60000, fresh."""
    seller, buyer = member(api), member(api)
    await fund(seller, "BTC", "100")
    await fund(buyer, "USDT", "10000000")
    await asyncio.to_thread(mark_to, api, seller, buyer, BTC_USDT, Decimal(60000))
    return Decimal(60000)


@pytest.fixture
async def ltc_live(api: httpx.Client, db: None) -> None:
    """LTC/USDT's mark fresh (second contracts stake on it)."""
    seller, buyer = member(api), member(api)
    await fund(seller, "LTC", "100000")
    await fund(buyer, "USDT", "100000000")
    await asyncio.to_thread(move_mark, api, seller, buyer, LTC_USDT, "1")


# --- bursts: one position, one stake, one order per key ----------------------------------------------


async def test_a_burst_of_one_lever_submit_opens_one_position(api: httpx.Client, btc_live: Decimal) -> None:
    alice = member(api)
    await fund(alice, "USDT", "100000", LEVER)
    body = {"currency_match_id": BTC_USDT, "type": 1, "status": 1, "share": 1, "multiple": 5}
    position = one_answer(await burst(api, "lever/submit", alice, body, {"Idempotency-Key": key()}))
    rows = await LeverPosition.filter(user_id=alice.uid)
    assert [(r.id, r.status) for r in rows] == [(position["id"], LeverStatus.OPEN)]
    margin, fee = Decimal(position["caution_money"]), Decimal(position["trade_fee"])
    assert (await holdings(alice))[0][3:] == (Decimal(100000) - margin - fee, margin)  # one margin, one fee


async def test_a_burst_of_one_second_contract_stakes_once(api: httpx.Client, ltc_live: None) -> None:
    alice = member(api)
    await fund(alice, "USDT", "1000", MICRO)
    seconds = max(durations(api, LTC_USDT))
    body = {"match_id": LTC_USDT, "currency_id": USDT, "type": 1, "lx": 1, "seconds": seconds, "number": "100",
            "client_id": key()}  # fmt: skip
    contract = one_answer(await burst(api, "microtrade/submit", alice, body, {}))
    assert await MicroOrder.filter(user_id=alice.uid).values_list("id", flat=True) == [contract["id"]]
    assert (await holdings(alice))[0][3:] == (Decimal(900), Decimal(100))


async def test_a_burst_of_one_spot_order_places_one_order(api: httpx.Client, btc_live: Decimal) -> None:
    alice = member(api)
    await fund(alice, "USDT", "10000")
    price = (mark(api, BTC_USDT) * Decimal("0.9")).quantize(Decimal(1))  # rests below the market
    body = {"currency_match_id": BTC_USDT, "number": "0.1", "price": str(price), "client_id": key()}
    placed = one_answer(await burst(api, "tx_in/add", alice, body, {}))
    assert await Order.filter(user_id=alice.uid).values_list("id", flat=True) == [placed["id"]]
    assert (await holdings(alice))[0][3:] == (Decimal(10000) - price / 10, price / 10)
    cancel(api, alice, [placed["id"]])  # BTC/USDT's book as it was: a resting bid moves its mark


# --- every money route: a repeat answers the first answer and moves nothing ---------------------------


async def test_a_repeated_transfer_convert_or_withdrawal_moves_once(api: httpx.Client, settings: Settings,
                                                                    db: None) -> None:  # fmt: skip
    alice = member(api)
    await fund(alice, "USDT", "1000")
    await fund(alice, "BTC", "1")
    body = {"currency_id": USDT, "balance": "10", "from": "change_account", "to": "lever_account"}
    await repeated(lambda h: post(api, "account/transfer", alice, body, h), alice)
    body = {"currency_id": USDT, "balance": "10", "from": "change_account", "to": "legal_account"}
    await repeated(lambda h: post(api, "account/transfer", alice, body, h), alice)

    traders = await mark_traders(api)
    await asyncio.to_thread(move_mark, api, *traders, BTC_USDT, "0.001")
    body = {"currency_id": BTC, "number": "0.01"}
    await repeated(lambda h: post(api, "account/convert", alice, body, h), alice)

    set_deal_password(api, settings, alice)
    body = {
        "currency_id": USDT,
        "number": "100",
        "address": TRON,
        "pay_password": "Deal1234",
        "currency_protocol_id": 2,
    }
    request = await repeated(lambda h: post(api, "account/draw", alice, body, h), alice)
    assert ids(api, "account/withdrawals", alice, "data") == [request["id"]]


async def test_a_repeated_batch_of_orders_places_them_once(api: httpx.Client, btc_live: Decimal) -> None:
    alice = member(api)
    await fund(alice, "USDT", "10000")
    price = str((btc_live * Decimal("0.9")).quantize(Decimal(1)))
    orders = [{"side": "buy", "currency_match_id": BTC_USDT, "number": n, "price": price} for n in ("0.01", "0.02")]
    body = {"orders": orders, "client_id": key()}
    placed = await repeated(lambda _: api.post("tx/batch_add", json=body, headers=alice.auth), alice)
    ids = sorted(r["data"]["id"] for r in placed["results"])
    assert sorted(await Order.filter(user_id=alice.uid).values_list("id", flat=True)) == ids
    cancel(api, alice, ids)  # BTC/USDT's book as it was: resting bids move its mark


async def test_a_repeated_earn_buy_buys_once(api: httpx.Client, db: None) -> None:
    saver = await financial_member(api, "100000")
    lock = await repeated(lambda h: api.post("storage_currency/submit_lock", json={"id": 1},
                                             headers={**saver.auth, **h}), saver)  # fmt: skip
    assert ids(api, "storage_currency/current_setting", saver) == [lock["id"]]
    body = {"id": 1, "nums": "1000", "type": 1}
    mined = await repeated(lambda h: post(api, "mining/buy", saver, body, h), saver)
    assert ids(api, "mining/orders", saver, "list") == [mined["id"]]
    sale = await make_sale(total="100000")
    await repeated(lambda h: api.post("shoufa/buy", json={"id": sale.id, "nums": "100"},
                                      headers={**saver.auth, **h}), saver)  # fmt: skip
    project = await make_project()
    applied = await repeated(lambda h: api.post("listing/buy", json={"id": project.id, "nums": "100"},
                                                headers={**saver.auth, **h}), saver)  # fmt: skip
    assert ids(api, "listing/orders", saver, "list") == [applied["id"]]


async def test_a_repeated_p2p_order_opens_once(api: httpx.Client, db: None) -> None:
    merchant = await trader(api, legal={"USDT": "1000"}, merchant=True)
    buyer = await trader(api)
    ad = post_ad(api, merchant, total="100")
    body = {"ad_id": ad["id"], "number": "20", "pay_method": "alipay"}
    opened = await repeated(lambda h: post(api, "legal/order/create", buyer, body, h),
                            merchant, buyer)  # fmt: skip
    assert ids(api, "legal/orders", buyer, "list") == [opened["id"]]


# --- refusals ---------------------------------------------------------------------------------------


async def test_a_key_reused_for_another_request_is_refused_and_moves_nothing(api: httpx.Client, db: None) -> None:
    alice = member(api)
    await fund(alice, "USDT", "1000")
    used = {"Idempotency-Key": key()}
    body = {"currency_id": USDT, "balance": "10", "from": "change_account", "to": "legal_account"}
    ok(post(api, "account/transfer", alice, body, used))
    before = await holdings(alice)
    other = {**body, "balance": "20"}
    reused = "This key was already used for another request: send a new key with a new request"
    assert error(post(api, "account/transfer", alice, other, used), 422) == reused
    lever = {"currency_match_id": BTC_USDT, "type": 1, "status": 1, "share": 1, "multiple": 5}
    assert error(post(api, "lever/submit", alice, lever, used), 422) == reused  # another route
    assert await holdings(alice) == before


async def test_keys_that_disagree_or_are_malformed_are_refused(api: httpx.Client, db: None) -> None:
    alice = member(api)
    await fund(alice, "USDT", "1000")
    body = {"currency_id": USDT, "balance": "10", "from": "change_account", "to": "legal_account"}

    def send(headers: dict[str, str], client_id: Any = None) -> httpx.Response:
        sent = body if client_id is None else {**body, "client_id": client_id}
        return api.post("account/transfer", json=sent, headers={**alice.auth, **headers})

    assert error(send({"Idempotency-Key": "one"}, "two"), 400) == (
        "The Idempotency-Key header and client_id differ: send one key"
    )
    malformed = "An idempotency key is 1 to 64 printable characters"
    for bad in ("x" * 65, "", "tab\there", 42):
        assert error(send({}, bad), 400) == malformed, bad
    assert error(send({"Idempotency-Key": "y" * 65}), 400) == malformed
    assert error(send({"Idempotency-Key": "x" * 65}, "x" * 65), 400) == malformed
    same = key()
    ok(send({"Idempotency-Key": same}, same))  # both given and equal: one key
    assert (await holdings(alice))[0][3] == Decimal(990)


async def test_two_users_may_use_the_same_key(api: httpx.Client, db: None) -> None:
    alice, bob = member(api), member(api)
    shared = {"Idempotency-Key": key()}
    for m in (alice, bob):
        await fund(m, "USDT", "100")
        body = {"currency_id": USDT, "balance": "10", "from": "change_account", "to": "legal_account"}
        answer = post(api, "account/transfer", m, body, shared)
        assert ok(answer) and REPLAYED not in answer.headers
    assert [h[3] for h in await holdings(alice, bob) if h[2] == 1] == [Decimal(90), Decimal(90)]


async def test_a_refusal_is_the_first_answer(api: httpx.Client, btc_live: Decimal) -> None:
    alice = member(api)
    body = {"currency_match_id": BTC_USDT, "type": 1, "status": 1, "share": 1, "multiple": 5}
    used = {"Idempotency-Key": key()}
    refused = post(api, "lever/submit", alice, body, used)
    assert error(refused, 400) == "Insufficient balance"
    await fund(alice, "USDT", "100000", LEVER)
    again = post(api, "lever/submit", alice, body, used)
    assert (again.status_code, again.json(), again.headers[REPLAYED]) == (400, refused.json(), "true")
    assert not await LeverPosition.filter(user_id=alice.uid).exists()
    ok(post(api, "lever/submit", alice, body, {"Idempotency-Key": key()}))  # a new request


async def test_without_a_key_two_submits_are_two_positions(api: httpx.Client, btc_live: Decimal) -> None:
    alice = member(api)
    await fund(alice, "USDT", "100000", LEVER)
    body = {"currency_match_id": BTC_USDT, "type": 1, "status": 1, "share": 1, "multiple": 5}
    for _ in range(2):
        assert REPLAYED not in post(api, "lever/submit", alice, body).headers
    assert await LeverPosition.filter(user_id=alice.uid).count() == 2


def test_the_openapi_document_shows_the_key_on_every_money_route(api: httpx.Client) -> None:
    document = api.get("openapi.json").json()
    schemas = document["components"]["schemas"]
    for path in MONEY_ROUTES:
        operation = document["paths"][path]["post"]
        headers = [p["name"] for p in operation.get("parameters", []) if p["in"] == "header"]
        assert "Idempotency-Key" in headers, path
        ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
        assert "client_id" in schemas[ref]["properties"], path
