"""Personal centre: collection methods (pay_method/*), real-name authentication (user_real/*) and
feedback. Images are attached by the URL common/image_upload answered, and only the uploader's own."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

from serve.api.deps import CurrentUid, Lang, SingleFlight
from serve.api.paging import paginate
from serve.api.schemas import Text, fail
from serve.errors import envelope
from serve.i18n import N_, translate
from store import uploads
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, Feedback, PayMethod, RealName, ReviewStatus

router = APIRouter(tags=["personal"])

PAY_TYPES = {
    "alipay": (1, N_("Alipay")),
    "wxpay": (2, N_("WeChat Pay")),
    "bank": (3, N_("Bank card")),
}
PAY_IDS = {pid: code for code, (pid, _) in PAY_TYPES.items()}
SAVED = N_("Saved")
SUBMITTED = N_("Submitted, please wait for the review")
FEEDBACK_SENT = N_("Thank you for your feedback")
REVIEW_NAMES = {
    ReviewStatus.NOT_SUBMITTED: N_("Not submitted"),
    ReviewStatus.UNDER_REVIEW: N_("Under review"),
    ReviewStatus.APPROVED: N_("Approved"),
}
CARD_NO_RE = re.compile(r"^[0-9]{8,30}$")
ID_NUMBER_RE = re.compile(r"^[A-Za-z0-9]{5,32}$")
FEEDBACK_MIN, FEEDBACK_MAX = 10, 2000  # spec: at least 10 characters


def _pay_type(value: object) -> str:
    """``alipay``, ``wxpay`` or ``bank``, or their ids 1 to 3."""
    if isinstance(value, int) and not isinstance(value, bool) or isinstance(value, str) and value.strip().isdigit():
        code = PAY_IDS.get(int(value))
        if code:
            return code
    if isinstance(value, str) and value.strip() in PAY_TYPES:
        return value.strip()
    raise fail(N_("Please choose a payment method"))


PayType = Annotated[str, BeforeValidator(_pay_type)]


class RawData(BaseModel):
    model_config = ConfigDict(extra="ignore")
    real_name: Text = ""
    account: Text = ""
    qrcode: Text = ""
    bank_name: Text = ""
    card_no: Text = ""
    bank_address: Text = ""


class PayMethodIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    type: PayType = Field(default=None, validate_default=True)
    raw_data: RawData = Field(default_factory=RawData)

    @field_validator("raw_data", mode="before")
    @classmethod
    def _object(cls, value: object) -> object:
        return value if isinstance(value, dict | RawData) else {}


async def _checked(uid: int, kind: str, raw: RawData) -> dict[str, str]:
    """The fields of one method after the spec's rules, in the order the form shows them."""
    if not raw.real_name:
        raise fail(N_("Please enter your name"))
    if len(raw.real_name) > 64:
        raise fail(N_("The name is at most 64 characters"))
    if kind in ("alipay", "wxpay"):
        if not raw.account:
            alipay, wechat = N_("Please enter the Alipay account"), N_("Please enter the WeChat account")
            raise fail(alipay if kind == "alipay" else wechat)
        if len(raw.account) > 64:
            raise fail(N_("The account is at most 64 characters"))
        if not raw.qrcode:
            raise fail(N_("Please upload the payment QR code"))
        if not await uploads.owned(uid, raw.qrcode):
            raise DomainError(ErrorCode.IMAGE_NOT_OWN)
        return {"real_name": raw.real_name, "account": raw.account, "qrcode": raw.qrcode}
    if not raw.bank_name:
        raise fail(N_("Please enter the bank name"))
    if not raw.bank_address:
        raise fail(N_("Please enter the branch"))
    if not raw.card_no:
        raise fail(N_("Please enter the card number"))
    if not CARD_NO_RE.match(raw.card_no.replace(" ", "")):
        raise fail(N_("Please enter a valid card number"))
    if len(raw.bank_name) > 64 or len(raw.bank_address) > 128:
        raise fail(N_("The bank name or branch is too long"))
    return {"real_name": raw.real_name, "bank_name": raw.bank_name, "bank_address": raw.bank_address,
            "card_no": raw.card_no.replace(" ", "")}  # fmt: skip


@router.get("/pay_method/types")
async def pay_method_types(lang: Lang) -> Any:
    """The collection methods a user can set: alipay, wxpay, bank."""
    types = [{"id": pid, "name": translate(name, lang), "code": code} for code, (pid, name) in PAY_TYPES.items()]
    return envelope(types)


@router.get("/pay_method/get_method_by_type")
async def pay_method_by_type(uid: CurrentUid, type: Annotated[str, Query(max_length=16)]) -> Any:
    """The user's saved method of one type, or null when none is saved."""
    kind = _pay_type(type)
    row = await PayMethod.get_or_none(user_id=uid, type=kind)
    if row is None:
        return envelope(None)
    return envelope({"id": row.id, "type": kind, "type_id": PAY_TYPES[kind][0], "raw_data": row.raw_data})


@router.post("/pay_method/save", dependencies=[SingleFlight])
async def pay_method_save(body: PayMethodIn, uid: CurrentUid, lang: Lang) -> Any:
    """Create or replace the user's method of one type."""
    raw = await _checked(uid, body.type, body.raw_data)
    row, created = await PayMethod.get_or_create(user_id=uid, type=body.type, defaults={"raw_data": raw})
    if not created:
        row.raw_data = raw
        await row.save(update_fields=["raw_data", "updated_at"])
    return envelope({"id": row.id, "type": body.type, "raw_data": raw}, translate(SAVED, lang))


# --- real-name authentication ---------------------------------------------------------------------


class RealNameIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: Text = ""
    card_id: Text = ""
    front_pic: Text = ""
    reverse_pic: Text = ""
    hand_pic: Text = ""


def _mask(card_id: str) -> str:
    return card_id[:3] + "*" * max(len(card_id) - 7, 1) + card_id[-4:] if len(card_id) > 7 else "*" * len(card_id)


@router.get("/user_real/center")
async def real_name_center(uid: CurrentUid, lang: Lang) -> Any:
    """The user's review status (0 not submitted, 1 under review, 2 approved) and what was submitted."""
    row = await RealName.get_or_none(user_id=uid)
    status = ReviewStatus(row.review_status) if row else ReviewStatus.NOT_SUBMITTED
    data: dict[str, Any] = {"review_status": int(status), "status_name": translate(REVIEW_NAMES[status], lang)}
    if row is not None:
        data.update(name=row.name, card_id=_mask(row.card_id), reject_reason=row.reject_reason)
    return envelope(data)


@router.post("/user_real/real_name", dependencies=[SingleFlight])
async def real_name_submit(body: RealNameIn, uid: CurrentUid, lang: Lang) -> Any:
    """Submit name, ID number and the three ID images for review (again after a rejection)."""
    prompts = [
        (body.name, N_("Please enter your real name")),
        (body.card_id, N_("Please enter your ID number")),
        (body.front_pic, N_("Please upload the front of your ID")),
        (body.reverse_pic, N_("Please upload the back of your ID")),
        (body.hand_pic, N_("Please upload a photo of you holding your ID")),
    ]
    for value, prompt in prompts:
        if not value:
            raise fail(prompt)
    if len(body.name) > 64:
        raise fail(N_("The name is at most 64 characters"))
    if not ID_NUMBER_RE.match(body.card_id):
        raise fail(N_("Please enter a valid ID number"))
    for url in (body.front_pic, body.reverse_pic, body.hand_pic):
        if not await uploads.owned(uid, url):
            raise DomainError(ErrorCode.IMAGE_NOT_OWN)
    fields: dict[str, Any] = {"name": body.name, "card_id": body.card_id, "front_pic": body.front_pic,
              "reverse_pic": body.reverse_pic, "hand_pic": body.hand_pic,
              "review_status": ReviewStatus.UNDER_REVIEW, "reject_reason": ""}  # fmt: skip
    row = await RealName.get_or_none(user_id=uid)
    if row is None:
        await RealName.create(user_id=uid, **fields)
    elif row.review_status != ReviewStatus.NOT_SUBMITTED:
        raise DomainError(ErrorCode.REAL_NAME_SUBMITTED)
    else:
        updated = await RealName.filter(id=row.id, review_status=ReviewStatus.NOT_SUBMITTED).update(**fields)
        if not updated:
            raise DomainError(ErrorCode.REAL_NAME_SUBMITTED)
    return envelope({"review_status": int(ReviewStatus.UNDER_REVIEW)}, translate(SUBMITTED, lang))


# --- feedback --------------------------------------------------------------------------------------


class FeedbackIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    content: Text = ""


@router.post("/feedback/add", dependencies=[SingleFlight])
async def feedback_add(body: FeedbackIn, uid: CurrentUid, lang: Lang) -> Any:
    """Send feedback to the operators: at least 10 characters."""
    if not body.content:
        raise fail(N_("Please enter your feedback"))
    if len(body.content) < FEEDBACK_MIN:
        raise fail(N_("The feedback must be at least 10 characters"))
    if len(body.content) > FEEDBACK_MAX:
        raise fail(N_("The feedback can be at most 2000 characters"))
    row = await Feedback.create(user_id=uid, content=body.content)
    return envelope({"id": row.id}, translate(FEEDBACK_SENT, lang))


@router.get("/feedback/list")
async def feedback_list(uid: CurrentUid, page: Annotated[int, Query(ge=1, le=INT_MAX)] = 1) -> Any:
    """The user's own feedback, newest first."""
    query = Feedback.filter(user_id=uid).order_by("-id")
    return envelope(
        await paginate(
            query, page, 15, lambda f: {"id": f.id, "content": f.content, "created_at": f.created_at.isoformat()}
        )  # fmt: skip
    )
