"""microtrade/proof is public and read up to 10,000 ticks a call (issue 27): a settled contract's proof
never changes, so it is kept (Redis, bounded) and answered from there; and each client address may ask
at most ``micro_proof_rate`` proofs a minute, then answers 429 with the envelope."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from config.settings import Settings
from tests.api.test_micro import UP, get, ltc, order, proof, settle_wait, staker, submit
from tests.utils.users import Member, error, ok, redis_client

__all__ = ["ltc"]  # the module's fixture: LTC/USDT offers 5-second contracts


@pytest.fixture
def fresh_limit(settings: Settings) -> Iterator[Any]:
    """The proof rate limit's counters cleared before and after: the suite runs from one address."""
    redis = redis_client(settings)

    def clear() -> None:
        for name in redis.scan_iter(match="ex:micro_proof_rate:*", count=1000):
            redis.delete(name)

    clear()
    yield redis
    clear()


async def test_a_settled_contracts_proof_is_kept_and_served_again(
    api: httpx.Client, settings: Settings, ltc: tuple[Member, Member], fresh_limit: Any
) -> None:
    m = await staker(api)
    placed = ok(submit(api, m, order(UP, "10")))
    assert not fresh_limit.exists(f"ex:micro_proof:{placed['id']}")  # open: its proof still grows
    proof(api, placed["id"])
    assert not fresh_limit.exists(f"ex:micro_proof:{placed['id']}")
    settle_wait(api, m, placed["id"])
    first = proof(api, placed["id"])
    assert first["verdict"]["matches"]
    assert 0 < fresh_limit.ttl(f"ex:micro_proof:{placed['id']}") <= settings.micro_proof_cache_seconds
    assert proof(api, placed["id"]) == first


def test_proofs_are_limited_per_client_address(api: httpx.Client, settings: Settings, fresh_limit: Any) -> None:
    answers = [get(api, "proof", id=987654321987) for _ in range(settings.micro_proof_rate + 1)]
    assert [r.status_code for r in answers] == [404] * settings.micro_proof_rate + [429]
    limited = f"Too many proof requests: at most {settings.micro_proof_rate} a minute, please try again shortly"
    assert error(answers[-1], 429) == limited
    french = api.get("microtrade/proof", params={"id": 1}, headers={"lang": "fr"})
    assert error(french, 429) not in ("", limited)
