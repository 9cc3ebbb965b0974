"""The operator queues from the command line: withdrawals to decide, real-name submissions to review,
and users' feedback (the console's queues write the same audit rows)."""

from __future__ import annotations

from typing import Annotated

import typer

from serve.commands.database import db_run
from serve.commands.operator import OperatorOption, audit_cli

withdrawal_app = typer.Typer(help="Decide a withdrawal request.", no_args_is_help=True)


def withdrawals(
    status: Annotated[str, typer.Option(help="pending, completed, rejected or all")] = "pending",
) -> None:
    """List withdrawal requests (oldest first): id, user, amount, fee, chain, address, state."""
    from store.models import Withdrawal, WithdrawalStatus
    from store.money import money

    states = {"pending": WithdrawalStatus.PENDING, "completed": WithdrawalStatus.COMPLETED,
              "rejected": WithdrawalStatus.REJECTED}  # fmt: skip
    if status != "all" and status not in states:
        raise typer.BadParameter("status must be pending, completed, rejected or all")

    async def rows() -> list[Withdrawal]:
        query = Withdrawal.all() if status == "all" else Withdrawal.filter(status=states[status])
        return await query.order_by("id").prefetch_related("user", "currency", "currency_protocol")

    found = db_run(rows)
    for w in found:
        chain = w.currency_protocol.chain_protocol if w.currency_protocol else "-"
        memo = f" memo {w.memo}" if w.memo else ""
        typer.echo(
            f"{w.id}\t{w.user.email or w.user.mobile}\t{money(w.amount)} {w.currency.code}\tfee {money(w.fee)}"
            f"\t{chain} {w.address}{memo}\t{WithdrawalStatus(w.status).name.lower()}\t{w.created_at:%Y-%m-%d %H:%M}"
        )
    if not found:
        typer.echo(f"no {status} withdrawals" if status != "all" else "no withdrawals")


def _decide(withdrawal_id: int, approve: bool, operator: str) -> None:
    from store import withdrawals as store_withdrawals
    from store.errors import DomainError
    from store.money import money

    try:
        row = db_run(lambda: store_withdrawals.decide(withdrawal_id, approve=approve))
    except (LookupError, DomainError) as exc:
        message = str(exc) if isinstance(exc, LookupError) else "this withdrawal has already been decided"
        typer.echo(f"error: {message}", err=True)
        raise typer.Exit(1) from exc
    audit_cli(operator, f"withdrawal.{'approve' if approve else 'reject'}", f"withdrawal:{row.id}",
              before={"status": "pending"}, after={"status": "completed" if approve else "rejected",
              "amount": money(row.amount), "fee": money(row.fee)})  # fmt: skip
    verb = "approved: send" if approve else "rejected: returned"
    typer.echo(f"withdrawal {row.id} {verb} {money(row.amount - row.fee if approve else row.amount)}")


@withdrawal_app.command()
def approve(
    withdrawal_id: Annotated[int, typer.Argument(help="the request id (see `exchange withdrawals`)")],
    operator: OperatorOption = "",
) -> None:
    """Settle a pending withdrawal: its locked amount leaves the account (the chain gets amount - fee)."""
    _decide(withdrawal_id, True, operator)


@withdrawal_app.command()
def reject(
    withdrawal_id: Annotated[int, typer.Argument(help="the request id (see `exchange withdrawals`)")],
    operator: OperatorOption = "",
) -> None:
    """Reject a pending withdrawal: its locked amount returns to the user's balance."""
    _decide(withdrawal_id, False, operator)


real_name_app = typer.Typer(help="Review real-name (KYC) submissions.", no_args_is_help=True)


@real_name_app.command("list")
def real_name_list(
    status: Annotated[str, typer.Option(help="review (under review), approved or all")] = "review",
) -> None:
    """List submissions: user id, account, name, ID number, state, image URLs."""
    from store.models import RealName, ReviewStatus

    states = {"review": [ReviewStatus.UNDER_REVIEW], "approved": [ReviewStatus.APPROVED], "all": list(ReviewStatus)}
    if status not in states:
        raise typer.BadParameter("status must be review, approved or all")

    async def rows() -> list[RealName]:
        return await RealName.filter(review_status__in=states[status]).order_by("id").prefetch_related("user")

    found = db_run(rows)
    for r in found:
        typer.echo(
            f"{r.user_id}\t{r.user.email or r.user.mobile}\t{r.name}\t{r.card_id}"
            f"\t{ReviewStatus(r.review_status).name.lower()}\t{r.front_pic} {r.reverse_pic} {r.hand_pic}"
        )
    if not found:
        typer.echo("no submissions")


def _review(user_id: int, approve: bool, reason: str, operator: str) -> None:
    from store.users import review_real_name

    async def decide() -> bool:
        return await review_real_name(user_id, approve, reason)

    if not db_run(decide):
        typer.echo(f"error: user {user_id} has no submission under review", err=True)
        raise typer.Exit(1)
    audit_cli(operator, f"real_name.{'approve' if approve else 'reject'}", f"user:{user_id}",
              before={"review_status": 1}, after={"review_status": 2 if approve else 0}, reason=reason)  # fmt: skip
    typer.echo(f"user {user_id}: real name {'approved' if approve else 'rejected (they may submit again)'}")


@real_name_app.command("approve")
def real_name_approve(
    user_id: Annotated[int, typer.Argument(help="the user id (see `exchange real-name list`)")],
    operator: OperatorOption = "",
) -> None:
    """Approve a submission under review (review_status 2)."""
    _review(user_id, True, "", operator)


@real_name_app.command("reject")
def real_name_reject(
    user_id: Annotated[int, typer.Argument(help="the user id (see `exchange real-name list`)")],
    reason: Annotated[str, typer.Option(help="shown to the user")] = "",
    operator: OperatorOption = "",
) -> None:
    """Reject a submission under review: back to review_status 0 so the user can submit again."""
    _review(user_id, False, reason[:255], operator)


def feedback(limit: Annotated[int, typer.Option(min=1, max=1000, help="how many, newest first")] = 50) -> None:
    """List users' feedback, newest first."""
    from store.models import Feedback

    async def rows() -> list[Feedback]:
        return await Feedback.all().order_by("-id").limit(limit).prefetch_related("user")

    found = db_run(rows)
    for f in found:
        text = " ".join(f.content.split())
        typer.echo(f"{f.id}\t{f.created_at:%Y-%m-%d %H:%M}\t{f.user.email or f.user.mobile}\t{text}")
    if not found:
        typer.echo("no feedback")
