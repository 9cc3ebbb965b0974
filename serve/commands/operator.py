"""`exchange operator`: back-office operators (issue 16): add one (a one-time password and the TOTP
enrolment URI are printed once), list, change roles, disable, end sessions. Each change is written to
the audit trail as the machine's user (or ``--operator``)."""

from __future__ import annotations

import getpass
import socket
from typing import Annotated, Any

import typer

from serve.commands.database import db_run

operator_app = typer.Typer(help="Back-office operators: accounts, roles, sessions.", no_args_is_help=True)
EmailArg = Annotated[str, typer.Argument(help="the operator's e-mail")]
RoleOption = Annotated[
    list[str],
    typer.Option("--role", help="support, finance, risk, content, markets, products, admin (repeat for several)"),
]
OperatorOption = Annotated[str, typer.Option(help="who does this (recorded); the machine's user by default")]
OPERATOR_EMAIL_MAX = 128  # operators.email


def cli_actor(operator: str = "") -> Any:
    """The audit trail's actor of a command: ``--operator`` or the machine's user, from this host."""
    from store.admin.audit import Actor

    return Actor(operator or getpass.getuser(), "cli", f"cli@{socket.gethostname()}")


def audit_cli(operator: str, action: str, target: str, **values: Any) -> None:
    """Write a command's audit row (after its action succeeded): ``before``, ``after``, ``reason``."""
    from store.admin import audit

    async def write() -> None:
        await audit.record(cli_actor(operator), action, target, **values)

    db_run(write)


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
                                    roles=roles, created_ms=operators.now_ms())  # fmt: skip
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
