"""The ``exchange`` command: run the stack, seed, and operator actions."""

from __future__ import annotations

import asyncio
import fcntl
import logging
import signal
import threading
from decimal import Decimal, InvalidOperation
from typing import Annotated

import typer

from config.settings import get_settings

app = typer.Typer(help="Operate the exchange.", no_args_is_help=True, add_completion=False)


@app.command()
def up() -> None:
    """Start everything `make run` starts, and stop it all on Ctrl-C or SIGTERM."""
    from serve.stack import Stack

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    stop = threading.Event()

    def on_signal(*_: object) -> None:
        stop.set()

    def trap() -> None:
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, on_signal)

    trap()
    settings = get_settings()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    lock = (settings.data_dir / "exchange.lock").open("w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError as exc:
        typer.echo(f"error: an exchange is already running on {settings.data_dir}", err=True)
        raise typer.Exit(1) from exc
    stack = Stack(settings, after_ray_init=trap)
    try:
        settings = stack.start()
        base = f"http://{settings.http_host}:{settings.http_port}"
        typer.echo(f"\nExchange is up: {base}/  API {base}/api/  docs {base}/api/docs")
        typer.echo(f"Push: ws://{settings.http_host}:{settings.ws_port}/ws   (Ctrl-C stops everything)\n")
        stop.wait()
    finally:
        typer.echo("stopping ...")
        stack.stop()


@app.command()
def seed() -> None:
    """Apply migrations and load the seed data (idempotent)."""
    from serve.stack import prepare_database

    counts = asyncio.run(prepare_database(get_settings()))
    typer.echo("seeded: " + ", ".join(f"{k} {v}" for k, v in counts.items()))


@app.command()
def migrate() -> None:
    """Apply pending database migrations."""
    from store.db import migrate as run

    asyncio.run(run(get_settings()))
    typer.echo("migrations applied")


def _amount(value: str) -> Decimal:
    try:
        amount = Decimal(value)
    except InvalidOperation as exc:
        raise typer.BadParameter(f"not a number: {value}") from exc
    if not amount.is_finite() or amount <= 0:
        raise typer.BadParameter("the amount must be a positive number")
    return amount


@app.command()
def deposit(
    account: Annotated[str, typer.Argument(help="the user's e-mail or phone number")],
    currency: Annotated[str, typer.Argument(help="currency code, e.g. USDT")],
    amount: Annotated[str, typer.Argument(help="amount, e.g. 1000 or 0.5")],
    to: Annotated[
        str, typer.Option("--account", help="account type: change, legal, lever, micro, financial")
    ] = "change",
    ref: Annotated[str | None, typer.Option(help="idempotency reference (default: a new one)")] = None,
) -> None:
    """Credit a user's account through the ledger, as a confirmed chain deposit does."""
    from actors.money import money
    from store.ledger import manual_deposit

    value = _amount(amount)
    try:
        log = asyncio.run(
            manual_deposit(get_settings(), account=account, currency=currency, amount=value, account_code=to, ref=ref)
        )
    except LookupError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc
    typer.echo(f"credited {value} {currency.upper()} to {account} ({to}); balance now {money(log.balance_after)}")


@app.command("chain-deposit")
def chain_deposit(
    address: Annotated[str, typer.Argument(help="the deposit address the transfer went to")],
    amount: Annotated[str, typer.Argument(help="amount received, e.g. 100 or 0.05")],
    confirmations: Annotated[int, typer.Option(min=0, help="confirmations the transfer has so far")] = 1,
    memo: Annotated[str, typer.Option(help="the memo (tag) on memo chains such as XRP and EOS")] = "",
    tx: Annotated[str | None, typer.Option(help="transaction hash (default: a new one, printed)")] = None,
) -> None:
    """Report a chain transfer to a deposit address; credited once the currency's confirmations are
    reached. Run again with the same --tx and a higher --confirmations to confirm it (idempotent)."""
    import uuid

    from actors.money import money
    from store import deposits
    from store.db import close_db, init_db

    value = _amount(amount)
    tx_hash = tx or "0x" + uuid.uuid4().hex + uuid.uuid4().hex

    async def run() -> deposits.Outcome:
        await init_db(get_settings())
        try:
            return await deposits.report(
                address=address.strip(), memo=memo.strip(), amount=value, confirmations=confirmations, tx_hash=tx_hash
            )
        finally:
            await close_db()

    try:
        outcome = asyncio.run(run())
    except (LookupError, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc
    state = {0: "confirming", 1: "credited", 2: "below the minimum, not credited"}[int(outcome.deposit.status)]
    note = " (now)" if outcome.credited_now else ""
    typer.echo(f"tx {tx_hash}: {money(value)} with {outcome.deposit.confirmations} confirmation(s): {state}{note}")


if __name__ == "__main__":
    app()
