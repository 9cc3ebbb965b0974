"""The idempotency rule's mechanism (``serve.api.idempotency`` over ``store.idempotency``) on a small app
of its own against the session's Redis: what happens to a key when its first request's outcome is
unknown, still running, or its process died; what a ``retry`` route's reruns see."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Request

from config.settings import Settings
from serve.api.deps import CurrentUid, Services
from serve.api.idempotency import REPLAYED, Keyed, attempt_of, idempotent
from serve.errors import envelope, install_error_handlers
from store.cache import connect_redis
from store.errors import DomainError, ErrorCode
from store.sessions import PREFIX


class MoveIn(Keyed):
    amount: int = 1


class Ledger:
    """Stands in for the ledger: a movement journaled under its ref moves once."""

    def __init__(self) -> None:
        self.moves: dict[str, int] = {}
        self.runs: list[dict[str, Any]] = []
        self.fail: BaseException | None = None  # raised once, after the money moved
        self.pause = 0.0

    async def move(self, request: Request, amount: int, *, dedupe: bool) -> Any:
        attempt = attempt_of(request)
        ref = attempt.ref("m") if attempt and dedupe else uuid.uuid4().hex
        order = await attempt.remember("order", self._next) if attempt else 0
        self.runs.append({"retry": attempt.retry if attempt else None, "ref": ref, "order": order})
        await asyncio.sleep(self.pause)
        self.moves.setdefault(ref, amount)
        failure, self.fail = self.fail, None
        if failure is not None:
            raise failure
        return envelope({"moved": sum(self.moves.values()), "order": order})

    async def _next(self) -> int:
        return len(self.runs) + 100


@pytest.fixture
async def app(settings: Settings) -> AsyncIterator[tuple[httpx.AsyncClient, Ledger, Services, str]]:
    ledger = Ledger()
    api = FastAPI()
    install_error_handlers(api)

    @api.post("/retry")
    @idempotent(retry=True)
    async def retry_route(body: MoveIn, uid: CurrentUid, request: Request) -> Any:
        return await ledger.move(request, body.amount, dedupe=True)

    @api.post("/hold")
    @idempotent(single_flight=True)
    async def hold_route(body: MoveIn, uid: CurrentUid, request: Request) -> Any:
        return await ledger.move(request, body.amount, dedupe=False)

    redis = connect_redis(settings)
    quick = settings.model_copy(update={"idempotency_wait_seconds": 0.5, "idempotency_lease_seconds": 30})
    api.state.services = svc = Services.build(quick, redis)
    token = await svc.sessions.issue(9_000_000 + uuid.uuid4().int % 1_000_000)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=api), base_url="http://test") as client:
        yield client, ledger, svc, token
    await redis.aclose()


def key() -> dict[str, str]:
    return {"Idempotency-Key": uuid.uuid4().hex}


async def test_an_unknown_outcome_on_a_retry_route_runs_again_under_the_same_references(app: Any) -> None:
    client, ledger, _, token = app
    headers = {"Authorization": token, **key()}
    ledger.fail = RuntimeError("the actor died after moving the money")
    with pytest.raises(RuntimeError):
        await client.post("/retry", json={"amount": 5}, headers=headers)
    again = await client.post("/retry", json={"amount": 5}, headers=headers)
    assert again.json()["data"] == {"moved": 5, "order": 100} and REPLAYED not in again.headers
    assert [r["retry"] for r in ledger.runs] == [False, True]
    assert ledger.runs[0]["ref"] == ledger.runs[1]["ref"] and ledger.runs[1]["order"] == 100  # the same references
    third = await client.post("/retry", json={"amount": 5}, headers=headers)
    assert (third.json(), third.headers[REPLAYED]) == (again.json(), "true") and len(ledger.runs) == 2


async def test_a_5xx_answer_is_never_the_first_answer(app: Any) -> None:
    client, ledger, _, token = app
    headers = {"Authorization": token, **key()}
    ledger.fail = DomainError(ErrorCode.SERVICE_UNAVAILABLE)
    assert (await client.post("/retry", json={}, headers=headers)).status_code == 503
    assert (await client.post("/retry", json={}, headers=headers)).json()["data"] == {"moved": 1, "order": 100}


async def test_an_unknown_outcome_on_another_route_refuses_repeats(app: Any) -> None:
    client, ledger, _, token = app
    headers = {"Authorization": token, **key()}
    ledger.fail = DomainError(ErrorCode.PAIR_UNAVAILABLE)
    assert (await client.post("/hold", json={"amount": 3}, headers=headers)).status_code == 503
    again = await client.post("/hold", json={"amount": 3}, headers=headers)
    assert (again.status_code, again.json()["msg"]) == (409, (
        "The first request with this key did not finish and may have been carried out: check your records, then "
        "send a new request with a new key"))  # fmt: skip
    assert len(ledger.runs) == 1 and sum(ledger.moves.values()) == 3


async def test_a_repeat_waits_for_the_first_answer_then_gives_up_with_409(app: Any) -> None:
    client, ledger, _, token = app
    headers = {"Authorization": token, **key()}
    ledger.pause = 0.2
    first, second = await asyncio.gather(*(client.post("/hold", json={}, headers=headers) for _ in range(2)))
    assert first.json() == second.json() and {REPLAYED in r.headers for r in (first, second)} == {True, False}
    ledger.pause = 1.0
    slow = {"Authorization": token, **key()}
    running = asyncio.create_task(client.post("/hold", json={}, headers=slow))
    await asyncio.sleep(0.1)
    second = await client.post("/hold", json={}, headers=slow)  # waits idempotency_wait_seconds (0.5 s here)
    assert (await running).json()["code"] == 1
    assert (second.status_code, second.json()["msg"]) == (
        409, "The first request with this key is still in progress, please check again shortly")  # fmt: skip
    assert len(ledger.runs) == 2


async def test_an_attempt_whose_lease_ran_out_is_taken_for_unknown(app: Any) -> None:
    client, ledger, svc, token = app
    uid = await svc.sessions.resolve(token)
    for route, expected in (("/retry", 200), ("/hold", 409)):
        headers = {"Authorization": token, **key()}
        first = asyncio.create_task(client.post(route, json={}, headers=headers))
        ledger.pause = 0.3
        await asyncio.sleep(0.1)
        name = f"{PREFIX}idem:{uid}:{headers['Idempotency-Key']}"
        record = await svc.redis.get(name)
        # As if the process running the first attempt had died long ago (its lease ended):
        await svc.redis.set(name, _aged(record), keepttl=True)
        again = await client.post(route, json={}, headers=headers)
        assert again.status_code == expected, (route, again.json())
        await first
        ledger.pause = 0.0


def _aged(record: str) -> str:
    found = json.loads(record)
    found["t"] -= 3_600_000
    return json.dumps(found)


async def test_a_route_that_cannot_tell_yet_keeps_the_key_open(app: Any) -> None:
    client, ledger, _, token = app
    headers = {"Authorization": token, **key()}
    ledger.fail = DomainError(ErrorCode.IDEMPOTENCY_IN_PROGRESS)
    assert (await client.post("/retry", json={}, headers=headers)).status_code == 409
    assert (await client.post("/hold", json={}, headers=headers)).status_code == 422  # another request
    retried = await client.post("/retry", json={}, headers=headers)
    assert retried.status_code == 200 and [r["retry"] for r in ledger.runs] == [False, True]


async def test_no_key_runs_as_before_and_a_bad_login_reserves_nothing(app: Any) -> None:
    client, ledger, svc, token = app
    for _ in range(2):
        assert (await client.post("/retry", json={}, headers={"Authorization": token})).json()["code"] == 1
    assert sum(ledger.moves.values()) == 2
    headers = key()
    assert (await client.post("/retry", json={}, headers=headers)).status_code == 401
    assert not [k async for k in svc.redis.scan_iter(match=f"{PREFIX}idem:*:{headers['Idempotency-Key']}")]
