"""With the login_use_sms site setting on, login needs a type-5 code as well as the password."""

from __future__ import annotations

import httpx

from config.settings import Settings
from tests.utils.users import error, fresh_code, login, ok, register


def test_login_requires_a_login_code_when_the_setting_is_on(
    api: httpx.Client, settings: Settings, sms_login_on: None
) -> None:
    assert ok(api.get("default/setting", params={"key": "login_use_sms"})) == "1"
    account = register(api)
    assert error(login(api, account), 400) == "Please enter the verification code"
    assert error(login(api, account, sms_code="000000"), 400) == "The verification code is wrong or has expired"
    code = fresh_code(api, settings, account, 5)
    wrong_password = login(api, account, password="Wrong12345", sms_code=code)
    assert error(wrong_password, 400) == "Incorrect account or password"
    data = ok(login(api, account, sms_code=code))
    assert data["token"] and data["account"] == account
    assert error(login(api, account, sms_code=code), 400) == "The verification code is wrong or has expired"


def test_a_forgot_password_code_does_not_open_a_login(
    api: httpx.Client, settings: Settings, sms_login_on: None
) -> None:
    account = register(api)
    code = fresh_code(api, settings, account, 2)
    assert error(login(api, account, sms_code=code), 400) == "The verification code is wrong or has expired"
