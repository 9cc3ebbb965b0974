"""Fixtures shared by the API tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from store.models import SiteSetting


@pytest.fixture
async def sms_login_on(db: None) -> AsyncIterator[None]:
    """The login_use_sms site setting on for one test: login then needs a type-5 code as well."""
    await SiteSetting.filter(key="login_use_sms").update(value="1")
    try:
        yield
    finally:
        await SiteSetting.filter(key="login_use_sms").update(value="0")
