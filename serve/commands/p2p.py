"""`exchange merchant` (applications: list, approve, reject) and `exchange p2p` (orders, appeals and their
resolution, the escrow audit) for operators. A decision is made as the operator named by
``--operator`` (the machine's user by default) and recorded on the order's journal."""

from __future__ import annotations

import getpass
from datetime import UTC, datetime
from typing import Annotated, Any

import typer

from serve.commands.database import checked_run
from serve.commands.operator import MoneyOperator, OperatorOption, acting, audit_cli, login_of

merchant_app = typer.Typer(help="Merchant applications of the P2P market.", no_args_is_help=True)
p2p_app = typer.Typer(help="P2P orders, appeals and the escrow audit.", no_args_is_help=True)
AccountArg = Annotated[str, typer.Argument(help="the user's e-mail, phone number or id")]
STATES = {1: "unpaid", 2: "paid", 3: "completed", 4: "cancelled", 5: "appeal"}


def _utc(ms: int | None) -> str:
    return "-" if ms is None else datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M")


def _operator(name: str) -> str:
    return name or getpass.getuser()


def _run(work: Any) -> Any:
    """``work`` on the database; a refusal is shown (in English) and exits 1."""
    return checked_run(work)


async def _now() -> int:
    """The Scheduler's clock, as the API reads it."""
    from config.settings import get_settings
    from store.cache import connect_redis
    from store.earn import clock

    redis = connect_redis(get_settings())
    try:
        return await clock.scheduler_now_ms(redis)
    finally:
        await redis.aclose()


async def _uid(account: str) -> int:
    from store.models import User
    from store.users import find_by_contact

    user = await User.get_or_none(id=int(account)) if account.isdigit() and len(account) < 10 else None
    user = user or await find_by_contact(account)
    if user is None:
        raise LookupError(f"no user {account!r}")
    return user.id


@merchant_app.command("list")
def merchant_list() -> None:
    """Applications and merchants, newest first: user id, account, nickname, state, decided by."""
    from store.p2p import merchants

    rows = _run(merchants.pending)
    for r in rows:
        typer.echo(f"{r['uid']}\t{r['account']}\t{r['nickname']}\t{r['status']}\t{r['decided_by'] or '-'}"
                   f"\t{r['reject_reason']}")  # fmt: skip
    if not rows:
        typer.echo("no applications")


def _decide(account: str, approve: bool, operator: str, reason: str) -> None:
    from store.p2p import merchants

    async def work() -> Any:
        return await merchants.decide(await _uid(account), approve, _operator(operator), await _now(), reason)

    row = _run(work)
    audit_cli(operator, f"merchant.{'approve' if approve else 'reject'}", f"user:{row.user_id}",
              before={"status": "pending"}, after={"status": "approved" if approve else "rejected",
              "nickname": row.nickname}, reason=reason)  # fmt: skip
    typer.echo(f"user {row.user_id} ({row.nickname}): merchant {'approved' if approve else 'rejected'}")


@merchant_app.command("approve")
def merchant_approve(account: AccountArg, operator: OperatorOption = "") -> None:
    """Approve a pending application: the user becomes a merchant (is_seller) and may post ads."""
    _decide(account, True, operator, "")


@merchant_app.command("reject")
def merchant_reject(
    account: AccountArg,
    reason: Annotated[str, typer.Option(help="shown to the user")] = "",
    operator: OperatorOption = "",
) -> None:
    """Reject a pending application (the user may apply again)."""
    _decide(account, False, operator, reason[:255])


def _order_line(o: Any) -> str:
    from store.money import money as m

    return (f"{o.id}\t{STATES.get(o.state, o.state)}\tad {o.ad_id}\tbuyer {o.buyer_id}\tseller {o.seller_id}"
            f"\t{m(o.amount)} for {m(o.total)} {o.fiat} at {m(o.price)}\t{o.pay_method}\topened {_utc(o.created_ms)}"
            f"\twindow {_utc(o.deadline_ms)}")  # fmt: skip


@p2p_app.command("orders")
def p2p_orders(
    state: Annotated[
        int, typer.Option(min=0, max=5, help="0 all, 1 unpaid, 2 paid, 3 completed, 4 cancelled, 5 appeal")
    ] = 0,
    limit: Annotated[int, typer.Option(min=1, max=1000)] = 50,
) -> None:
    """Orders, newest first."""
    from store.models import P2POrder

    async def rows() -> list[P2POrder]:
        query = P2POrder.filter(state=state) if state else P2POrder.all()
        return await query.order_by("-id").limit(limit)

    found = _run(rows)
    for o in found:
        typer.echo(_order_line(o))
    if not found:
        typer.echo("no orders")


@p2p_app.command("appeals")
def p2p_appeals() -> None:
    """Orders in appeal, oldest first, with both sides' evidence: who appealed, the reason, the images,
    the buyer's payment proof and the order's journal."""
    from store.models import P2PEvent, P2POrder, P2PState

    async def rows() -> list[tuple[P2POrder, list[P2PEvent]]]:
        found = await P2POrder.filter(state=P2PState.APPEAL).order_by("id")
        return [(o, await P2PEvent.filter(order_id=o.id).order_by("seq")) for o in found]

    found = _run(rows)
    for order, events in found:
        by = "buyer" if order.appeal_by == order.buyer_id else "seller"
        typer.echo(_order_line(order))
        typer.echo(f"  appealed by the {by}: {order.appeal_reason}")
        typer.echo(f"  images: {' '.join(order.appeal_images) or '-'}\tpayment proof: {order.proof or '-'}")
        for e in events:
            typer.echo(f"  {e.seq}. {_utc(e.at_ms)} {STATES.get(e.from_state, '-')} -> {STATES[e.to_state]} by {e.by}"
                       f" {e.actor} {e.note}".rstrip())  # fmt: skip
    if not found:
        typer.echo("no appeals")


@p2p_app.command("resolve")
def p2p_resolve(
    order_id: Annotated[int, typer.Argument(help="the order (see `exchange p2p appeals`)")],
    to: Annotated[str, typer.Argument(help="buyer (release the coins to the buyer) or seller (return them)")],
    note: Annotated[str, typer.Option(help="recorded on the order's journal")] = "",
    operator: MoneyOperator = "",
) -> None:
    """Decide an appeal; both sides are told on LEGAL_ORDER. In production as the operator account
    ``--operator`` names, with the console's risk role."""
    if to not in ("buyer", "seller"):
        raise typer.BadParameter("to must be buyer or seller")
    from config.settings import get_settings
    from store.admin import audit
    from store.cache import connect_redis
    from store.p2p import orders, push

    login = login_of(operator)

    async def work() -> Any:
        actor = await acting(operator, login, "risk")
        order = await orders.resolve(order_id, to, actor.name, await _now(), note[:500])
        redis = connect_redis(get_settings())
        try:
            await push.notify(redis, [order])
        finally:
            await redis.aclose()
        await audit.record(actor, "p2p.resolve", f"p2p_order:{order.id}", before={"state": "appeal"},
                           after={"state": STATES[order.state], "resolved_to": to}, reason=note)  # fmt: skip
        return order

    order = _run(work)
    typer.echo(f"order {order.id}: {STATES[order.state]} (resolved to the {to})")


@p2p_app.command("audit")
def p2p_audit() -> None:
    """Check that every legal account's lock equals its P2P escrow plus its sell ads' stock; exit 1
    on any difference."""
    from store.money import money as m
    from store.p2p import audit

    found = _run(audit.mismatches)
    for (uid, currency_id), (lock, held) in sorted(found.items()):
        typer.echo(f"user {uid} currency {currency_id}: lock {m(lock)} but P2P holds {m(held)}")
    if found:
        raise typer.Exit(1)
    typer.echo("ok: every legal lock equals its escrow and ad stock")
