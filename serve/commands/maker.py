"""`exchange maker`: steer the running market maker (demos and tests of price-driven features)."""

from __future__ import annotations

from typing import Annotated

import typer

from serve.commands.cluster import AddressOption, named_actor, on_cluster

maker_app = typer.Typer(help="Steer the running market maker.", no_args_is_help=True)
TARGET_TIMEOUT_S = 120


@maker_app.command()
def target(
    symbol: Annotated[str, typer.Argument(help="the pair, e.g. BTC/USDT")],
    price: Annotated[str, typer.Argument(help="the price to walk to, inside the pair's band around its mark")],
    address: AddressOption = None,
) -> None:
    """Make the market maker walk SYMBOL's price to PRICE within 30 s, trading as it goes (so the mark
    follows: take-profits, stop-losses and liquidations fire on the way), then quote around it.
    Waits for the arrival and prints the mark."""
    import ray

    from actors.names import MAKER_NAME

    def walk() -> dict[str, str]:
        maker = named_actor(MAKER_NAME, "no market maker is running (EXCHANGE_MARKET_MAKER=true starts one)")
        try:
            return ray.get(maker.target.remote(symbol.strip(), price.strip()), timeout=TARGET_TIMEOUT_S)
        except ray.exceptions.RayActorError:
            return {"error": "the market maker stopped while walking (or was stopping)"}
        except ray.exceptions.GetTimeoutError:
            return {"error": f"the market maker did not answer within {TARGET_TIMEOUT_S} s"}

    report = on_cluster(address, walk)
    if "error" in report:
        typer.echo(f"error: {report['error']}", err=True)
        raise typer.Exit(1)
    typer.echo(
        f"{report['symbol']} walked from {report['from']} to {report['to']} in {report['seconds']} s; "
        f"mark now {report['mark']}"
    )
