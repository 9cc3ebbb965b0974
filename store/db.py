"""Database connection set-up shared by Serve replicas, actors, the CLI and the tests."""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import functools
import random
import signal
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, ParamSpec, TypeVar, cast

from tortoise import Tortoise, connections
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.backends.base.config_generator import expand_db_url
from tortoise.exceptions import OperationalError
from tortoise.migrations.api import migrate as run_migrations
from tortoise.queryset import ValuesListQuery
from tortoise.transactions import in_transaction

from config.settings import Settings, get_settings

APPS = {"models": {"models": ["store.models"], "default_connection": "default", "migrations": "store.migrations"}}


def tortoise_config(settings: Settings, role: str = "") -> dict[str, Any]:
    """The ORM's configuration. On PostgreSQL each process's pool is bounded (``db_pool_max``), gives
    back connections idle for ``db_idle_seconds``, and names itself ``exchange <role>`` in
    ``pg_stat_activity`` (``application_name``), so an operator sees which actor holds which
    connections; values in the URL's query (``?maxsize=…``) win."""
    connection: str | dict[str, Any] = settings.db_url
    if settings.db_url.startswith("postgres://"):
        connection = expand_db_url(settings.db_url)
        credentials = connection["credentials"]
        credentials.setdefault("maxsize", settings.db_pool_max)
        credentials.setdefault("max_inactive_connection_lifetime", settings.db_idle_seconds)
        credentials.setdefault("application_name", application_name(role))
    return {"connections": {"default": connection}, "apps": APPS, "use_tz": True, "timezone": "UTC"}


def application_name(role: str) -> str:
    """``exchange <role>`` in what PostgreSQL keeps of an application name (63 bytes of ASCII)."""
    name = f"exchange {role}".strip() if role else "exchange"
    return name.encode("ascii", "replace").decode()[:63]


def _cli_config() -> dict[str, Any]:
    return tortoise_config(get_settings())


# Read by the `tortoise` CLI (`tortoise makemigrations`), see [tool.tortoise] in pyproject.toml.
TORTOISE_ORM = _cli_config()


async def init_db(settings: Settings, role: str = "") -> None:
    """Open the connection pool, named after this process's ``role`` (e.g. ``pair 1``, ``api``). Does
    not touch the schema: that is `migrate()`'s job."""
    if settings.db_url.startswith("sqlite://"):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    # Requests run in tasks other than the one that initialised the ORM (a Serve replica's
    # lifespan, an actor's constructor): the global fallback makes the context visible to them.
    await Tortoise.init(config=tortoise_config(settings, role), _enable_global_fallback=True)
    if settings.db_url.startswith("sqlite://"):
        _stop_sqlite_threads_at_exit()
        # Open the file now, not in the first query: tortoise's SQLite client opens it lazily while
        # holding the connection lock, and a query cancelled during that open (a client that gave up
        # on a process still starting on a busy machine) never gives the lock back, so every later
        # query of the process waited for ever (an `exchange up` that never served, in CI).
        await connections.get("default").create_connection(with_db=True)
    with contextlib.suppress(ValueError, OSError, AttributeError):  # a stderr without a file (captured)
        faulthandler.register(STACKS_SIGNAL, all_threads=True)


# ``kill -USR2 <pid>`` makes any process that opened the database (a Serve replica, an actor, the CLI)
# write every thread's Python stack to its stderr (a Ray worker's log, which `exchange up` shows): what a
# stuck process is waiting on, without a profiler on the machine. SIGUSR1 is left to Ray's HAProxy.
STACKS_SIGNAL = signal.SIGUSR2


_exit_hook_registered = False


def _stop_sqlite_threads_at_exit() -> None:
    """Let a process that never closed the ORM still exit.

    aiosqlite runs each connection in a non-daemon thread, and an exiting interpreter waits for every
    such thread before it runs ``atexit`` handlers. A Ray worker is told to exit without its actor
    closing anything, so its interpreter waited for that thread forever (caught with py-spy on an
    actor that outlived ``exchange up``). ``threading._register_atexit`` runs before that wait: it is
    where ``concurrent.futures`` stops its own workers for the same reason.
    """
    global _exit_hook_registered
    if not _exit_hook_registered:
        threading._register_atexit(_stop_sqlite_threads)  # type: ignore[attr-defined]
        _exit_hook_registered = True


def _stop_sqlite_threads() -> None:
    from tortoise import connections

    with contextlib.suppress(Exception):
        for client in connections.all():
            connection = getattr(client, "_connection", None)  # the aiosqlite.Connection, once opened
            if connection is not None and hasattr(connection, "stop"):
                connection.stop()  # its thread closes the sqlite3 connection, then ends


async def migrate(settings: Settings) -> None:
    """Apply every pending migration. Idempotent."""
    if settings.db_url.startswith("sqlite://"):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    await run_migrations(config=tortoise_config(settings))
    await Tortoise.close_connections()


async def close_db() -> None:
    await Tortoise.close_connections()


@contextlib.asynccontextmanager
async def transaction() -> AsyncIterator[BaseDBAsyncClient]:
    """``in_transaction()`` that leaves the calling task as it found it, whatever the database did.

    tortoise binds the task to the transaction's client (a ContextVar) once it holds a connection,
    and unbinds it only if BEGIN succeeds and, at the end, after the connection went back to the
    pool. When PostgreSQL restarts in between, BEGIN or the release raises and the unbinding is
    skipped: every later query of that task goes to a connection the pool took back ("connection has
    been released back to the pool"), for ever in a loop task such as a pair's batch loop (seen in
    the chaos test). Here the binding is always put back, and what a failed BEGIN held (the pooled
    connection, or SQLite's transaction lock) is given back.
    """
    bound = connections._get_storage()
    context = in_transaction()
    try:
        conn = await context.__aenter__()
    except BaseException:
        if _rebind(bound):  # bound means it got as far as holding the connection: nobody else frees it
            await _give_back(context)
        raise
    try:
        if conn.capabilities.dialect == "sqlite":
            # tortoise's BEGIN is deferred: a transaction that reads first and then writes cannot wait for
            # another process's write lock ("database is locked" at once, the whole batch retried). A
            # write that changes nothing takes the lock now, waiting for it under the busy timeout, as
            # BEGIN IMMEDIATE would. Every caller of transaction() writes.
            await conn.execute_query(_TAKE_WRITE_LOCK)
        yield conn
    except BaseException as exc:
        try:
            await context.__aexit__(type(exc), exc, exc.__traceback__)
        finally:
            _rebind(bound)
        raise
    else:
        try:
            await context.__aexit__(None, None, None)
        finally:
            _rebind(bound)


_TAKE_WRITE_LOCK = "UPDATE id_blocks SET next_id = next_id WHERE 0"


def _rebind(bound: dict[str, BaseDBAsyncClient]) -> bool:
    """Bind the task to the clients it had before the transaction. True if it was bound elsewhere."""
    if connections._get_storage().get("default") is bound.get("default"):
        return False
    connections._set_storage(bound)
    return True


async def _give_back(context: Any) -> None:
    lock = getattr(context, "_trxlock", None)  # SQLite: one connection behind a lock
    if lock is not None and lock.locked():
        lock.release()
    client = getattr(context, "client", None)  # PostgreSQL: a connection of the pool
    pool = getattr(getattr(client, "_parent", None), "_pool", None)
    connection = getattr(client, "_connection", None)
    if pool is not None and connection is not None:
        with contextlib.suppress(Exception):  # a broken connection: the pool terminates it instead
            await pool.release(connection)


P = ParamSpec("P")
R = TypeVar("R")


def retry_busy(func: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """Re-run a whole transaction SQLite refused with "database is locked".

    SQLite has one writer at a time; a deferred transaction that read first and then wants to write
    can be refused instead of waiting. The transaction was rolled back, so running it again is safe.
    PostgreSQL waits on row locks and never raises this.
    """

    @functools.wraps(func)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        for attempt in range(50):
            try:
                return await func(*args, **kwargs)
            except OperationalError as exc:
                if "locked" not in str(exc) or attempt == 49:
                    raise
                await asyncio.sleep(min(0.2, 0.002 * 2**attempt) * random.uniform(0.5, 1.5))
        raise AssertionError("unreachable")

    return wrapper


# tortoise types ``values_list(name, flat=True)`` as if ``flat`` were False (rows of tuples, or one row's
# tuple). These two await such a query and say what it gives: the column's values, or the one value.
async def column(query: ValuesListQuery[Any]) -> list[Any]:
    """The values of ``query.values_list(name, flat=True)``, one per row."""
    return cast(list[Any], await query)


async def scalar(query: ValuesListQuery[Any]) -> Any:
    """The value of ``single.values_list(name, flat=True)`` after ``first()`` or ``get_or_none()``:
    None without a row."""
    return await query
