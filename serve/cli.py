"""The ``exchange`` command: run the stack, seed, and operator actions."""

from __future__ import annotations

import asyncio
import fcntl
import ipaddress
import signal
import threading
from typing import Annotated, Any

import typer

from config import logs
from config.settings import get_settings
from serve.commands.chain import chain_app
from serve.commands.cluster import AddressOption, named_actor, on_cluster
from serve.commands.credits import credit_app, credit_list, deposit
from serve.commands.maker import maker_app
from serve.commands.micro import micro_app
from serve.commands.operator import operator_app
from serve.commands.outbox import outbox_app
from serve.commands.p2p import merchant_app, p2p_app
from serve.commands.products import products_app
from serve.commands.queues import conservation, feedback, real_name_app, withdrawal_app, withdrawals
from serve.commands.scheduler import scheduler_app

NODE_CHECK_S = 30.0  # how often `exchange up` gives a node that joined the cluster its push fanout
app = typer.Typer(help="Operate the exchange.", no_args_is_help=True, add_completion=False)
app.add_typer(maker_app, name="maker")
app.add_typer(scheduler_app, name="scheduler")
app.add_typer(micro_app, name="micro")
app.add_typer(products_app, name="products")
app.add_typer(merchant_app, name="merchant")
app.add_typer(p2p_app, name="p2p")
app.add_typer(operator_app, name="operator")
app.add_typer(chain_app, name="chain")
app.add_typer(outbox_app, name="outbox")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) only reaches this machine. Other names are not
    resolved: what they point at can change after the check."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False


@app.command()
def up(
    address: Annotated[
        str | None,
        typer.Option(help="join the Ray cluster at this address (host:port of its head) instead of starting one"),
    ] = None,
) -> None:
    """Start everything `make run` starts, and stop it all on Ctrl-C or SIGTERM. Outside production it
    refuses (exit 2, nothing started) to listen on an address other than loopback."""
    from serve.stack import Stack
    from store.chain.keys import KeysUnavailable

    logs.configure()
    stop = threading.Event()

    def on_signal(*_: object) -> None:
        stop.set()

    def trap() -> None:
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, on_signal)

    trap()
    settings = get_settings()
    if settings.env != "production" and not is_loopback(settings.http_host):
        # Development mode serves /api/dev/* (free credits, everyone's codes): never beyond this machine.
        typer.echo(
            f"error: EXCHANGE_HTTP_HOST={settings.http_host} is not a loopback address, and EXCHANGE_ENV is "
            f"{settings.env}: development and test mode serve /api/dev/* and must only listen on this machine. "
            "Bind 127.0.0.1 (or ::1, localhost), or run with EXCHANGE_ENV=production.",
            err=True,
        )
        raise typer.Exit(2)
    if address:
        settings = settings.model_copy(update={"ray_address": address})
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    lock = (settings.data_dir / "exchange.lock").open("w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError as exc:
        typer.echo(f"error: an exchange is already running on {settings.data_dir}", err=True)
        raise typer.Exit(1) from exc
    stack = Stack(settings, after_ray_init=trap)
    try:
        try:
            settings = stack.start()
        except (ConnectionError, KeysUnavailable) as exc:  # a wrong --address or key: say so, no traceback
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from exc
        base = f"http://{settings.http_host}:{settings.http_port}"
        typer.echo(f"\nExchange is up: {base}/  API {base}/api/  docs {base}/api/docs")
        typer.echo(f"Push: ws://{settings.http_host}:{settings.ws_port}/ws   (Ctrl-C stops everything)")
        if stack.chains:
            nodes = [("EVM", settings.evm_rpc_url), ("LTC regtest", settings.ltc_rpc_url)]
            shown = "  ".join(f"{name} {url.rsplit('@', 1)[-1]}" for name, url in nodes if url)
            typer.echo(f"Dev chains: {shown}   (faucet: exchange chain faucet <address> 250 USDT)")
        typer.echo("")
        while not stop.wait(NODE_CHECK_S):
            stack.cover_new_nodes()
    finally:
        typer.echo("stopping ...")
        stack.stop()


@app.command()
def seed() -> None:
    """Apply migrations and load the seed data (idempotent)."""
    from serve.prepare import prepare_database

    counts = asyncio.run(prepare_database(get_settings()))
    typer.echo("seeded: " + ", ".join(f"{k} {v}" for k, v in counts.items()))


@app.command()
def migrate() -> None:
    """Apply pending database migrations."""
    from store.db import migrate as run

    asyncio.run(run(get_settings()))
    typer.echo("migrations applied")


app.command()(deposit)
app.command("credits")(credit_list)
app.add_typer(credit_app, name="credit")
app.command()(withdrawals)
app.add_typer(withdrawal_app, name="withdrawal")
app.add_typer(real_name_app, name="real-name")
app.command()(feedback)
app.command()(conservation)

pairs_app = typer.Typer(help="Where pair actors run, and moving one to another node.", invoke_without_command=True)
app.add_typer(pairs_app, name="pairs")


def _placement() -> Any:
    from actors.names import PLACEMENT_NAME

    return named_actor(PLACEMENT_NAME, "the exchange on this cluster has no pair placement running")


@pairs_app.callback()
def pairs(ctx: typer.Context, address: AddressOption = None) -> None:
    """List pairs: symbol, node, pin, open orders, state, and the process of each (its worker log and
    py-spy's --pid)."""
    if ctx.invoked_subcommand is not None:
        return
    import ray

    rows = on_cluster(address, lambda: ray.get(_placement().pairs.remote(), timeout=60))
    typer.echo("symbol\tnode\tpinned to\topen orders\tstate\tpid")
    for r in rows:
        opened = "-" if r["open_orders"] is None else r["open_orders"]
        typer.echo(f"{r['symbol']}\t{r['node'] or '-'}\t{r['pin'] or '-'}\t{opened}\t{r['state']}\t{r['pid'] or '-'}")


@pairs_app.command()
def move(
    symbol: Annotated[str, typer.Argument(help="the pair, e.g. BTC/USDT")],
    node: Annotated[str, typer.Argument(help="the target node: name, node id (prefix) or IP (`exchange nodes`)")],
    address: AddressOption = None,
) -> None:
    """Move a pair's actor to another node: pause it, snapshot, start it there, resume. No order is lost;
    commands sent meanwhile wait and go to the new actor. Prints the pause."""
    import ray

    report = on_cluster(address, lambda: ray.get(_placement().move.remote(symbol.upper(), node), timeout=300))
    if "error" in report:
        typer.echo(f"error: {report['error']}", err=True)
        raise typer.Exit(1)
    if not report["moved"] and report["pause_ms"] == 0:
        typer.echo(f"{report['symbol']} already runs on {report['to']} (pinned there)")
        return
    differ = ", ".join(str(i) for i in report.get("differ", []))
    check = "matches the database" if report["matches_database"] else f"DOES NOT match the database (orders {differ})"
    typer.echo(
        f"{report['symbol']} moved {report['from']} -> {report['to']}: paused {report['pause_ms']} ms "
        f"(drain {report['drain_ms']} ms), {report['open_orders_after']} open orders, book {check}"
    )


@app.command()
def nodes(address: AddressOption = None) -> None:
    """List the cluster's alive nodes: name, id, IP, pair slots, pairs running there."""
    import ray

    from actors.nodes import Node, alive_nodes

    def gather() -> tuple[list[Node], list[dict[str, Any]]]:
        return alive_nodes(), ray.get(_placement().pairs.remote(), timeout=60)

    found, rows = on_cluster(address, gather)
    typer.echo("node\tid\tip\tpair slots\tpairs")
    for n in found:
        here = sorted(r["symbol"] for r in rows if r["node_id"] == n.id)
        typer.echo(f"{n.label}\t{n.id[:8]}\t{n.ip}\t{n.pair_slots}\t{' '.join(here) or '-'}")


if __name__ == "__main__":
    app()
