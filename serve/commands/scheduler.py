"""`exchange scheduler`: the Scheduler's jobs, runs and sweeps, and (outside production) moving its clock."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Any

import typer

from serve.commands.cluster import AddressOption, named_actor, on_cluster

scheduler_app = typer.Typer(help="The Scheduler: daily jobs, sweeps and their runs.", invoke_without_command=True)
UNITS_MS = {"d": 86_400_000, "h": 3_600_000, "m": 60_000, "s": 1000}
OFFSET = re.compile(r"^([+-]?)(\d{1,6})([dhms])$")


def _scheduler() -> Any:
    from actors.names import SCHEDULER_NAME

    return named_actor(SCHEDULER_NAME, "the exchange on this cluster has no scheduler running")


def _utc(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S")


def _offset(ms: int) -> str:
    if not ms:
        return "real time"
    sign, rest = ("-", -ms) if ms < 0 else ("+", ms)
    days, rest = divmod(rest // 1000, 86_400)
    return f"{sign}{days}d {rest // 3600:02d}:{rest // 60 % 60:02d}:{rest % 60:02d} from real time"


@scheduler_app.callback()
def scheduler(ctx: typer.Context, address: AddressOption = None) -> None:
    """The scheduler's clock; per job: its time (UTC), the last day done (days since 1970-01-01, and
    its date), the next run, the last error; per sweep (run on every pass: sale closes, listing
    allocations, releases and credits): its last pass, when it has work next, what it did last (and
    which of its things' jobs run now: a sale's close is one) and since the scheduler started, the
    last error (and each failing thing's, by its id)."""
    if ctx.invoked_subcommand is not None:
        return
    import ray

    status = on_cluster(address, lambda: ray.get(_scheduler().status.remote(), timeout=60))
    typer.echo(f"clock\t{_offset(status['offset_ms'])}\tnow {_utc(status['now_ms'])} UTC")
    typer.echo("job\tat (UTC)\tlast day\tdate\tnext run (UTC)\terror")
    for name, job in status["jobs"].items():
        at = f"{job['at_s'] // 3600:02d}:{job['at_s'] // 60 % 60:02d}"
        last = job["last_day"]
        date = "-" if last is None else _utc(last * 86_400_000)[:10]
        typer.echo(
            f"{name}\t{at}\t{'-' if last is None else last}\t{date}\t{_utc(job['next_ms'])}\t{job['error'] or '-'}"
        )
    sweeps = status.get("sweeps", {})
    if sweeps:
        typer.echo("sweep\tlast pass (UTC)\tnext work (UTC)\tlast did\tsince start\terror")
    for name, sweep in sweeps.items():
        work = sweep["last_work"]
        did = f"{_of(work)}{_counts(work['result'])} at {_utc(work['at_ms'])}" if work else "-"
        if sweep.get("running"):
            did += f" (running: {', '.join(sweep['running'])})"
        failing = [f"{key}: {error}" for key, error in sweep.get("failing", {}).items()]
        error = "; ".join(e for e in [sweep["error"], *failing] if e) or "-"
        typer.echo(
            f"{name}\t{_when(sweep['last_ms'])}\t{_when(sweep['next_ms'])}\t{did}\t{_counts(sweep['done'])}\t{error}"
        )


def _of(work: dict[str, Any]) -> str:
    """``"12: "`` for the job of thing 12 (a sale's close), nothing for a sweep's own pass."""
    return f"{work['key']}: " if "key" in work else ""


def _when(ms: int | None) -> str:
    return "-" if ms is None else _utc(ms)


def _counts(result: dict[str, Any]) -> str:
    """``{"closed": 1, "settled": 3, "next_ms": …}`` -> ``closed 1, settled 3``."""
    found = [f"{k} {v}" for k, v in result.items() if k != "next_ms" and v]
    return ", ".join(found) or "nothing"


@scheduler_app.command()
def clock(
    offset: Annotated[str, typer.Argument(help="how far ahead of real time: +1d, +36h, -90m, +30s; 0 for real time")],
    address: AddressOption = None,
) -> None:
    """Run the scheduler's clock OFFSET from real time (not in production), then run what is owed:
    e.g. +1d charges the next overnight fee now. A day already done never runs again."""
    import ray

    found = OFFSET.match(offset.strip())
    if offset.strip() != "0" and not found:
        typer.echo(f"error: {offset!r} is not an offset: give +1d, +36h, -90m, +30s or 0", err=True)
        raise typer.Exit(2)
    offset_ms = 0
    if found:
        sign, count, unit = found.groups()
        offset_ms = (-1 if sign == "-" else 1) * int(count) * UNITS_MS[unit]

    def move() -> list[dict[str, Any]]:
        return ray.get(_scheduler().set_clock.remote(offset_ms), timeout=600)

    try:
        ran = on_cluster(address, move)
    except PermissionError as exc:  # production (Ray raises it as the actor's error, with its trace)
        typer.echo(f"error: {getattr(exc, 'cause', exc)}", err=True)
        raise typer.Exit(1) from exc
    typer.echo(f"clock\t{_offset(offset_ms)}")
    for run in ran:
        if "sweep" in run:
            typer.echo(f"swept\t{run['sweep']}\tat {_utc(run['now_ms'])}\t{_of(run)}{_counts(run['result'])}")
            continue
        typer.echo(f"ran\t{run['job']}\tday {run['day']} ({_utc(run['day'] * 86_400_000)[:10]})\t{run['result']}")
    if not ran:
        typer.echo("nothing was owed")
