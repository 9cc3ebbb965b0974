"""Development helpers: a user funds themselves through their wallet shard (load tests, demos)."""

from __future__ import annotations

import httpx

from tests.utils.users import auth, error, member, ok


def test_a_user_credits_their_own_change_account(api: httpx.Client) -> None:
    m = member(api)
    answer = ok(api.post("dev/credit", json={"currency": "usdt", "amount": "1234.5"}, headers=auth(m.token)))
    assert (answer["currency"], answer["amount"]) == ("USDT", "1234.5")
    detail = ok(api.get("account/detail", params={"currency_id": 1}, headers=auth(m.token)))
    assert detail["balance"] == "1234.5"


def test_credit_refuses_bad_input_and_visitors(api: httpx.Client) -> None:
    m = member(api)
    error(api.post("dev/credit", json={"currency": "USDT", "amount": "10"}), 401, 999)
    error(api.post("dev/credit", json={"currency": "NOPE", "amount": "10"}, headers=auth(m.token)), 404)
    for amount in ("0", "-5", "abc", "1e400", "0.000000001"):
        error(api.post("dev/credit", json={"currency": "USDT", "amount": amount}, headers=auth(m.token)), 400)
    detail = ok(api.get("account/detail", params={"currency_id": 1}, headers=auth(m.token)))
    assert detail["balance"] == "0"
