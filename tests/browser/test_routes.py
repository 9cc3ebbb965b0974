"""Every route of the spec's route table opens in the shell, for a visitor and for a member, with no
console error and no blank page (spec shell §2)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ConsoleErrors
from tests.utils.up import Instance
from tests.utils.users import member

PUBLIC = [
    "/home",
    "/markets",
    "/deposit",
    "/trade",
    "/notice?id=66&category_id=26",
    "/white",
    "/fees",
    "/shoufa",
    "/shoufa/info?id=1",
    "/mining",
    "/mining/list",
    "/mining/info?id=1",
    "/listing",
    "/listing/info?id=1",
    "/login",
    "/register",
    "/forgetPassword",
]
MEMBERS = [
    "/lever",
    "/second",
    "/legalIndex/legal",
    "/legalIndex/orders",
    "/legalIndex/orderdetail",
    "/myshop/myshoporders",
    "/myshop/shoporders",
    "/myshop/shoporderdetail",
    "/mining/order",
    "/listing/order",
    "/assets/tradeAccount",
    "/assets/legalAccount",
    "/assets/leverAccount",
    "/assets/secondAccount",
    "/assets/financialAccount",
    "/assets/dealRecords",
    "/assets/transfer",
    "/assets/chongzhi",
    "/assets/withdral",
    "/assets/transferLog",
    "/personal/accountSettings",
    "/personal/transactionLog",
    "/personal/collectionSettings",
    "/personal/authentication",
    "/personal/bindAddr",
    "/personal/feedback",
    "/resetPassword",
    "/tradePassword",
    "/bindAccount",
    "/bindPhone",
    "/coinlog",
]
REDIRECTS = {
    "/": "/home",
    "/legalIndex": "/legalIndex/legal",
    "/myshop": "/myshop/myshoporders",
    "/assets": "/assets/tradeAccount",
}


@pytest.fixture(scope="module")
def member_token(web: Instance) -> Iterator[str]:
    with httpx.Client(base_url=f"{web.url}/api/", timeout=30) as api:
        yield member(api).token


def _opens(page: Page, route: str, errors: ConsoleErrors) -> None:
    page.goto(route)
    page.wait_for_load_state("networkidle")
    expect(page.locator("header").first).to_be_visible()
    text = page.locator("main").first.inner_text().strip()
    assert len(text) > 10, f"{route} rendered an empty page"
    assert errors == [], f"{route}: {errors}"


@pytest.mark.parametrize("route", PUBLIC)
def test_a_visitor_opens_every_public_route(page: Page, console_errors: ConsoleErrors, route: str) -> None:
    _opens(page, route, console_errors)


@pytest.mark.parametrize("route", PUBLIC + MEMBERS)
def test_a_member_opens_every_route(page: Page, console_errors: ConsoleErrors, member_token: str, route: str) -> None:
    page.goto("/home")
    page.evaluate("token => localStorage.setItem('token', token)", member_token)
    _opens(page, route, console_errors)
    if route in MEMBERS:
        assert "/login" not in page.url, f"{route} sent a logged-in member to the login page"


@pytest.mark.parametrize(("route", "target"), REDIRECTS.items())
def test_redirects(page: Page, member_token: str, route: str, target: str) -> None:
    page.goto("/home")
    page.evaluate("token => localStorage.setItem('token', token)", member_token)
    page.goto(route)
    page.wait_for_url(f"**{target}")


@pytest.mark.parametrize("route", ["/lever", "/assets/tradeAccount", "/personal/accountSettings"])
def test_a_visitor_is_sent_to_login_from_member_pages(page: Page, route: str) -> None:
    page.goto(route)
    page.wait_for_url("**/login?**")
    assert "page=" in page.url
