"""`exchange deposit` (an operator's manual credit) and `exchange credits` / `exchange credit
approve|reject` (the requests waiting for a second operator), through ``store.admin.credits``: the
console's rules. In production the command acts as the operator account ``--operator`` names (finance
role), the reference and the reason are required, and a credit worth more than the threshold waits
for a different finance operator; in development and test it credits at once, as `dev/credit` does."""

from __future__ import annotations

import uuid
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any

import typer

from config.settings import get_settings
from serve.commands.database import checked_run
from serve.commands.operator import MoneyOperator, acting, login_of

credit_app = typer.Typer(help="Manual credits waiting for a second operator: approve or reject.", no_args_is_help=True)
IdArg = Annotated[int, typer.Argument(help="the credit's id (see `exchange credits`)")]
STATUSES = {"pending": 1, "credited": 2, "rejected": 3}


def positive_amount(value: str) -> Decimal:
    try:
        amount = Decimal(value)
    except InvalidOperation as exc:
        raise typer.BadParameter(f"not a number: {value}") from exc
    if not amount.is_finite() or amount <= 0:
        raise typer.BadParameter("the amount must be a positive number")
    return amount


async def price_book() -> Any:
    """The USD prices at the marks, as the API reads them (Redis), for the two-operator rules. Raises
    ValueError (the command says so and exits 1) when Redis does not answer: no rule is decided on a
    guess."""
    from redis.exceptions import RedisError

    from store.cache import connect_redis
    from store.prices import UsdPrices

    settings = get_settings()
    redis = connect_redis(settings)
    try:
        return await UsdPrices(redis, settings.mark_stale_seconds).book()
    except RedisError as exc:
        raise ValueError(f"the USD prices come from Redis, which did not answer ({exc}): is it up?") from exc
    finally:
        await redis.aclose()


def deposit(
    account: Annotated[str, typer.Argument(help="the user's e-mail or phone number")],
    currency: Annotated[str, typer.Argument(help="currency code, e.g. USDT")],
    amount: Annotated[str, typer.Argument(help="amount, e.g. 1000 or 0.5")],
    to: Annotated[
        str, typer.Option("--account", help="account type: change, legal, lever, micro, financial")
    ] = "change",
    ref: Annotated[
        str | None,
        typer.Option(
            help="the wire's or transaction's id: the same again is the same credit (required in production; "
            "elsewhere a new one by default)"
        ),
    ] = None,
    reason: Annotated[str, typer.Option(help="why (required in production, as in the console)")] = "",
    operator: MoneyOperator = "",
) -> None:
    """Credit a user's account through the ledger, as a confirmed chain deposit does (in production:
    above the threshold, once a second finance operator approves)."""
    from store import users
    from store.admin import approvals, credits
    from store.ledger import account_type_of, check_max_amount
    from store.models import Account, Currency
    from store.money import money

    value = positive_amount(amount)
    login = login_of(operator)
    if login is not None and (not ref or len(reason.strip()) < 3):
        typer.echo("error: in production a credit needs --ref (the wire's or transaction's id) and --reason", err=True)
        raise typer.Exit(2)

    async def work() -> tuple[credits.Outcome, Decimal]:
        actor = await acting(operator, login, "finance")
        user = await users.find_by_contact(account.strip())
        if user is None:
            raise LookupError(f"no user with e-mail or phone {account!r}")
        coin = await Currency.get_or_none(code=currency.upper())
        if coin is None:
            raise LookupError(f"unknown currency {currency!r}")
        check_max_amount(coin, value)
        kind = account_type_of(to)
        reference, why = ref or f"cli:{uuid.uuid4()}", reason.strip() or "exchange deposit"
        ask = credits.CreditAsk(user, coin, kind, value, reference, why)
        if login is None:  # development and test: at once, as dev/credit (valued at the seed, for the record)
            done = await credits.request(ask, actor=actor, usd_price=coin.usd_price, limit=None)
        else:
            price = (await price_book()).usd_price(coin.code)
            limit = await approvals.threshold(get_settings(), approvals.CREDIT_KEY)
            done = await credits.request(ask, actor=actor, usd_price=price, limit=limit)
        held = await Account.get_or_none(user_id=user.id, currency_id=coin.id, account_type=kind)
        return done, held.balance if held else Decimal(0)

    done, balance = checked_run(work)  # a refusal is printed (the console's message) and exits 1
    row, code = done.credit, currency.upper()
    if done.replayed:
        typer.echo(f"reference {row.ref} was used before for this credit (#{row.id}, {credits.STATES[row.status]}): "
                   "nothing moved")  # fmt: skip
    elif row.status == credits.ManualCreditStatus.PENDING:
        typer.echo(
            f"credit {row.id}: {value} {code} to {account} ({to}), worth {money(row.usd_value)} USD, is "
            f"waiting for a second operator (`exchange credit approve {row.id}` by another finance operator)"
        )
    else:
        typer.echo(f"credited {value} {code} to {account} ({to}); balance now {money(balance)}")


@credit_app.command("approve")
def credit_approve(
    credit_id: IdArg,
    reason: Annotated[str, typer.Option(help="recorded with the decision")] = "",
    operator: MoneyOperator = "",
) -> None:
    """Approve a pending credit another operator asked for: credited now, once."""
    _decide(credit_id, True, reason, operator)


@credit_app.command("reject")
def credit_reject(
    credit_id: IdArg,
    reason: Annotated[str, typer.Option(help="recorded with the decision")] = "",
    operator: MoneyOperator = "",
) -> None:
    """Reject a pending credit another operator asked for: nothing is credited."""
    _decide(credit_id, False, reason, operator)


def _decide(credit_id: int, approve: bool, reason: str, operator: str) -> None:
    from store.admin import credits
    from store.money import money

    login = login_of(operator)

    async def work() -> Any:
        actor = await acting(operator, login, "finance")
        return await credits.fetched(await credits.decide(credit_id, approve=approve, actor=actor, reason=reason))

    row = checked_run(work)
    verb = "credited" if approve else "rejected"
    to = row.user.email or row.user.mobile
    typer.echo(f"credit {row.id}: {money(row.amount)} {row.currency.code} to {to} {verb}")


def credit_list(
    status: Annotated[str, typer.Option(help="pending, credited, rejected or all")] = "pending",
) -> None:
    """List manual credits (pending: oldest first): id, user, amount, account, USD value, reference, asked
    by, state."""
    from store.admin import credits

    if status != "all" and status not in STATUSES:
        raise typer.BadParameter("status must be pending, credited, rejected or all")

    async def rows() -> dict[str, Any]:
        return await credits.listed(status=STATUSES.get(status), user_id=None, page=1, limit=1000)

    found = checked_run(rows)["list"]
    for c in found:
        typer.echo(f"{c['id']}\t{c['account']}\t{c['amount']} {c['currency']}\t{c['account_type']}\t{c['usd']} USD"
                   f"\t{c['ref']}\tby {c['requested_by']}\t{c['status_name']}")  # fmt: skip
    if not found:
        typer.echo(f"no {status} credits" if status != "all" else "no credits")
