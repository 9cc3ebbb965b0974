"""The operator queues from the command line: withdrawals to decide, real-name submissions to review,
and users' feedback (the console's queues write the same audit rows)."""

from __future__ import annotations

from typing import Annotated

import typer

from serve.commands.credits import price_book
from serve.commands.database import checked_run, db_run
from serve.commands.operator import MoneyOperator, OperatorOption, acting, audit_cli, login_of

withdrawal_app = typer.Typer(help="Decide a withdrawal request.", no_args_is_help=True)


def withdrawals(
    status: Annotated[str, typer.Option(help="pending, approved, completed, rejected, failed or all")] = "pending",
) -> None:
    """List withdrawal requests (oldest first): id, user, amount, fee, chain, address, state."""
    from store.models import Withdrawal, WithdrawalStatus
    from store.money import money

    states = {state.name.lower(): state for state in WithdrawalStatus}
    if status != "all" and status not in states:
        raise typer.BadParameter(f"status must be {', '.join(states)} or all")

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


def _decide(withdrawal_id: int, approve: bool, reason: str, operator: str) -> None:
    """The console's decision (``store.admin.approvals``): the two-operator rule over the user's 24 h,
    a withdrawal freeze, and in production the finance role of the operator ``--operator`` names.
    Deciding a request again the way it went prints it again and changes nothing."""
    from config.settings import get_settings
    from store.admin import approvals
    from store.errors import DomainError, ErrorCode
    from store.models import Withdrawal
    from store.models import WithdrawalStatus as WS
    from store.money import money

    login = login_of(operator)
    done = (WS.APPROVED, WS.COMPLETED, WS.FAILED) if approve else (WS.REJECTED,)

    async def work() -> approvals.WithdrawalDecision:
        actor = await acting(operator, login, "finance")
        row = await Withdrawal.get_or_none(id=withdrawal_id)
        if row is None:
            raise LookupError(f"no withdrawal {withdrawal_id}")
        if row.status in done:
            return approvals.WithdrawalDecision(row, False)
        limit = await approvals.threshold(get_settings(), approvals.WITHDRAWAL_KEY)
        try:
            return await approvals.decide_withdrawal(withdrawal_id, approve=approve, actor=actor, reason=reason,
                                                     book=await price_book(), limit=limit)  # fmt: skip
        except DomainError as exc:
            if exc.code == ErrorCode.WITHDRAWAL_NOT_PENDING:
                raise ValueError("this withdrawal has already been decided") from exc
            raise

    decided = checked_run(work)
    row = decided.row
    if decided.waiting_for_second:
        typer.echo(f"withdrawal {row.id}: approval recorded; the user's withdrawals in 24 h reach the two-operator "
                   "threshold, so a different operator must approve it too")  # fmt: skip
        return
    verb = "approved: the Signer sends" if approve else "rejected: returned"
    typer.echo(f"withdrawal {row.id} {verb} {money(row.amount - row.fee if approve else row.amount)}")


ReasonOption = Annotated[str, typer.Option(help="recorded with the decision")]


@withdrawal_app.command()
def approve(
    withdrawal_id: Annotated[int, typer.Argument(help="the request id (see `exchange withdrawals`)")],
    reason: ReasonOption = "",
    operator: MoneyOperator = "",
) -> None:
    """Approve a pending withdrawal: the Signer sends amount - fee on its chain, and the locked amount
    leaves the account when the transaction is final (it returns if the chain refuses it for good).
    A user's withdrawals worth the two-operator threshold in 24 h need a second operator's approval."""
    _decide(withdrawal_id, True, reason, operator)


@withdrawal_app.command()
def reject(
    withdrawal_id: Annotated[int, typer.Argument(help="the request id (see `exchange withdrawals`)")],
    reason: ReasonOption = "",
    operator: MoneyOperator = "",
) -> None:
    """Reject a pending withdrawal: its locked amount returns to the user's balance."""
    _decide(withdrawal_id, False, reason, operator)


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


def conservation() -> None:
    """The conservation audit (the console's Conservation page): per currency, what users, fees and the
    house hold against what came in and went out. Exits 1 when any currency's difference is not zero.
    A trade side or a release still settling counts as a difference until it settles: on a running
    exchange, read the count of those it prints and run it again once trading is quiet."""
    from store.admin.conservation import audit
    from store.models import PendingRelease, PendingSettlement

    async def read() -> tuple[list[dict[str, object]], int, int]:
        return await audit(), await PendingSettlement.all().count(), await PendingRelease.all().count()

    lines, settling, releasing = db_run(read)
    for line in lines:
        verdict = "ok" if line["ok"] else f"DIFFERENCE {line['difference']}"
        typer.echo(
            f"{line['currency']}\theld {line['total']}\texpected {line['expected']}"
            f"\t(deposits {line['deposits']}, withdrawals {line['withdrawals']}, conversions {line['conversions']})"
            f"\t{verdict}"
        )
    typer.echo(f"{settling} trade sides and {releasing} releases still settling")
    if not all(line["ok"] for line in lines):
        raise typer.Exit(1)
