"""Personal centre: profile fields, image upload, collection methods, real-name review and feedback."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from config.settings import Settings
from tests.utils.cli import exchange, exchange_ok
from tests.utils.users import Member, error, member, ok

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(64)
GIF = b"GIF89a" + bytes(32)
JPEG = b"\xff\xd8\xff\xe0" + bytes(32)


def upload(api: httpx.Client, user: Member, data: bytes = PNG, filename: str = "code.png",
           content_type: str = "image/png") -> httpx.Response:  # fmt: skip
    return api.post("common/image_upload", files={"file": (filename, data, content_type)}, headers=user.auth)


def image(api: httpx.Client, user: Member, data: bytes = PNG) -> str:
    return ok(upload(api, user, data))["url"]


def test_user_info_has_the_spec_fields_and_security_level(api: httpx.Client) -> None:
    user = member(api)
    info = ok(api.get("user/info", headers=user.auth))
    assert {"mobile", "email", "is_set", "invite_code", "show_code", "show_auth", "security_level"} <= set(info)
    assert (info["email"], info["is_set"], info["security_level"]) == (user.account, 0, 50)


# --- common/image_upload ---------------------------------------------------------------------------


def test_an_uploaded_image_is_stored_and_served_back(api: httpx.Client, settings: Settings) -> None:
    user = member(api)
    answer = ok(upload(api, user))
    assert answer["url"].startswith("/api/uploads/") and answer["url"].endswith(".png")
    served = api.get(answer["url"].removeprefix("/api/"))
    assert served.status_code == 200 and served.content == PNG
    assert served.headers["content-type"] == "image/png" and served.headers["x-content-type-options"] == "nosniff"
    assert (settings.data_dir / "uploads" / answer["name"]).read_bytes() == PNG
    # The content decides the type, not the name or the declared type.
    assert ok(upload(api, user, GIF, "notes.txt", "text/plain"))["url"].endswith(".gif")
    assert ok(upload(api, user, JPEG, "x.png"))["url"].endswith(".jpg")


@pytest.mark.parametrize(
    ("data", "filename"),
    [(b"<svg xmlns='http://www.w3.org/2000/svg'/>", "x.svg"), (b"<html><script>", "x.png"), (b"MZ\x90\x00", "x.jpg"),
     (b"RIFF\x00\x00\x00\x00WAVE", "x.webp")],
)  # fmt: skip
def test_upload_refuses_what_is_not_an_image(api: httpx.Client, data: bytes, filename: str) -> None:
    message = error(upload(api, member(api), data, filename), 400)
    assert message == "Only JPEG, PNG, GIF or WebP images can be uploaded"


def test_upload_refusals(api: httpx.Client, settings: Settings) -> None:
    user = member(api)
    too_big = PNG + bytes(settings.upload_max_bytes)
    assert error(upload(api, user, too_big), 413) == "The image can be at most 5 MB"
    assert error(upload(api, user, b""), 400) == "Please choose an image to upload"
    assert error(api.post("common/image_upload", json={"file": "x"}, headers=user.auth), 400)
    form = api.post("common/image_upload", data={"file": "not a file"}, files={"other": ("", b"", "")},
                    headers=user.auth)  # fmt: skip
    assert error(form, 400) == "Please choose an image to upload"
    assert error(upload(api, Member("", "", "nobody", 0)), 401, 999)
    assert error(api.get("uploads/0123456789abcdef0123456789abcdef.png"), 404)
    assert error(api.get("uploads/..%2F..%2Fexchange.lock"), 404)


# --- pay_method ------------------------------------------------------------------------------------


def save(api: httpx.Client, user: Member, kind: Any, **raw: Any) -> httpx.Response:
    return api.post("pay_method/save", json={"type": kind, "raw_data": raw}, headers=user.auth)


def test_pay_method_types(api: httpx.Client) -> None:
    types = ok(api.get("pay_method/types"))
    assert [(t["id"], t["code"]) for t in types] == [(1, "alipay"), (2, "wxpay"), (3, "bank")]
    assert ok(api.get("pay_method/types", headers={"lang": "hk"}))[0]["name"] == "支付寶"


def test_save_and_read_each_collection_method(api: httpx.Client) -> None:
    user, other = member(api), member(api)
    qr = image(api, user)
    alipay = ok(save(api, user, "alipay", real_name="Alice Li", account="alice@alipay", qrcode=qr))
    assert alipay["raw_data"] == {"real_name": "Alice Li", "account": "alice@alipay", "qrcode": qr}
    ok(save(api, user, 2, real_name="Alice Li", account="alice_wx", qrcode=qr))
    bank = {"real_name": "Alice Li", "bank_name": "Bank of Somewhere", "bank_address": "Main St branch",
            "card_no": "6222 0200 1234 5678"}  # fmt: skip
    ok(save(api, user, "bank", **bank))
    got = ok(api.get("pay_method/get_method_by_type", params={"type": "bank"}, headers=user.auth))
    assert got["raw_data"]["card_no"] == "6222020012345678" and got["type_id"] == 3
    # Saving again replaces the method of that type.
    ok(save(api, user, "alipay", real_name="Alice Li", account="new@alipay", qrcode=qr))
    got = ok(api.get("pay_method/get_method_by_type", params={"type": 1}, headers=user.auth))
    assert (got["id"], got["raw_data"]["account"]) == (alipay["id"], "new@alipay")
    # Another user sees none of it, and cannot attach this user's QR code.
    assert ok(api.get("pay_method/get_method_by_type", params={"type": "alipay"}, headers=other.auth)) is None
    stolen = save(api, other, "alipay", real_name="Mallory", account="m@alipay", qrcode=qr)
    assert error(stolen, 400) == "Please upload the image again"
    assert ok(api.get("pay_method/get_method_by_type", params={"type": "alipay"}, headers=other.auth)) is None


GOOD_BANK = {"real_name": "Bob", "bank_name": "Bank", "bank_address": "Branch", "card_no": "62220200123456"}


@pytest.mark.parametrize(
    ("kind", "raw", "message"),
    [
        ("alipay", {"account": "a", "qrcode": "q"}, "Please enter your name"),
        ("alipay", {"real_name": "Bob", "qrcode": "q"}, "Please enter the Alipay account"),
        ("wxpay", {"real_name": "Bob", "qrcode": "q"}, "Please enter the WeChat account"),
        ("wxpay", {"real_name": "Bob", "account": "bob"}, "Please upload the payment QR code"),
        ("alipay", {"real_name": "Bob", "account": "bob", "qrcode": "https://evil.example/x.png"},
         "Please upload the image again"),
        ("bank", {**GOOD_BANK, "bank_name": ""}, "Please enter the bank name"),
        ("bank", {**GOOD_BANK, "bank_address": ""}, "Please enter the branch"),
        ("bank", {**GOOD_BANK, "card_no": ""}, "Please enter the card number"),
        ("bank", {**GOOD_BANK, "card_no": "12ab5678"}, "Please enter a valid card number"),
        ("bank", {**GOOD_BANK, "real_name": "x" * 65}, "The name is at most 64 characters"),
        ("paypal", GOOD_BANK, "Please choose a payment method"),
        (9, GOOD_BANK, "Please choose a payment method"),
        (None, GOOD_BANK, "Please choose a payment method"),
    ],
)  # fmt: skip
def test_collection_method_rules(api: httpx.Client, kind: Any, raw: dict[str, Any], message: str) -> None:
    user = member(api)
    assert error(save(api, user, kind, **raw), 400) == message


def test_pay_method_needs_login(api: httpx.Client) -> None:
    assert error(api.post("pay_method/save", json={"type": "bank", "raw_data": GOOD_BANK}), 401, 999)
    assert error(api.get("pay_method/get_method_by_type", params={"type": "bank"}), 401, 999)
    user = member(api)
    assert error(api.get("pay_method/get_method_by_type", params={"type": "cash"}, headers=user.auth), 400)


# --- user_real ------------------------------------------------------------------------------------


def kyc_form(api: httpx.Client, user: Member, **change: Any) -> dict[str, Any]:
    return {"name": "Alice Li", "card_id": "A123456789", "front_pic": image(api, user),
            "reverse_pic": image(api, user, JPEG), "hand_pic": image(api, user, GIF), **change}  # fmt: skip


def test_real_name_review_approve_and_reject(api: httpx.Client, settings: Settings) -> None:
    alice, bob = member(api), member(api)
    assert ok(api.get("user_real/center", headers=alice.auth))["review_status"] == 0
    response = api.post("user_real/real_name", json=kyc_form(api, alice), headers=alice.auth)
    assert ok(response) == {"review_status": 1} and response.json()["msg"] == "Submitted, please wait for the review"
    center = ok(api.get("user_real/center", headers=alice.auth))
    assert (center["review_status"], center["name"], center["card_id"]) == (1, "Alice Li", "A12***6789")
    again = api.post("user_real/real_name", json=kyc_form(api, alice), headers=alice.auth)
    assert error(again, 409) == "Your real-name information has already been submitted"
    assert ok(api.get("user_real/center", headers=bob.auth))["review_status"] == 0  # nobody else's

    assert str(alice.uid) in exchange_ok(settings, "real-name", "list")
    exchange_ok(settings, "real-name", "reject", str(alice.uid), "--reason", "blurred photo")
    center = ok(api.get("user_real/center", headers=alice.auth))
    assert (center["review_status"], center["reject_reason"]) == (0, "blurred photo")
    ok(api.post("user_real/real_name", json=kyc_form(api, alice, name="Alice Q Li"), headers=alice.auth))
    exchange_ok(settings, "real-name", "approve", str(alice.uid))
    center = ok(api.get("user_real/center", headers=alice.auth))
    assert (center["review_status"], center["name"], center["status_name"]) == (2, "Alice Q Li", "Approved")
    assert exchange(settings, "real-name", "approve", str(alice.uid)).returncode == 1  # nothing under review
    assert exchange(settings, "real-name", "reject", str(bob.uid)).returncode == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": ""}, "Please enter your real name"),
        ({"card_id": ""}, "Please enter your ID number"),
        ({"front_pic": ""}, "Please upload the front of your ID"),
        ({"reverse_pic": ""}, "Please upload the back of your ID"),
        ({"hand_pic": ""}, "Please upload a photo of you holding your ID"),
        ({"card_id": "12-34"}, "Please enter a valid ID number"),
        ({"name": "x" * 65}, "The name is at most 64 characters"),
        ({"hand_pic": "/api/uploads/0123456789abcdef0123456789abcdef.png"}, "Please upload the image again"),
    ],
)
def test_real_name_rules(api: httpx.Client, change: dict[str, Any], message: str) -> None:
    user = member(api)
    assert error(api.post("user_real/real_name", json=kyc_form(api, user, **change), headers=user.auth), 400) == message
    assert ok(api.get("user_real/center", headers=user.auth))["review_status"] == 0


def test_real_name_cannot_use_another_users_images(api: httpx.Client) -> None:
    alice, mallory = member(api), member(api)
    theirs = kyc_form(api, alice)
    response = api.post("user_real/real_name", json=theirs, headers=mallory.auth)
    assert error(response, 400) == "Please upload the image again"
    assert error(api.get("user_real/center"), 401, 999)


# --- feedback --------------------------------------------------------------------------------------


def test_feedback_needs_ten_characters_and_operators_read_it(api: httpx.Client, settings: Settings) -> None:
    user, other = member(api), member(api)
    send = lambda text: api.post("feedback/add", json={"content": text}, headers=user.auth)  # noqa: E731
    assert error(send(""), 400) == "Please enter your feedback"
    assert error(send("too short"), 400) == "The feedback must be at least 10 characters"
    assert error(send("   short   "), 400) == "The feedback must be at least 10 characters"
    assert error(send("x" * 2001), 400) == "The feedback can be at most 2000 characters"
    response = send("The withdraw page\nneeds a QR scanner")
    assert ok(response)["id"] and response.json()["msg"] == "Thank you for your feedback"
    mine = ok(api.get("feedback/list", headers=user.auth))
    assert mine["total"] == 1 and mine["data"][0]["content"] == "The withdraw page\nneeds a QR scanner"
    assert ok(api.get("feedback/list", headers=other.auth))["total"] == 0
    listed = exchange_ok(settings, "feedback", "--limit", "5")
    assert "The withdraw page needs a QR scanner" in listed and user.account in listed
    assert error(api.post("feedback/add", json={"content": "long enough text"}), 401, 999)
