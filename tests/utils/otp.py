"""An operator's authenticator app for tests. The back office takes each TOTP step once per operator
(`admin/login` refuses a code it already accepted), so a test that logs the same operator in twice
within 30 s must use the next step, as a person would wait for the next code."""

from __future__ import annotations

import time

import pyotp

STEP_S = 30
_given: dict[str, int] = {}  # secret -> the step of the last code handed out
_accepted: dict[str, int] = {}  # secret -> the latest step a login was opened with


def current_code(secret: str) -> str:
    """A code the server takes now: the current step's, or the next one's (accepted for clock drift)
    when a login of this run already used the current one; waits for the clock when both were used.
    Call ``accepted`` once the login it was typed into succeeded."""
    while True:
        now = time.time()
        step = int(now // STEP_S)
        pick = max(step, _accepted.get(secret, step - 1) + 1)
        if pick <= step + 1:
            _given[secret] = pick
            return pyotp.TOTP(secret).at(pick * STEP_S)
        time.sleep((step + 1) * STEP_S - now + 0.05)


def accepted(secret: str) -> None:
    """The last code of ``secret`` opened a login: the server will not take its step again."""
    _accepted[secret] = max(_accepted.get(secret, 0), _given[secret])
