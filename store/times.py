"""Wall-clock time in epoch milliseconds: the unit rows, ticks, pushes and the wire carry."""

from __future__ import annotations

import time


def now_ms() -> int:
    return int(time.time() * 1000)
