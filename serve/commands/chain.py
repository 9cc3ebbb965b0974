"""``exchange chain``: the chains as an operator or a developer sees them.

``status`` shows each chain watcher (store/chain/watch.py): its node's height, its cursor, the lag
and the deposits it still follows, and its last error. ``faucet`` sends real coins on the development
chains that ``exchange up`` runs (the dev EVM node, litecoind regtest), so a deposit can be tried end
to end. Development and test only: it refuses in production, and it needs a running dev chain (it
reads the chain's info file in the data directory).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import typer

from config.settings import get_settings
from serve.commands.cluster import AddressOption, on_cluster
from serve.commands.credits import positive_amount

chain_app = typer.Typer(help="The chains: the watchers' status, the dev faucet.", no_args_is_help=True)
UTXO_DEV_CHAINS = {"LTC": "ltc"}  # currency -> dev chain directory; every other currency is on the EVM chain


def _watcher_statuses() -> list[dict[str, Any]]:
    import ray

    from actors.names import watcher_name
    from config.chains import ADAPTED_CHAINS

    found: list[dict[str, Any]] = []
    for chain in ADAPTED_CHAINS:
        try:
            # Any: Ray types a handle's methods only where they are declared with @ray.method.
            watcher: Any = ray.get_actor(watcher_name(chain))
        except ValueError:  # no node configured for it: no watcher
            continue
        found.append(ray.get(watcher.status.remote(), timeout=60))
    return found


def _signer_statuses() -> list[dict[str, Any]]:
    import ray

    from actors.names import SIGNER_NAME

    try:
        signer = ray.get_actor(SIGNER_NAME)
    except ValueError:  # no chain node configured: no Signer
        return []
    return ray.get(signer.status.remote(), timeout=60)


def _statuses() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    return _watcher_statuses(), _signer_statuses()


@chain_app.command()
def status(address: AddressOption = None) -> None:
    """Per chain watcher: the node's height, the cursor, the lag (blocks), the deposits still followed
    (confirming, or credited and not yet withdrawable) and the last error (- when the last step
    succeeded). Then per chain the Signer's side: the hot wallet's balances, the approved withdrawals
    not yet signed, and each transaction not yet final (state, confirmations, broadcasts, the node's
    last refusal)."""
    rows, sends = on_cluster(address, _statuses)
    if not rows and not sends:
        typer.echo("no chain watcher runs: no chain node is configured (EXCHANGE_EVM_RPC_URL, EXCHANGE_LTC_RPC_URL, "
                   "EXCHANGE_TRON_RPC_URL)")  # fmt: skip
        return
    if rows:
        typer.echo("chain	node height	cursor	lag	pending deposits	error")
    for row in rows:
        cells = [row.get(k) for k in ("chain", "node_height", "cursor", "lag", "pending_deposits")]
        typer.echo("\t".join("-" if c is None else str(c) for c in cells) + f"\t{row.get('error') or '-'}")
    for side in sends:
        hot = ", ".join(f"{amount} {code}" for code, amount in (side.get("hot_wallet") or {}).items()) or "-"
        account = f" ({side['hot_account']})" if side.get("hot_account") else ""  # where to fund it
        typer.echo(f"\n{side['chain']} hot wallet: {hot}{account}; approved, not yet signed: "
                   f"{side.get('approved_unsigned', '-')}; signer error: {side.get('error') or '-'}")  # fmt: skip
        sweep = side.get("last_sweep")
        if sweep:
            excess = ", ".join(f"{amount} {code}" for code, amount in sweep["excess"].items())
            typer.echo(f"  last sweep: {len(sweep['swept'])} swept, {len(sweep['topped_up'])} topped up with gas; "
                       f"above the hot wallet's ceiling (due to the cold wallet): {excess or '-'}")  # fmt: skip
        for send in side.get("unconfirmed_withdrawals") or []:
            depth, tries = f"{send['confirmations']} conf", f"{send['attempts']} broadcasts"
            error = send["error"] or "-"
            send_cells = [f"withdrawal {send['withdrawal_id']}", send["txid"], send["state"], depth, tries, error]
            typer.echo("  " + "\t".join(send_cells))


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
