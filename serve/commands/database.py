"""Running an operator command's work on the configured database."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

import typer

from config.settings import get_settings

T = TypeVar("T")


def db_run(work: Callable[[], Awaitable[T]]) -> T:
    """Run ``work`` with the ORM open on the configured database."""
    from store.db import close_db, init_db

    async def run() -> T:
        await init_db(get_settings(), "cli")
        try:
            return await work()
        finally:
            await close_db()

    return asyncio.run(run())


def refusal(exc: Exception) -> str:
    """What a command prints for a refusal: a DomainError's English message, or the exception's text."""
    from serve.error_table import ERRORS
    from store.errors import DomainError

    if isinstance(exc, DomainError):
        outcome = ERRORS.get(exc.code)
        return outcome.message.format(**exc.params) if outcome else exc.code.name
    return str(exc)


def checked_run(work: Callable[[], Awaitable[T]]) -> T:
    """``db_run(work)``; a refusal (DomainError, LookupError, ValueError) is printed and exits 1."""
    from store.errors import DomainError

    try:
        return db_run(work)
    except (DomainError, LookupError, ValueError) as exc:
        typer.echo(f"error: {refusal(exc)}", err=True)
        raise typer.Exit(1) from exc
