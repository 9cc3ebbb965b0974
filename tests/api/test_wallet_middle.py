"""walletMiddle, its own Serve application under /walletMiddle/: signed binding of withdrawal addresses."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from config.settings import Settings
from serve.stack import Stack
from serve.wallet_middle import sign_of
from tests.utils.users import Member, end_resend_window, error, last_code, member, ok

TRON = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"
USDT_TRC20 = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"


@pytest.fixture(scope="module")
def middle(stack: Stack) -> Iterator[httpx.Client]:
    base = f"http://{stack.settings.http_host}:{stack.settings.http_port}/walletMiddle/"
    with httpx.Client(base_url=base, timeout=30) as client:
        yield client


def signed(settings: Settings, **payload: Any) -> dict[str, tuple[None, str]]:
    data = json.dumps({"t": int(time.time()), **payload})
    return {"data": (None, data), "sign": (None, sign_of(data, settings.wallet_middle_salt))}


def code_for(api: httpx.Client, middle: httpx.Client, user: Member, settings: Settings) -> str:
    end_resend_window(settings, user.account)  # registering sent a code to this address moments ago
    ok(middle.post("SendVerificationcode", data={"user_id": str(user.uid)}, headers=user.auth))
    return last_code(api, user.account, 7)


def test_bind_then_read_a_draw_address(api: httpx.Client, middle: httpx.Client, settings: Settings) -> None:
    alice = member(api)
    code = code_for(api, middle, alice, settings)
    form = signed(settings, user_id=alice.uid, address=TRON, coin_name="USDT", contract_address=USDT_TRC20,
                  verificationcode=code)  # fmt: skip
    bound = ok(middle.post("BindDrawAddress", files=form, headers=alice.auth))
    assert (bound["address"], bound["chain_protocol"]["code"]) == (TRON, "TRC20")
    params = {"user_id": alice.uid, "coin_name": "USDT", "contract_address": USDT_TRC20}
    read = ok(middle.get("GetDrawAddress", params=params, headers=alice.auth))
    assert read["address"] == TRON and len(read["addresses"]) == 1
    # The same binding is visible to the main API's user/addr.
    assert [a["address"] for a in ok(api.get("user/addr", headers=alice.auth))] == [TRON]
    # The code was burnt: replaying the signed request is refused.
    replay = middle.post("BindDrawAddress", files=form, headers=alice.auth)
    assert error(replay, 400) == "The verification code is wrong or has expired"
    erc20 = {
        "user_id": alice.uid,
        "coin_name": "USDT",
        "contract_address": "0xdAC17F958D2ee523a2206206994597C13D831ec7",
    }
    assert ok(middle.post("GetDrawAddress", data=erc20, headers=alice.auth))["address"] == ""


def test_a_wrong_sign_or_a_stale_timestamp_is_refused(
    api: httpx.Client, middle: httpx.Client, settings: Settings
) -> None:
    alice = member(api)
    code = code_for(api, middle, alice, settings)
    payload = {"user_id": alice.uid, "address": TRON, "coin_name": "USDT", "contract_address": USDT_TRC20,
               "verificationcode": code}  # fmt: skip
    form = signed(settings, **payload)
    tampered = {"data": (None, form["data"][1].replace(TRON, "T" + "1" * 33)), "sign": form["sign"]}
    assert error(middle.post("BindDrawAddress", files=tampered, headers=alice.auth), 403) == "Invalid signature"
    other_salt = {"data": form["data"], "sign": (None, sign_of(form["data"][1], "guess"))}
    assert error(middle.post("BindDrawAddress", files=other_salt, headers=alice.auth), 403) == "Invalid signature"
    no_sign = {"data": form["data"][1]}
    assert error(middle.post("BindDrawAddress", data=no_sign, headers=alice.auth), 403) == "Invalid signature"
    stale = signed(settings, **{**payload, "t": int(time.time()) - settings.wallet_middle_max_skew_seconds - 60})
    expired = "The request has expired, please try again"
    assert error(middle.post("BindDrawAddress", files=stale, headers=alice.auth), 403) == expired
    future_ms = signed(settings, **{**payload, "t": int(time.time() * 1000) + 3_600_000})
    assert error(middle.post("BindDrawAddress", files=future_ms, headers=alice.auth), 403) == expired
    fresh_ms = signed(settings, **{**payload, "t": int(time.time() * 1000)})
    assert ok(middle.post("BindDrawAddress", data={k: v[1] for k, v in fresh_ms.items()}, headers=alice.auth))


def test_nobody_reads_or_binds_for_another_user(api: httpx.Client, middle: httpx.Client, settings: Settings) -> None:
    alice, mallory = member(api), member(api)
    mallory_code = code_for(api, middle, mallory, settings)
    form = signed(settings, user_id=alice.uid, address=TRON, coin_name="USDT", contract_address=USDT_TRC20,
                  verificationcode=mallory_code)  # fmt: skip
    assert error(middle.post("BindDrawAddress", files=form, headers=mallory.auth), 403) == (
        "You can only act for your own account"
    )
    params = {"user_id": alice.uid, "coin_name": "USDT", "contract_address": USDT_TRC20}
    assert error(middle.get("GetDrawAddress", params=params, headers=mallory.auth), 403)
    assert error(middle.post("SendVerificationcode", data={"user_id": alice.uid}, headers=mallory.auth), 403)
    assert error(middle.get("GetDrawAddress", params=params), 401, 999)
    assert error(middle.post("BindDrawAddress", files=form), 401, 999)
    assert ok(api.get("user/addr", headers=alice.auth)) == []


def test_bind_rules(api: httpx.Client, middle: httpx.Client, settings: Settings) -> None:
    alice = member(api)
    code = code_for(api, middle, alice, settings)
    base = {"user_id": alice.uid, "address": TRON, "coin_name": "USDT", "contract_address": USDT_TRC20,
            "verificationcode": code}  # fmt: skip
    for change, status, message in [
        ({"address": ""}, 400, "Please enter the address"),
        ({"address": "0x52908400098527886E0F7030069857D2E4169EE7"}, 400, "Please enter a valid address for this chain"),
        ({"coin_name": "NOPE"}, 404, "Currency not found"),
        ({"contract_address": "0xunknown"}, 400, "Please choose a chain this currency supports"),
        ({"verificationcode": "000000" if code != "000000" else "111111"}, 400,
         "The verification code is wrong or has expired"),
    ]:  # fmt: skip
        form = signed(settings, **{**base, **change})
        assert error(middle.post("BindDrawAddress", files=form, headers=alice.auth), status) == message, change
    not_json = {"data": (None, "not json"), "sign": (None, sign_of("not json", settings.wallet_middle_salt))}
    assert error(middle.post("BindDrawAddress", files=not_json, headers=alice.auth), 403) == "Invalid signature"
    assert ok(api.get("user/addr", headers=alice.auth)) == []
