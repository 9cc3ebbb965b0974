"""The console's users (issue 16): support and risk find a user and read their detail; risk freezes a
login (every session ends, login refused with its message) or withdrawals (refused), and unfreezes."""

from __future__ import annotations

import httpx

from store.models import AuditLog
from tests.api.test_admin import make_operator, token_of
from tests.utils.sales import get, post
from tests.utils.users import error, login, member, ok
from tests.utils.wallets import fund


async def test_support_reads_risk_freezes(api: httpx.Client, db: None) -> None:
    support, s1 = await make_operator("support")
    risk, s2 = await make_operator("risk")
    sa, ra = token_of(api, support, s1), token_of(api, risk, s2)
    user = member(api)
    await fund(user, "USDT", "250")
    found = ok(get(api, "admin/users", params={"q": user.account.split("@")[0]}, headers=sa))["list"]
    assert [u["id"] for u in found] == [user.uid]
    assert ok(get(api, "admin/users", params={"q": str(user.uid)}, headers=ra))["list"][0]["id"] == user.uid
    seen = ok(get(api, "admin/users/detail", params={"id": user.uid}, headers=sa))
    assert {"type": "change_account", "currency": "USDT", "balance": "250", "lock_balance": "0"} in seen["accounts"]
    assert seen["sessions"] >= 1 and seen["records"][0]["amount"] == "250"
    assert error(get(api, "admin/users/detail", params={"id": 2**31 - 1}, headers=sa), 404)

    body = {"user_id": user.uid, "login": True, "reason": "account takeover reported"}
    assert error(post(api, "admin/users/freeze", json=body, headers=sa), 403)  # support reads only
    assert ok(post(api, "admin/users/freeze", json=body, headers=ra))["login_frozen"] is True
    assert error(get(api, "user/info", headers=user.auth), 401, code=999)  # the session ended at once
    assert error(login(api, user.account), 403) == "This account is frozen; please contact support"
    ok(post(api, "admin/users/freeze", json={"user_id": user.uid, "login": False, "withdrawals": True}, headers=ra))
    token = ok(login(api, user.account))["token"]
    draw = {"currency_id": 1, "number": "50", "address": "T" + "a" * 33, "pay_password": "x", "currency_protocol_id": 2}
    answer = post(api, "account/draw", json=draw, headers={"Authorization": token})
    assert error(answer, 403) == "Withdrawals are frozen on this account; please contact support"
    assert error(post(api, "admin/users/freeze", json={"user_id": user.uid}, headers=ra), 400)  # nothing to change
    rows = await AuditLog.filter(action="user.freeze", target=f"user:{user.uid}").order_by("id")
    assert [r.after for r in rows] == [{"login_frozen": True}, {"login_frozen": False, "withdraw_frozen": True}]
    assert rows[0].reason == "account takeover reported" and rows[0].operator == risk.email
