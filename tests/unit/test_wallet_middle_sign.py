"""The walletMiddle signature: MD5 of data plus the salt, and a timestamp close to now."""

from __future__ import annotations

import hashlib
import json

import pytest

from config.settings import Settings
from serve.wallet_middle import check_signed, sign_of
from store.errors import DomainError, ErrorCode

SETTINGS = Settings(env="test", wallet_middle_salt="pepper", wallet_middle_max_skew_seconds=300)
NOW = 1_800_000_000


def test_sign_is_md5_of_data_and_salt() -> None:
    assert sign_of("abc", "pepper") == hashlib.md5(b"abcpepper").hexdigest()


@pytest.mark.parametrize("t", [NOW, NOW - 299, NOW + 299, NOW * 1000, (NOW - 100) * 1000])
def test_fresh_signed_data_is_accepted(t: int) -> None:
    data = json.dumps({"user_id": 1, "t": t})
    assert check_signed(data, sign_of(data, "pepper"), SETTINGS, now=NOW)["user_id"] == 1
    assert check_signed(data, sign_of(data, "pepper").upper(), SETTINGS, now=NOW)["t"] == t


@pytest.mark.parametrize(
    ("data", "sign", "code"),
    [
        ('{"t": 1800000000}', "", ErrorCode.SIGN_INVALID),
        ('{"t": 1800000000}', "0" * 32, ErrorCode.SIGN_INVALID),
        ('{"t": 1800000000}', "é" * 32, ErrorCode.SIGN_INVALID),
        ("[1]", None, ErrorCode.SIGN_INVALID),
        ('{"t": 1799999000}', None, ErrorCode.REQUEST_EXPIRED),
        ('{"t": 1800000301000}', None, ErrorCode.REQUEST_EXPIRED),
        ('{"t": "soon"}', None, ErrorCode.REQUEST_EXPIRED),
        ('{"user_id": 1}', None, ErrorCode.REQUEST_EXPIRED),
    ],
)
def test_wrong_signs_and_stale_timestamps_are_refused(data: str, sign: str | None, code: ErrorCode) -> None:
    with pytest.raises(DomainError) as refused:
        check_signed(data, sign if sign is not None else sign_of(data, "pepper"), SETTINGS, now=NOW)
    assert refused.value.code == code
