"""Second contracts: microtrade/payable_currencies, seconds, submit, lists and proof
(docs/decisions.md "Second contracts (issue 12)").

The edge checks presence and format; the contract's MicroTimer (``engine.micro(id)``) checks the
business rules, holds the stake and settles it from the pair's tick log. Reads come from the
database; while a contract is open its entry tick (if it has come) is read from the log, so the
countdown runs from the server's clock. ``proof`` is public: anyone can check any contract.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from actors.commands import Stake
from actors.pair.marks import Tick, verify
from serve.api.amounts import AmountText, parse_amount
from serve.api.deps import CurrentUid, EngineDep, Lang, Svc, client_ip
from serve.api.idempotency import Keyed, attempt_of, idempotent
from serve.api.micro_answers import DurationOut, MicroBalance, MicroNumber, MicroOrderOut, StakeCurrencyOut
from serve.api.paging import paginate
from serve.api.responses import Envelope, Paged
from serve.errors import envelope
from serve.i18n import N_, translate
from store import micro, ticks
from store.cache import BoundedCache, within_rate
from store.errors import DomainError, ErrorCode
from store.micro import settle as rule
from store.models import INT_MAX, Account, AccountType, Currency, CurrencyMatch, MicroOrder, MicroStatus
from store.money import money
from store.sessions import PREFIX
from store.times import now_ms

router = APIRouter(prefix="/microtrade", tags=["microtrade"])

CUSTOM, PRESET = 1, 2  # submit's ``lx``
CONTRACT = "contract"  # a keyed submit's contract id (store.idempotency.Attempt.remember)
MAX_PROOF_TICKS = 10_000  # 300 s at 10 ticks a second is 3,000
PLACED = N_("Order placed")
TYPE_NAMES = {rule.UP: N_("Up"), rule.DOWN: N_("Down")}
STATUS_NAMES = {MicroStatus.OPEN: N_("In progress"), MicroStatus.CLOSED: N_("Closed")}
OUTCOME_NAMES = {rule.WIN: N_("Won"), rule.LOSS: N_("Lost"), rule.TIE: N_("Tie, refunded"),
                 rule.VOID: N_("No price in the window, refunded")}  # fmt: skip


MatchFilter = Annotated[int, Query(ge=0, le=INT_MAX, description="a pair id; 0: every pair")]
PageNo = Annotated[int, Query(ge=1, le=INT_MAX)]
Limit = Annotated[int, Query(ge=1, le=50)]
StatusNo = Annotated[int, Query(ge=1, le=3, description="1 in progress, 3 closed")]
OrderId = Annotated[int, Query(ge=1, le=2**63 - 1)]


class MicroBody(BaseModel):
    model_config = ConfigDict(extra="ignore")


class MicroSubmitIn(MicroBody, Keyed):
    match_id: int = Field(ge=1, le=INT_MAX)
    currency_id: int = Field(ge=1, le=INT_MAX)
    type: int = Field(ge=rule.UP, le=rule.DOWN, description="1 up, 2 down")
    lx: int = Field(default=CUSTOM, ge=CUSTOM, le=PRESET, description="1 a typed amount, 2 a preset amount")
    seconds: int = Field(ge=1, le=INT_MAX)
    number: AmountText = Field(default=None, description="the stake")


def _named(order: dict[str, Any], lang: str) -> MicroOrderOut:
    outcome = order.get("outcome")
    return MicroOrderOut(
        **order,
        type_name=translate(TYPE_NAMES[order["type"]], lang),
        status_name=translate(STATUS_NAMES[MicroStatus(order["status"])], lang),
        outcome_name=translate(OUTCOME_NAMES[outcome], lang) if outcome in OUTCOME_NAMES else None,
    )


async def _names(rows: list[MicroOrder]) -> tuple[dict[int, str], dict[int, str]]:
    pair_ids = {r.currency_match_id for r in rows}
    pairs = await CurrencyMatch.filter(id__in=pair_ids).prefetch_related("base_currency", "quote_currency")
    symbols = {p.id: f"{p.base_currency.code}/{p.quote_currency.code}" for p in pairs}
    codes = dict(await Currency.filter(id__in={r.currency_id for r in rows}).values_list("id", "code"))
    return symbols, codes


async def _entry(row: MicroOrder) -> rule.TickView | None:
    """An open contract's entry tick, if the log has it yet."""
    if row.status != MicroStatus.OPEN:
        return None
    tick = await ticks.first_after(row.currency_match_id, row.accepted_ms)
    if tick is None or tick.time_ms > row.accepted_ms + row.seconds * 1000:
        return None
    return rule.TickView(tick.id, tick.seq, tick.time_ms, tick.price)


async def _shape(rows: list[MicroOrder], lang: str) -> list[MicroOrderOut]:
    symbols, codes = await _names(rows)
    now = now_ms()
    return [
        _named(
            micro.order_public(
                r,
                symbols.get(r.currency_match_id, ""),
                codes.get(r.currency_id, ""),
                await _entry(r),
                now,
            ),
            lang,
        )  # fmt: skip
        for r in rows
    ]


@router.get("/payable_currencies", response_model=Envelope[list[StakeCurrencyOut]])
async def payable_currencies(uid: CurrentUid) -> Any:
    """The stake currencies with the user's micro-account balance, the preset stakes and the bounds."""
    currencies = await micro.stake_currencies()
    balances = dict(
        await Account.filter(user_id=uid, account_type=AccountType.MICRO, currency_id__in=[c.id for c in currencies])
        .values_list("currency_id", "balance")
    )  # fmt: skip
    return envelope([
        StakeCurrencyOut(
            id=c.id,
            code=c.code,
            micro_account=MicroBalance(balance=money(balances.get(c.id, Decimal(0)))),
            micro_numbers=[MicroNumber(number=money(n)) for n in micro.presets(c.micro_numbers)],
            min_number=money(c.micro_min),
            max_number=money(c.micro_max),
            max_open=money(c.micro_max_open),
        )
        for c in currencies
    ])  # fmt: skip


@router.get("/seconds", response_model=Envelope[list[DurationOut]])
async def seconds(match_id: MatchFilter = 0) -> Any:
    """The durations offered with the profit ratio of a win (percent): the pair's, or, with no pair
    given, the first offered pair's."""
    offered = await micro.offered_pairs()
    if match_id and match_id not in offered:
        raise DomainError(ErrorCode.MICRO_NOT_OFFERED)
    pair = offered.get(match_id) or (offered[min(offered)] if offered else None)
    durations = pair.durations if pair else {}
    return envelope([DurationOut(seconds=s, profit_ratio=money(r)) for s, r in durations.items()])


@router.post("/submit", response_model=Envelope[MicroOrderOut])
@idempotent(retry=True)
async def submit(body: MicroSubmitIn, uid: CurrentUid, engine: EngineDep, request: Request, lang: Lang) -> Any:
    """Stake ``number`` on the pair's mark going up (type 1) or down (2) over ``seconds``. Answers the
    contract; its entry is the first tick after ``accepted_at``."""
    attempt = attempt_of(request)
    if attempt is not None and attempt.retry and CONTRACT in attempt.refs:  # an earlier run's answer was lost
        made = await MicroOrder.get_or_none(id=attempt.refs[CONTRACT], user_id=uid)
        if made is not None:
            return envelope((await _shape([made], lang))[0], translate(PLACED, lang))
    currency = await Currency.get_or_none(id=body.currency_id)
    if currency is None:
        raise DomainError(ErrorCode.MICRO_CURRENCY_INVALID)
    number = parse_amount(body.number, missing=ErrorCode.QUANTITY_REQUIRED, places=currency.decimals,
                          maximum=currency.micro_max)  # fmt: skip
    # A keyed submit stakes the same contract on every run of its key: its timer holds it once.
    order_id = await (attempt.remember(CONTRACT, engine.micro_ids.next) if attempt else engine.micro_ids.next())
    stake = Stake(pair_id=body.match_id, currency_id=currency.id, side=body.type, lx=body.lx, seconds=body.seconds,
                  number=number)  # fmt: skip
    placed = await engine.stake(uid, order_id, stake)
    return envelope(_named(placed, lang), translate(PLACED, lang))


@router.get("/lists", response_model=Envelope[Paged[MicroOrderOut]])
async def lists(uid: CurrentUid, lang: Lang, match_id: MatchFilter = 0, page: PageNo = 1, limit: Limit = micro.PER_PAGE,
                status: StatusNo = int(MicroStatus.OPEN)) -> Any:  # fmt: skip
    """The user's contracts in progress (status 1) or closed (3), on one pair or all (match_id 0),
    newest first; ``remain_milli_seconds`` from the server clock."""
    if status not in (MicroStatus.OPEN, MicroStatus.CLOSED):
        raise DomainError(ErrorCode.BAD_REQUEST)
    query = MicroOrder.filter(user_id=uid, status=MicroStatus(status))
    if match_id:
        query = query.filter(currency_match_id=match_id)
    result = await paginate(query.order_by("-id"), page, limit, lambda r: r)
    result["data"] = await _shape(result["data"], lang)
    return envelope(Paged[MicroOrderOut](**result))


@router.get("/proof")
async def proof(request: Request, svc: Svc, lang: Lang, id: OrderId) -> Any:  # noqa: A002 - the spec's name
    """What anyone needs to check a contract: its terms, the tick in force when it was accepted
    (``anchor``), every tick from its entry to its exit and the first one after its end, whether their
    hash chain holds, and the outcome the settlement rule gives on them (``verdict``). At most
    ``micro_proof_rate`` a minute per client address (then 429); a settled contract's is kept."""
    rate = svc.settings.micro_proof_rate
    if not await within_rate(svc.redis, f"{PREFIX}micro_proof_rate:{client_ip(request)}", rate, 60):
        raise DomainError(ErrorCode.MICRO_PROOF_TOO_FAST, rate=rate)
    row = await MicroOrder.get_or_none(id=id)
    if row is None:
        raise DomainError(ErrorCode.MICRO_ORDER_NOT_FOUND)
    (order,) = await _shape([row], lang)
    if row.status != MicroStatus.CLOSED:
        return envelope({"order": order.model_dump(mode="json"), **await _evidence(row)})
    # A settled contract's ticks and verdict never change: read them from the log once.
    kept = BoundedCache(svc.redis, f"{PREFIX}micro_proof:", ttl=svc.settings.micro_proof_cache_seconds,
                        entries=svc.settings.micro_proof_cache_entries)  # fmt: skip
    evidence = await kept.get(str(row.id))
    if evidence is None:
        evidence = await _evidence(row)
        await kept.put(str(row.id), evidence)
    return envelope({"order": order.model_dump(mode="json"), **evidence})


async def _evidence(row: MicroOrder) -> dict[str, Any]:
    """A contract's proof but its terms: the anchor, the window's ticks, whether they chain, the verdict."""
    pair_id = row.currency_match_id
    anchor = await ticks.tick_at(pair_id, row.accepted_ms)
    window: list[Tick] = []
    after = anchor.seq if anchor else 0
    limit_ms = (row.end_ms or row.accepted_ms + row.seconds * 1000) if row.status == MicroStatus.CLOSED else None
    while len(window) < MAX_PROOF_TICKS:
        page = await ticks.ticks_after(pair_id, after, 1000)
        for tick in page:
            window.append(Tick.of(tick))
            if limit_ms is not None and tick.time_ms > limit_ms:
                break
        if not page or len(page) < 1000 or (limit_ms is not None and window[-1].time_ms > limit_ms):
            break
        after = page[-1].seq
    chain = ([Tick.of(anchor)] if anchor else []) + window
    verdict = None
    if row.status == MicroStatus.CLOSED:
        currency = await Currency.get(id=row.currency_id)
        views = [rule.TickView(t.id, t.seq, t.time_ms, t.price) for t in window]
        found = rule.settle(micro.terms_of(row, currency.decimals), views)
        verdict = {
            "outcome": found.outcome,
            "entry_tick_id": found.entry.id if found.entry else None,
            "exit_tick_id": found.exit.id if found.exit else None,
            "open_price": money(found.entry.price) if found.entry else None,
            "end_price": money(found.exit.price) if found.exit else None,
            "payout": money(found.payout),
            "fact_profits": money(found.fact_profits),
            "matches": (found.outcome, found.payout) == (row.outcome, row.payout),
        }
    return {
        "anchor": Tick.of(anchor).public() if anchor else None,
        "ticks": [t.public() for t in window],
        "chained": verify(chain),
        "verdict": verdict,
    }
