"""`exchange products`: the earn products (lock, mining, sale, listing) for operators: list, create, edit
terms (later orders only), open, close, their orders, and a sale's or listing's allocation recomputed
from its stored rows. The changes are the console's (``store.earn.products``): the same rules, the same
refusals (in English here) and the same audit rows, as the ``--operator`` named or the machine's user."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

import typer

from serve.commands.database import db_run
from serve.commands.operator import OperatorOption, cli_actor
from store.times import now_ms

products_app = typer.Typer(help="Earn products: lock savings, mining, token sales, listings.", no_args_is_help=True)
KindArg = Annotated[str, typer.Argument(help="lock, mining, sale or listing")]
IdArg = Annotated[int, typer.Argument(help="the product's id (see `exchange products list`)")]
Values = Annotated[list[str], typer.Argument(help="key=value ..., e.g. rengou=0.05 etime=+7d 'title=Round 2'")]
ReasonOption = Annotated[str, typer.Option(help="why (recorded in the audit trail)")]
RELATED = {"lock": ("currency",), "sale": ("huodong", "jieshou"), "listing": ("bizhong",)}
MINING_STATES = {0: "not started", 1: "in progress", 2: "ended"}


def _utc(ms: int | None) -> str:
    return "-" if ms is None else datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M")


def _run(work: Any) -> Any:
    """``work`` on the database; a refusal (a DomainError in English, ValueError, LookupError) is shown
    and exits 1."""
    from serve.error_table import ERRORS
    from store.errors import DomainError

    try:
        return db_run(work)
    except DomainError as exc:
        outcome = ERRORS.get(exc.code)
        typer.echo(f"error: {outcome.message.format(**exc.params) if outcome else exc.code.name}", err=True)
        raise typer.Exit(1) from exc
    except (ValueError, LookupError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc


def _texts(pairs: list[str]) -> dict[str, str]:
    """``["rengou=0.05", "etime=+7d"]`` -> ``{"rengou": "0.05", "etime": "+7d"}``."""
    found = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep:
            typer.echo(f"error: {pair!r} is not key=value", err=True)
            raise typer.Exit(1)
        found[key.strip()] = text
    return found


def _line(kind: str, row: Any, now: int) -> str:
    """One product, tab-separated: id, name, terms, state."""
    from store.earn import listing, sales
    from store.money import money as m

    if kind == "lock":
        return (
            f"{row.id}\t{row.name}\t{row.currency.code}\t{row.limit_days} d\t{m(row.display_rate)} %/year"
            f"\tlot {m(row.limit_number)}\tquota {row.quota_lots or '-'}\t{'open' if row.open else 'closed'}"
        )
    if kind == "mining":
        return (
            f"{row.id}\t{row.title}\t{m(row.rate_min)}-{m(row.rate_max)} %/day\t{row.zhouqi} d"
            f"\t{m(row.mins)}-{m(row.maxs)}\tpenalty {m(row.penalty_rate)} %/day"
            f"\t{MINING_STATES.get(row.status, row.status)}"
        )
    if kind == "sale":
        return (
            f"{row.id}\t{row.title}\t{m(row.total)} {row.huodong.code} at {m(row.rengou)} {row.jieshou.code}"
            f"\tasked {m(row.subscribed)} by {row.cishu}\t{_utc(row.btime)} - {_utc(row.etime)}"
            f"\t{sales.phase(row, now)}"
        )
    state = ("upcoming", "in progress", "ended")[listing.status(row, now)]
    return (
        f"{row.id}\t{row.title}\t{m(row.shengyu)} of {m(row.total)} {row.bizhong.code} at {m(row.price)} USDT"
        f"\tapplied {m(row.applied)} USDT\t{_utc(row.btime)} - {_utc(row.etime)}\tonline {_utc(row.online)}"
        f"\tlock {row.lock_days} d\t{state}{' (allocated)' if row.allocated_at else ''}"
    )


def _show(kind: str, row: Any) -> None:
    async def fetch() -> Any:
        return await type(row).get(id=row.id).prefetch_related(*RELATED.get(kind, ()))

    typer.echo(_line(kind, _run(fetch), now_ms()))


@products_app.command("list")
def list_(kind: Annotated[str, typer.Argument(help="lock, mining, sale, listing or all")] = "all") -> None:
    """The products of a kind (or of every kind), oldest first: terms and state."""
    from store.earn import products

    if kind != "all" and kind not in products.KINDS:
        typer.echo(f"error: unknown product kind {kind!r}: lock, mining, sale, listing or all", err=True)
        raise typer.Exit(2)
    kinds = list(products.KINDS) if kind == "all" else [kind]

    async def rows() -> dict[str, list[Any]]:
        return {
            name: await products.KINDS[name].model.all().order_by("id").prefetch_related(*RELATED.get(name, ()))
            for name in kinds
        }

    now = now_ms()
    for name, found in _run(rows).items():
        typer.echo(f"# {name}")
        for row in found:
            typer.echo(_line(name, row, now))
        if not found:
            typer.echo(f"no {name} products")


@products_app.command()
def create(kind: KindArg, values: Values, reason: ReasonOption = "", operator: OperatorOption = "") -> None:
    """Create a product from key=value fields. Times (sale, listing) are UTC: now, +3d, -2h, 2026-12-01,
    2026-12-01T08:00 or ms.

    lock: name currency limit_days display_rate limit_number, optional quota_lots open sort.
    mining: title rate_min rate_max zhouqi mins maxs, optional logo penalty_rate status sort.
    sale: title huodong rengou total btime etime, optional jieshou (USDT) per_user_max min_amount (1; needed
    with another jieshou) logo desc sort.
    listing: title bizhong price total btime etime online, optional shengyu (total) lock_days (7) min_amount
    (1) desc sort."""
    from store.earn import products

    texts = _texts(values)
    row = _run(lambda: products.create(kind, texts, actor=cli_actor(operator), reason=reason))
    typer.echo(f"created {kind} {row.id}")
    _show(kind, row)


@products_app.command()
def edit(kind: KindArg, product_id: IdArg, values: Values, reason: ReasonOption = "",
         operator: OperatorOption = "") -> None:  # fmt: skip
    """Change a product's fields (key=value, as create takes them). Orders already made keep the terms
    they copied; a sale's or listing's token, price and supply are fixed once it has orders."""
    from store.earn import products

    texts = _texts(values)
    row = _run(lambda: products.edit(kind, product_id, texts, actor=cli_actor(operator), reason=reason))
    typer.echo(f"edited {kind} {row.id}: later orders take the new terms")
    _show(kind, row)


def _set_open(kind: str, product_id: int, opened: bool, reason: str, operator: str) -> None:
    from store.earn import products

    said = _run(lambda: products.set_open(kind, product_id, opened, actor=cli_actor(operator), reason=reason))
    typer.echo(f"{kind} {product_id}: {said}")


@products_app.command("open")
def open_(kind: KindArg, product_id: IdArg, reason: ReasonOption = "", operator: OperatorOption = "") -> None:
    """Open a product to new orders (a sale or listing: its start moved to now)."""
    _set_open(kind, product_id, True, reason, operator)


@products_app.command()
def close(kind: KindArg, product_id: IdArg, reason: ReasonOption = "", operator: OperatorOption = "") -> None:
    """Close a product to new orders (a sale or listing: its end moved to now, so it is allocated)."""
    _set_open(kind, product_id, False, reason, operator)


@products_app.command()
def orders(
    kind: KindArg,
    product_id: IdArg,
    limit: Annotated[int, typer.Option(min=1, max=10_000, help="how many, newest first")] = 50,
) -> None:
    """A product's orders, newest first: lock and mining orders, sale subscriptions, listing applications."""
    from store.earn import products
    from store.money import money as m

    found = _run(lambda: products.orders(kind, product_id, limit))
    for r in found:
        who = r.user.email or r.user.mobile
        when = r.created_at.strftime("%Y-%m-%d %H:%M")
        if kind == "lock":
            days = f"days {r.start_day + 1}-{r.end_day}"
            facts = f"{m(r.amount)}\t{m(r.display_rate)} %/year\t{days}\taccrued {m(r.accrued)}"
        elif kind == "mining":
            facts = f"{m(r.nums)}\t{r.zhouqi} d\tearned {m(r.earned)}\tpenalty {m(r.penalty)}"
        elif kind == "sale":
            facts = (
                f"asked {m(r.nums)} at {m(r.price)}\tlocked {m(r.locked)}\tallocated {m(r.allocated)}"
                f"\tcost {m(r.cost)}\trefunded {m(r.refunded)}"
            )
        else:
            facts = (
                f"applied {m(r.nums)}\twon {m(r.won_tokens)} for {m(r.won_usdt)}"
                f"\treleased {'yes' if r.released else 'no'}\tcredited {'yes' if r.credited else 'no'}"
            )
        typer.echo(f"{r.id}\t{when}\t{who}\t{facts}\tstatus {int(r.status)}")
    if not found:
        typer.echo(f"no orders of {kind} {product_id}")


@products_app.command()
def allocation(
    sale_id: Annotated[int, typer.Argument(help="the sale's id (or the listing's, with --listing)")],
    of_listing: Annotated[bool, typer.Option("--listing", help="a listing project's allocation")] = False,
) -> None:
    """A sale's (or listing's) allocation as stored, recomputed from its stored subscriptions (or
    applications) by the same rule, and whether the two match (exit 1 when they do not). Before its
    close it shows what the rule would give if it closed now."""
    from serve.commands.allocation import gather

    report = _run(lambda: gather(sale_id, of_listing))
    for line in report.lines:
        typer.echo(line)
    if report.matches is False:
        raise typer.Exit(1)
