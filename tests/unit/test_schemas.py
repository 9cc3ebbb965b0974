"""The shared field rules of spec §5 (e-mail, mobile, password, code), checked directly."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from pydantic_core import PydanticCustomError

from serve.api.schemas import RegisterIn, check_account, check_code, check_password


@pytest.mark.parametrize(
    "email",
    ["alice@example.com", "a.b-c_d@mail.example.co", "A1@x.io", "bob+tag@example.info", "x@sub-domain.example.org",
     "alice@example.toolong", "carol@exchange.finance", "p2p-demo-1@demo.exchange.local"],
)  # fmt: skip
def test_valid_emails(email: str) -> None:
    assert check_account("email", email) == email.lower()


@pytest.mark.parametrize(
    "email",
    ["", "alice", "alice@", "@example.com", "alice@example", "alice@example.123",
     "al ice@example.com", "alice@@example.com", ".alice@example.com", "alice.@example.com",
     "a" * 45 + "@example.com"],
)  # fmt: skip
def test_invalid_emails(email: str) -> None:
    with pytest.raises(PydanticCustomError):
        check_account("email", email)


@pytest.mark.parametrize("mobile", ["123456", "13800138000", "1" * 20])
def test_valid_mobiles(mobile: str) -> None:
    assert check_account("mobile", mobile) == mobile


@pytest.mark.parametrize("mobile", ["", "12345", "138-0013", "+8613800138000", "13800a38000", "1" * 21])
def test_invalid_mobiles(mobile: str) -> None:
    with pytest.raises(PydanticCustomError):
        check_account("mobile", mobile)


@pytest.mark.parametrize("password", ["abc123", "ABCdef", "123456", "a" * 16])
def test_valid_passwords(password: str) -> None:
    assert check_password(password) == password


@pytest.mark.parametrize("password", ["", "abc12", "a" * 17, "abc 123", "abc-123", "pässwort"])
def test_invalid_passwords(password: str) -> None:
    with pytest.raises(PydanticCustomError):
        check_password(password)


def test_codes_are_required_and_at_most_16_characters() -> None:
    assert check_code("123456") == "123456"
    for bad in ("", "1" * 17):
        with pytest.raises(PydanticCustomError):
            check_code(bad)


def test_register_form_rules_come_in_spec_order() -> None:
    base = {"type": "email", "account": "x@example.com", "password": "abc123", "re_password": "abc123", "sms_code": "1"}
    assert RegisterIn.model_validate(base).account == "x@example.com"
    cases = {
        "Please enter your e-mail": {"account": ""},
        "The two passwords do not match": {"re_password": "abc124"},
        "Please confirm the password": {"re_password": ""},
        "Please enter the verification code": {"sms_code": ""},
        "Please enter a valid phone number": {"type": "mobile", "account": "12ab"},
    }
    for message, change in cases.items():
        with pytest.raises(ValidationError) as info:
            RegisterIn.model_validate({**base, **change})
        assert info.value.errors()[0]["msg"] == message
