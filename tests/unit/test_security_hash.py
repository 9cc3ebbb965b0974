"""Password hashes: argon2id at the settings' cost, and a hash made at one cost verifies under the other
(a hash carries its parameters), so changing the cost never locks anyone out."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

import pytest
from argon2 import PasswordHasher

from config.settings import get_settings
from serve import security


@pytest.fixture
def cost(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    def set_cost(value: str) -> None:
        monkeypatch.setenv("EXCHANGE_PASSWORD_HASH_COST", value)
        get_settings.cache_clear()
        security._hasher.cache_clear()

    yield set_cost
    monkeypatch.delenv("EXCHANGE_PASSWORD_HASH_COST", raising=False)
    get_settings.cache_clear()
    security._hasher.cache_clear()


def test_the_cost_is_the_settings_and_either_cost_verifies_the_other(cost: Callable[[str], None]) -> None:
    cost("standard")
    strong = asyncio.run(security.hash_password("correct horse"))
    assert strong.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    cost("minimal")
    weak = asyncio.run(security.hash_password("correct horse"))
    assert weak.startswith("$argon2id$v=19$m=8,t=1,p=1$")
    for stored in (strong, weak):
        assert asyncio.run(security.verify_password(stored, "correct horse"))
        assert not asyncio.run(security.verify_password(stored, "wrong horse"))
    assert not asyncio.run(security.verify_password(None, "correct horse"))  # no account: the dummy, never True
    assert PasswordHasher().verify(weak, "correct horse")  # a plain hasher reads the parameters from the hash
