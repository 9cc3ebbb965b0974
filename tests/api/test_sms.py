"""Phone codes that reach phones (issue 30): the session's stack sends them to the test SMSC over SMPP,
falling back to the Twilio-shaped gateway (tests/conftest.py); a user signs up with the code read from
what the server received. Invalid numbers and a country's ceiling are refused with translated errors;
operators see every message's state in the console and with `exchange outbox`."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable

import httpx
import pytest

from config.settings import Settings
from store.sms import ceiling
from tests.api.test_admin import make_operator, token_of
from tests.utils.cli import exchange
from tests.utils.sales import get, post
from tests.utils.smpp_server import Smsc
from tests.utils.twilio_server import FakeTwilio
from tests.utils.users import error, ok, unique_mobile

CHINA, JAPAN = 34, 10


def send(api: httpx.Client, to: str, area_id: int, lang: str = "en") -> httpx.Response:
    return api.post("notify/send_sms", json={"to": to, "type": 1, "area_id": area_id}, headers={"lang": lang})


def code_in(texts: Callable[[], list[str]]) -> str:
    """The six digits of the first text the server received (waits for the sender to hand it over)."""
    while not (found := texts()):
        time.sleep(0.05)
    match = re.search(r"\d{6}", found[0])
    assert match, found
    return match.group(0)


def register(api: httpx.Client, mobile: str, code: str, area_id: int) -> None:
    ok(api.post("user/register", json={"type": "mobile", "account": mobile, "password": "Secret123",
                                        "re_password": "Secret123", "sms_code": code, "area_id": area_id}))  # fmt: skip


def smsc_texts(smsc: Smsc, mobile: str, dialling: str) -> Callable[[], list[str]]:
    def texts() -> list[str]:
        subs = [s for s in smsc.state.submitted if s.destination_addr == f"{dialling}{mobile}"]
        return [s.short_message.decode("utf-16-be" if s.data_coding == 8 else "latin-1") for s in subs]

    return texts


def test_a_phone_sign_up_with_the_code_the_smsc_received(api: httpx.Client, smsc: Smsc) -> None:
    mobile = unique_mobile(CHINA)
    ok(send(api, mobile, CHINA, lang="hk"))
    code = code_in(smsc_texts(smsc, mobile, "86"))
    [text] = smsc_texts(smsc, mobile, "86")()
    assert "驗證碼" in text  # the user's language, sent as UCS2
    register(api, mobile, code, CHINA)


def test_with_the_smsc_failing_the_gateway_delivers_the_code(api: httpx.Client, smsc: Smsc, twilio: FakeTwilio) -> None:
    mobile = unique_mobile(CHINA)
    smsc.state.refuse = 0x08  # ESME_RSYSERR
    try:
        ok(send(api, mobile, CHINA))
        code = code_in(lambda: twilio.bodies(f"+86{mobile}"))
    finally:
        smsc.state.refuse = 0
    assert smsc_texts(smsc, mobile, "86")() == []
    register(api, mobile, code, CHINA)


@pytest.mark.parametrize(("to", "area_id"), [("1234567", 34), ("99912345678", 34), ("7123456789", 10), ("123456", 1)])
def test_a_number_that_is_not_one_of_the_countrys_is_a_translated_400(api: httpx.Client, to: str, area_id: int) -> None:
    message = error(send(api, to, area_id, lang="fr"), 400)
    assert message == "Ce numéro de téléphone n'est pas valide pour le pays ou la région choisis"
    assert error(send(api, to, area_id), 400) == "This is not a valid phone number for the chosen country or region"


async def test_a_countrys_ceiling_refuses_codes_and_keeps_the_numbers_window(api: httpx.Client, db: None) -> None:
    mobile = unique_mobile(JAPAN)
    await ceiling.set_override("JP", 0)  # an operator closed Japan
    try:
        assert (
            error(send(api, mobile, JAPAN, lang="jp"), 429)
            == "現在この国へのコード送信が多すぎます。1分後にもう一度お試しください"
        )
    finally:
        await ceiling.set_override("JP", None)
    ok(send(api, mobile, JAPAN))  # nothing was sent, so the number's resend window was not taken


async def test_operators_see_each_messages_state_in_the_console_and_the_cli(
    api: httpx.Client, smsc: Smsc, settings: Settings, db: None
) -> None:
    mobile = unique_mobile(CHINA)
    ok(send(api, mobile, CHINA))
    op, secret = await make_operator("support")
    headers = token_of(api, op, secret)
    while True:  # the SMSC's receipt reaches the sender shortly after the submit
        [row] = ok(get(api, "admin/sms/messages", params={"to": f"+86{mobile}"}, headers=headers))["list"]
        if row["state"] == "delivered":
            break
        await asyncio.sleep(0.05)
    assert (row["provider"], row["region"], row["parts"]) == ("smpp", "CN", 1)
    assert "******" in row["text"] and not re.search(r"\d{6}", row["text"])  # the code is masked
    listed = exchange(settings, "outbox", "--to", f"+86{mobile}")
    assert listed.returncode == 0 and "delivered" in listed.stdout and "******" in listed.stdout, listed.stderr
    assert error(get(api, "admin/sms/ceilings", headers=headers), 403)  # ceilings are the risk role's


async def test_risk_operators_set_a_countrys_ceiling(api: httpx.Client, settings: Settings, db: None) -> None:
    op, secret = await make_operator("risk")
    headers = token_of(api, op, secret)
    saved = ok(post(api, "admin/sms/ceilings/save", json={"region": "NG", "per_minute": 5}, headers=headers))
    assert saved == {"region": "NG", "per_minute": 5}
    listed = ok(get(api, "admin/sms/ceilings", headers=headers))
    assert (
        listed["default"] == settings.sms_country_per_minute
        and {"region": "NG", "per_minute": 5, "used": 0} in listed["list"]
    )
    assert error(post(api, "admin/sms/ceilings/save", json={"region": "ng", "per_minute": 5}, headers=headers), 400)
    shown = exchange(settings, "outbox", "ceiling", "NG", "default")
    assert shown.returncode == 0 and "NG" not in shown.stdout, shown.stdout
