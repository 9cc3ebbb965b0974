"""The decimal context every process computes money in.

Python's default context keeps 28 significant digits, and quantizing a value to a column's 18 places
raises InvalidOperation once the result needs more: a price of 10,000,000,000 stored as
NUMERIC(36, 18) needs 29. So every process that touches money (the API, every actor, the CLI) runs
in ``MONEY``, wide enough for any column and for the product of any two (36 + 36 digits), with
the usual traps: an invalid operation, a division by zero or an overflow raises instead of
producing NaN or Infinity. The ``config`` package installs it when it is first imported, which every
entry point (the CLI, each actor's module, the Serve app) does at the top, before anything runs in a
task: a context set inside a task stays in that task, which is how ``exchange up`` once ran its
second ``asyncio.run`` in 28 digits.
"""

from __future__ import annotations

import decimal
import functools
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

PRECISION = 80  # > 36 + 36: the exact product of two NUMERIC(36, 18) values
MONEY = decimal.Context(
    prec=PRECISION,
    rounding=decimal.ROUND_HALF_EVEN,
    Emax=999_999,
    Emin=-999_999,
    traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow],
)


def install() -> None:
    """Make ``MONEY`` the context of this thread and the template of every thread and task after it."""
    template = decimal.DefaultContext
    template.prec, template.rounding = MONEY.prec, MONEY.rounding
    template.Emax, template.Emin = MONEY.Emax, MONEY.Emin
    template.traps = dict(MONEY.traps)
    decimal.setcontext(MONEY.copy())


def in_money_context(func: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """Run an async function in ``MONEY`` whatever context its task inherited (the persistence
    functions, where tortoise quantizes every value to its column)."""

    @functools.wraps(func)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with decimal.localcontext(MONEY):
            return await func(*args, **kwargs)

    return wrapper
