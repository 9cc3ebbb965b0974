"""`exchange operator`: back-office operators (issue 16): add one (a one-time password and the TOTP
enrolment URI are printed once), list, change roles, disable, end sessions. Each change is written to
the audit trail as the machine's user (or ``--operator``).

Also who a money command (credit, approve, resolve) acts as (``MoneyOperator``, ``acting``): in
production an operator account, after its password and a current two-factor code, holding the
console's role for the action, so the console's rules (second operator, roles) hold there too; in
development and test a name recorded, so `exchange deposit me@example.com USDT 1000` stays one command
(docs/decisions.md "Operator controls over money")."""

from __future__ import annotations

import getpass
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import click
import typer

from config.settings import get_settings
from serve.commands.database import db_run

if TYPE_CHECKING:
    from store.admin.audit import Actor

operator_app = typer.Typer(help="Back-office operators: accounts, roles, sessions.", no_args_is_help=True)
EmailArg = Annotated[str, typer.Argument(help="the operator's e-mail")]
RoleOption = Annotated[
    list[str],
    typer.Option("--role", help="support, finance, risk, content, markets, products, admin (repeat for several)"),
]
OperatorOption = Annotated[str, typer.Option(help="who does this (recorded); the machine's user by default")]
MoneyOperator = Annotated[
    str,
    typer.Option(
        "--operator",
        help="in production: your operator login (e-mail), its password and two-factor code read from "
        "EXCHANGE_OPERATOR_PASSWORD and EXCHANGE_OPERATOR_OTP or asked for. Elsewhere a name recorded "
        "(the machine's user by default)",
    ),
]
PASSWORD_ENV, OTP_ENV = "EXCHANGE_OPERATOR_PASSWORD", "EXCHANGE_OPERATOR_OTP"
OPERATOR_EMAIL_MAX = 128  # operators.email


def cli_address() -> str:
    return f"cli@{socket.gethostname()}"


def cli_actor(operator: str = "") -> Actor:
    """The audit trail's actor of a command: ``--operator`` or the machine's user, from this host."""
    from store.admin.audit import Actor

    return Actor(operator or getpass.getuser(), "cli", cli_address())


def audit_cli(operator: str, action: str, target: str, **values: Any) -> None:
    """Write a command's audit row (after its action succeeded): ``before``, ``after``, ``reason``."""
    from store.admin import audit

    async def write() -> None:
        await audit.record(cli_actor(operator), action, target, **values)

    db_run(write)


@dataclass(frozen=True)
class Login:
    """An operator's credentials, as a production money command was given them."""

    email: str
    password: str
    otp: str


def _ask(prompt: Callable[[], str]) -> str:
    try:
        return prompt()
    except (EOFError, KeyboardInterrupt, click.exceptions.Abort):  # no terminal, or the operator gave up
        return ""


def login_of(operator: str) -> Login | None:
    """In production, the credentials of the operator ``--operator`` names (from the environment, or
    asked for); exits 2 without one. None elsewhere: the command acts as a name (``cli_actor``)."""
    if get_settings().env != "production":
        return None
    if not operator.strip():
        typer.echo("error: in production this command acts as an operator account: give --operator <login> "
                   f"(its password and two-factor code in {PASSWORD_ENV} and {OTP_ENV}, or typed when asked)",
                   err=True)  # fmt: skip
        raise typer.Exit(2)
    password = os.environ.get(PASSWORD_ENV) or _ask(lambda: getpass.getpass(f"password of {operator}: "))
    otp = os.environ.get(OTP_ENV) or _ask(lambda: str(typer.prompt("two-factor code")))
    return Login(operator.strip(), password, otp)


async def acting(operator: str, login: Login | None, role: str) -> Actor:
    """Who the command acts as: with ``login`` (production) the operator account, once its password and
    code are right (throttled as the console's login) and it holds ``role`` with its own password set,
    else raising the console's DomainError; without, ``cli_actor(operator)``."""
    if login is None:
        return cli_actor(operator)
    from serve.security import LoginThrottle, operator_login
    from store.admin.audit import Actor
    from store.admin.operators import check_access
    from store.cache import connect_redis

    settings = get_settings()
    redis = connect_redis(settings)
    try:
        found = await operator_login(LoginThrottle(redis, settings), login.email, login.password, login.otp,
                                     cli_address())  # fmt: skip
    finally:
        await redis.aclose()
    check_access(found, (role,))
    return Actor(found.email, role, cli_address(), found.id)


def _run(work: Any) -> Any:
    try:
        return db_run(work)
    except (ValueError, LookupError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc


async def _end_sessions(operator_id: int) -> int:
    from config.settings import get_settings
    from store.admin.operators import OperatorSessions
    from store.cache import connect_redis

    redis = connect_redis(get_settings())
    try:
        return await OperatorSessions(redis).revoke_all(operator_id)
    finally:
        await redis.aclose()


@operator_app.command("add")
def operator_add(email: EmailArg, role: RoleOption, operator: OperatorOption = "") -> None:
    """Create an operator: prints a one-time password (to be changed at the first login) and the
    otpauth:// URI for an authenticator app (the console's login shows it as a QR code too)."""
    from serve.security import hash_password
    from store.admin import audit, operators
    from store.models import Operator
    from store.times import now_ms

    try:
        roles = operators.check_roles(role or [])
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
    from serve.emails import normal_email

    address = normal_email(email.strip(), max_length=OPERATOR_EMAIL_MAX)
    if address is None:
        raise typer.BadParameter(f"not a valid e-mail address: {email}")

    async def work() -> tuple[str, str]:
        if await Operator.exists(email=address):
            raise ValueError(f"{address} is already an operator")
        password, secret = operators.new_password(), operators.new_secret()
        row = await Operator.create(email=address, password_hash=await hash_password(password), totp_secret=secret,
                                    roles=roles, created_ms=now_ms())  # fmt: skip
        await audit.record(cli_actor(operator), "operator.add", f"operator:{row.id}", after={"email": address,
                           "roles": roles})  # fmt: skip
        return password, operators.enrolment_uri(address, secret)

    password, uri = _run(work)
    typer.echo(f"operator {address} ({', '.join(roles)})")
    typer.echo(f"one-time password: {password}")
    typer.echo(f"authenticator (TOTP): {uri}")
    typer.echo("Shown once. Log in at /admin/login; the console asks for a new password first.")


@operator_app.command("list")
def operator_list() -> None:
    """Operators: id, e-mail, roles, active, last login."""
    from store.models import Operator

    async def rows() -> list[Operator]:
        return await Operator.all().order_by("id")

    found = _run(rows)
    for r in found:
        typer.echo(f"{r.id}\t{r.email}\t{','.join(r.roles)}\t{'active' if r.active else 'disabled'}"
                   f"\tlast login {r.last_login_ms or '-'}")  # fmt: skip
    if not found:
        typer.echo("no operators")


def _change(email: str, operator: str, action: str, **fields: Any) -> None:
    from store.admin import audit
    from store.admin.operators import by_email

    async def work() -> int:
        row = await by_email(email)
        if row is None:
            raise LookupError(f"no operator {email}")
        before = {k: getattr(row, k) for k in fields}
        await row.update_from_dict(fields).save(update_fields=list(fields))
        await audit.record(cli_actor(operator), action, f"operator:{row.id}", before=before, after=fields)
        return await _end_sessions(row.id)

    ended = _run(work)
    typer.echo(f"{email}: {action.split('.')[-1]}; {ended} session(s) ended")


@operator_app.command("roles")
def operator_roles(email: EmailArg, role: RoleOption, operator: OperatorOption = "") -> None:
    """Replace an operator's roles (their sessions end: they log in again with the new ones)."""
    from store.admin.operators import check_roles

    try:
        roles = check_roles(role or [])
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
    _change(email.strip().lower(), operator, "operator.roles", roles=roles)


@operator_app.command("disable")
def operator_disable(email: EmailArg, operator: OperatorOption = "") -> None:
    """Disable an operator: no login, every session ended."""
    _change(email.strip().lower(), operator, "operator.disable", active=False)


@operator_app.command("enable")
def operator_enable(email: EmailArg, operator: OperatorOption = "") -> None:
    """Enable a disabled operator again."""
    _change(email.strip().lower(), operator, "operator.enable", active=True)
