"""The envelope's codes and one error's answer (``Outcome``), shared by the error tables.

Envelope codes: 1 success, 0 business error, 999 not logged in / token expired, 996 ignored by the
client (a duplicate submit still in flight). The HTTP status tells the class for tools and bots.
"""

from __future__ import annotations

from typing import NamedTuple

CODE_OK = 1
CODE_ERROR = 0
CODE_LOGIN = 999
CODE_IGNORED = 996


class Outcome(NamedTuple):
    code: int
    status: int
    message: str
