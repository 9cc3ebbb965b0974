"""``exchange outbox``: the SMS queue as operators see it (store/sms), and the per-country ceilings.

``exchange outbox [--state failed] [--to +8613800138000]`` lists messages newest first: id, number,
country, state, provider, parts, rounds, the text with its code masked, and the failure reasons.
``exchange outbox ceiling`` shows each country's per-minute ceiling; ``exchange outbox ceiling CN 50``
sets one (``default`` removes it, 0 closes the country).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

import typer

from serve.commands.database import checked_run

outbox_app = typer.Typer(help="The SMS queue: each message's state, and the per-country ceilings.")
STATES = ("queued", "sending", "sent", "delivered", "failed")


def _when(stamp: int | None) -> str:
    return datetime.fromtimestamp(int(stamp), UTC).strftime("%Y-%m-%d %H:%M:%S") if stamp else "-"


@outbox_app.callback(invoke_without_command=True)
def outbox(
    ctx: typer.Context,
    state: Annotated[str, typer.Option(help="queued, sending, sent, delivered or failed (default: all)")] = "",
    to: Annotated[str, typer.Option(help="one number, in E.164 (+8613800138000)")] = "",
    limit: Annotated[int, typer.Option(min=1, max=1000)] = 50,
) -> None:
    """Messages newest first."""
    if ctx.invoked_subcommand is not None:
        return
    from store.sms import queue

    if state and state not in STATES:
        raise typer.BadParameter(f"state must be one of {', '.join(STATES)}")

    async def rows() -> tuple[list[dict[str, Any]], int]:
        found, total = await queue.recent(state=state, to=to, limit=limit)
        return [queue.public(r) for r in found], total

    found, total = checked_run(rows)
    for m in found:
        typer.echo(f"{m['id']}\t{m['to']}\t{m['region']}\t{m['state']}\t{m['provider'] or '-'}\tparts {m['parts']}"
                   f"\trounds {m['rounds']}\t{_when(m['created_at'])}\t{m['text']}\t{m['error'] or ''}")  # fmt: skip
    typer.echo(f"{len(found)} of {total} messages" if found else "no messages")


@outbox_app.command()
def ceiling(
    region: Annotated[str | None, typer.Argument(help="ISO country code, e.g. CN")] = None,
    per_minute: Annotated[str | None, typer.Argument(help="codes a minute (0 closes it), or 'default'")] = None,
) -> None:
    """Show the per-country ceilings of codes a minute, or set one country's."""
    from config.settings import get_settings
    from store.sms import ceiling as ceilings

    default = get_settings().sms_country_per_minute
    if region is not None and per_minute is not None:
        code = region.strip().upper()
        if len(code) != 2 or not code.isalpha():
            raise typer.BadParameter("the country is its ISO 3166 code, two letters (CN, NG)")
        value = None if per_minute == "default" else int(per_minute) if per_minute.isdigit() else -1
        if value is not None and not 0 <= value <= 1_000_000:
            raise typer.BadParameter("codes a minute: a whole number from 0 to 1000000, or 'default'")
        found = checked_run(lambda: ceilings.set_override(code, value))
    else:
        found = checked_run(ceilings.overrides)
    typer.echo(f"default\t{default} a minute")
    for code, value in sorted(found.items()):
        if region is None or code == region.strip().upper():
            typer.echo(f"{code}\t{value} a minute" + (" (closed)" if value == 0 else ""))
