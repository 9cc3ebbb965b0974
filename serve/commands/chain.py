"""``exchange chain``: the chains as an operator or a developer sees them.

``faucet`` sends real coins on the development chains that ``exchange up`` runs (the dev EVM node,
litecoind regtest), so a deposit can be tried end to end. Development and test only: it refuses in
production, and it needs a running dev chain (it reads the chain's info file in the data directory).
"""

from __future__ import annotations

import asyncio
from typing import Annotated

import typer

from config.settings import get_settings
from serve.commands.credits import positive_amount

chain_app = typer.Typer(help="The chains: the dev faucet.", no_args_is_help=True)
UTXO_DEV_CHAINS = {"LTC": "ltc"}  # currency -> dev chain directory; every other currency is on the EVM chain


@chain_app.command()
def faucet(
    address: Annotated[str, typer.Argument(help="where to send, e.g. a deposit address from the deposit page")],
    amount: Annotated[str, typer.Argument(help="how much, e.g. 250 or 0.5")],
    currency: Annotated[str, typer.Argument(help="USDT (ERC20), ETH or LTC")],
) -> None:
    """Send AMOUNT CURRENCY to ADDRESS on the dev chain as a real transaction; prints its txid. It is
    mined in the chain's next block (every few seconds). Development and test only."""
    from store.chain_rpc.devnet import faucet as dev_faucet
    from store.chain_rpc.devnet.process import read_info
    from store.chain_rpc.jsonrpc import NodeError

    settings = get_settings()
    if not settings.is_development:
        typer.echo("error: the faucet sends on development chains only; this exchange runs in production", err=True)
        raise typer.Exit(2)
    value = positive_amount(amount)
    code = currency.strip().upper()
    chain = UTXO_DEV_CHAINS.get(code, "evm")
    info_path = settings.dev_chains_dir / chain / f"{chain}.json"
    try:
        info = read_info(info_path)
    except FileNotFoundError as exc:
        typer.echo(
            f"error: no {chain.upper()} dev chain runs on {settings.data_dir} (start one with make run)", err=True
        )
        raise typer.Exit(1) from exc
    if chain == "ltc":
        send = dev_faucet.send_ltc(info, to=address.strip(), amount=value)
    else:
        send = dev_faucet.send_evm(info, to=address.strip(), amount=value, currency=code)
    try:
        txid = asyncio.run(send)
    except (ValueError, NodeError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc
    typer.echo(txid)
