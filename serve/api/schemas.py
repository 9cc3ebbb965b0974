"""Request and answer schemas shared by the access routes, with the spec's validation rules.

Rules (spec shell-access-content-products §5, trading-assets-personal §5): mobile digits only, 6 to 20;
e-mail any valid address of at most 50 characters (``serve.emails``: the spec's 2-4 letter top-level
part refused real addresses, issue 27); login password 6 to 16 letters or digits; codes at most 16;
country codes digits only, at most 3.
Each rule raises an already-worded message id that the edge translates.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from serve.emails import normal_email
from serve.i18n import N_

MOBILE_RE = re.compile(r"^[0-9]{6,20}$")
PASSWORD_RE = re.compile(r"^[A-Za-z0-9]{6,16}$")
DIGITS_RE = re.compile(r"^[0-9]{1,3}$")

ENTER_EMAIL = N_("Please enter your e-mail")
ENTER_MOBILE = N_("Please enter your phone number")
ENTER_ACCOUNT = N_("Please enter your phone number or e-mail")
BAD_EMAIL = N_("Please enter a valid e-mail address")
BAD_MOBILE = N_("Please enter a valid phone number")
ENTER_PASSWORD = N_("Please enter the password")
BAD_PASSWORD = N_("The password must be 6 to 16 letters or digits")
PASSWORDS_DIFFER = N_("The two passwords do not match")
ENTER_CODE = N_("Please enter the verification code")
BAD_CODE = N_("The verification code is at most 16 characters")
BAD_COUNTRY_CODE = N_("The country code must be 1 to 3 digits")
ENTER_CONFIRMATION = N_("Please confirm the password")
ENTER_LOGIN_PASSWORD = N_("Please enter your login password")

Kind = Literal["email", "mobile"]


def fail(message: str) -> PydanticCustomError:
    return PydanticCustomError("exchange.rule", message)


def _text(value: object) -> object:
    """Strings arrive trimmed; numbers typed into text fields are accepted as their digits."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value.strip() if isinstance(value, str) else value


Text = Annotated[str, BeforeValidator(_text)]


def check_account(kind: Kind, account: str) -> str:
    if kind == "email":
        if not account:
            raise fail(ENTER_EMAIL)
        address = normal_email(account)
        if address is None:
            raise fail(BAD_EMAIL)
        return address
    if not account:
        raise fail(ENTER_MOBILE)
    if not MOBILE_RE.match(account):
        raise fail(BAD_MOBILE)
    return account


def check_password(password: str) -> str:
    if not password:
        raise fail(ENTER_PASSWORD)
    if not PASSWORD_RE.match(password):
        raise fail(BAD_PASSWORD)
    return password


def check_code(code: str) -> str:
    if not code:
        raise fail(ENTER_CODE)
    if len(code) > 16:
        raise fail(BAD_CODE)
    return code


def check_login_password(password: str) -> str:
    """The login password re-entered to confirm a security change: present and of a sane length
    (its rules are checked when it is set; here it is only compared)."""
    if not password:
        raise fail(ENTER_LOGIN_PASSWORD)
    if len(password) > 64:
        raise fail(BAD_PASSWORD)
    return password


def guess_kind(account: str) -> Kind:
    return "email" if "@" in account else "mobile"


class Form(BaseModel):
    model_config = ConfigDict(extra="ignore")


class RegisterIn(Form):
    type: Kind = "email"
    account: Text = ""
    password: Text = ""
    re_password: Text = ""
    sms_code: Text = ""
    invite_code: Text = ""
    area_id: int | None = None

    @model_validator(mode="after")
    def _rules(self) -> RegisterIn:
        self.account = check_account(self.type, self.account)
        check_password(self.password)
        if not self.re_password:
            raise fail(ENTER_CONFIRMATION)
        if self.password != self.re_password:
            raise fail(PASSWORDS_DIFFER)
        check_code(self.sms_code)
        self.invite_code = self.invite_code.upper()
        return self


class LoginIn(Form):
    account: Text = ""
    password: Text = ""
    login_type: Kind | None = None
    sms_code: Text = ""
    country_code: Text = ""

    @model_validator(mode="after")
    def _rules(self) -> LoginIn:
        if not self.account:
            raise fail(ENTER_ACCOUNT)
        self.login_type = self.login_type or guess_kind(self.account)
        self.account = check_account(self.login_type, self.account)
        if not self.password:
            raise fail(ENTER_PASSWORD)
        if len(self.password) > 64:
            raise fail(BAD_PASSWORD)
        self.country_code = self.country_code.lstrip("+")
        if self.country_code and not DIGITS_RE.match(self.country_code):
            raise fail(BAD_COUNTRY_CODE)
        return self


class SendCodeIn(Form):
    """``type``: 1 register, 2 forgot password, 3 deal password, 5 login, 6 binding."""

    to: Text = ""
    type: Literal[1, 2, 3, 5, 6]
    area_id: int | None = None
    ltc: Text = ""

    @field_validator("type", mode="before")
    @classmethod
    def _int_type(cls, value: object) -> object:
        return int(value) if isinstance(value, str) and value.isdigit() else value


class ForgetPasswordIn(Form):
    type: Kind = "email"
    account: Text = ""
    new_password: Text = ""
    secondary_password: Text = ""
    auth_code: Text = ""
    country_code: Text = ""

    @model_validator(mode="after")
    def _rules(self) -> ForgetPasswordIn:
        self.account = check_account(self.type, self.account)
        self.country_code = self.country_code.lstrip("+")
        if self.country_code and not DIGITS_RE.match(self.country_code):
            raise fail(BAD_COUNTRY_CODE)
        check_code(self.auth_code)
        check_password(self.new_password)
        if not self.secondary_password:
            raise fail(ENTER_CONFIRMATION)
        if self.new_password != self.secondary_password:
            raise fail(PASSWORDS_DIFFER)
        return self


class AmendPasswordIn(Form):
    old_password: Text = ""
    new_password: Text = ""
    secondary_password: Text = ""

    @model_validator(mode="after")
    def _rules(self) -> AmendPasswordIn:
        if not self.old_password:
            raise fail(N_("Please enter the old password"))
        check_password(self.new_password)
        if not self.secondary_password:
            raise fail(ENTER_CONFIRMATION)
        if self.new_password != self.secondary_password:
            raise fail(PASSWORDS_DIFFER)
        return self


class AmendPayPasswordIn(Form):
    """``vtype`` names where the type-3 code went: ``email`` or ``mobile`` (default: e-mail if bound).
    ``login_password`` (not in the spec) confirms the change: a stolen session alone cannot make it."""

    password: Text = ""
    re_password: Text | None = None
    auth_code: Text = ""
    vtype: Kind | None = None
    login_password: Text = ""

    @model_validator(mode="after")
    def _rules(self) -> AmendPayPasswordIn:
        check_password(self.password)
        if self.re_password is not None and self.re_password != self.password:
            raise fail(PASSWORDS_DIFFER)
        check_code(self.auth_code)
        check_login_password(self.login_password)
        return self


class BindAccountIn(Form):
    """``type``: 1 phone, 2 e-mail. ``login_password`` (not in the spec) confirms the binding."""

    type: Literal[1, 2]
    account: Text = ""
    sms_code: Text = ""
    area_id: int | None = None
    login_password: Text = ""

    @field_validator("type", mode="before")
    @classmethod
    def _int_type(cls, value: object) -> object:
        return int(value) if isinstance(value, str) and value.isdigit() else value

    @property
    def kind(self) -> Kind:
        return "mobile" if self.type == 1 else "email"

    @model_validator(mode="after")
    def _rules(self) -> BindAccountIn:
        self.account = check_account(self.kind, self.account)
        check_code(self.sms_code)
        check_login_password(self.login_password)
        return self


class Page(BaseModel):
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=10, ge=1, le=100)
