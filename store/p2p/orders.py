"""P2P orders: the escrow state machine (docs/decisions.md "Orders and escrow").

Every transition is one transaction that locks, in this order, the taker's user row (an opening
only), the ad (when its stock changes), the order, then the accounts (``ledger.apply_in``); it moves
on only from the state it expects (``where state = expected`` under the row lock), writes the ledger
batch under refs named after the order and the step, and appends a ``p2p_order_events`` row. A
repeated or racing transition finds the state moved on and is refused without moving money; the refs
make a replayed batch a no-op as well.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.expressions import Q

from store import ledger, uploads
from store.db import column, retry_busy, transaction
from store.errors import DomainError, ErrorCode
from store.ids import TableIds
from store.ledger import ZERO, Change
from store.models import AccountType, AdSide, AdStatus, Currency, P2PAd, P2PEvent, P2POrder, P2PState, SiteSetting, User
from store.money import money
from store.p2p import ads, merchants, rules
from store.p2p.rules import BUYER, OPERATOR, SELLER, SYSTEM

LOG_ESCROW, LOG_RELEASE, LOG_REFUND = "p2p_escrow", "p2p_release", "p2p_refund"
DAY_MS = 86_400_000
EXPIRE_BATCH = 500  # unpaid orders cancelled in one pass of the sweep; the next pass takes the rest
ids = TableIds("p2p_order", P2POrder)


@dataclass(frozen=True)
class Opening:
    """What a taker asks: ``number`` coins, or coins for ``fiat_amount``."""

    ad_id: int
    number: Decimal | None
    fiat_amount: Decimal | None
    pay_method: str


async def unpaid_max(conn: BaseDBAsyncClient | None = None) -> int:
    """How many orders a taker may have waiting for payment at once: the site setting
    ``p2p_unpaid_max``, or ``rules.UNPAID_MAX`` when it is not set (or not a valid cap)."""
    row = await SiteSetting.filter(key=rules.UNPAID_SETTING).using_db(conn).first()
    found = rules.unpaid_max(row.value if row else None)
    return rules.UNPAID_MAX if found is None else found


async def waiting(uid: int, conn: BaseDBAsyncClient) -> int:
    """Orders the user opened as a taker (on another's ad, buying or selling) that wait for payment."""
    mine = P2POrder.filter(Q(buyer_id=uid) | Q(seller_id=uid), state=P2PState.UNPAID).exclude(merchant_id=uid)
    return await mine.using_db(conn).count()


async def cancels_today(uid: int, now_ms: int, conn: BaseDBAsyncClient | None = None) -> int:
    """The buyer's cancellations and lapsed windows in the current UTC day (on the given clock)."""
    start = now_ms - now_ms % DAY_MS
    query = P2POrder.filter(buyer_id=uid, state=P2PState.CANCELLED, cancel_kind__in=rules.COUNTED_CANCELS,
                            ended_ms__gte=start, ended_ms__lt=start + DAY_MS)  # fmt: skip
    return await (query.using_db(conn) if conn else query).count()


def _amount(opening: Opening, ad: P2PAd, places: int) -> Decimal:
    if opening.number is not None:
        if opening.number <= ZERO:
            raise DomainError(ErrorCode.P2P_AMOUNT_REQUIRED)
        if rules.places_of(opening.number) > places:
            raise DomainError(ErrorCode.AMOUNT_PRECISION, places=places)
        return opening.number
    if opening.fiat_amount is None or opening.fiat_amount <= ZERO:
        raise DomainError(ErrorCode.P2P_AMOUNT_REQUIRED)
    amount = rules.amount_for_fiat(opening.fiat_amount, ad.price, places)
    if amount <= ZERO:
        raise DomainError(ErrorCode.P2P_AMOUNT_LIMITS, min=money(ad.min_fiat), max=money(ad.max_fiat), fiat=ad.fiat)
    return amount


async def _event(order: P2POrder, conn: BaseDBAsyncClient, to_state: int, by: str, actor: str, note: str,
                 at_ms: int, from_state: int | None = None) -> None:  # fmt: skip
    last = await P2PEvent.filter(order_id=order.id).using_db(conn).order_by("-seq").first()
    await P2PEvent.create(order_id=order.id, seq=(last.seq + 1) if last else 1, to_state=to_state, by=by, actor=actor,
                          from_state=order.state if from_state is None else from_state, note=note, at_ms=at_ms,
                          using_db=conn)  # fmt: skip


@retry_busy
async def create(uid: int, opening: Opening, now_ms: int) -> P2POrder:
    """Open an order on an ad: the seller's coins go into escrow at once. The taker's own row is locked
    first, so the taker's opens on different ads (whose rows are locked next) take turns and two at
    once cannot both pass the cap on orders waiting for payment (P2P_UNPAID_MAX)."""
    await merchants.require_real_name(uid)
    order_id = await ids.next()
    async with transaction() as conn:
        await User.filter(id=uid).select_for_update(no_key=True).using_db(conn).get()
        ad = await ads.locked(opening.ad_id, conn)
        if ad is None:
            raise DomainError(ErrorCode.P2P_AD_NOT_FOUND)
        if ad.status != AdStatus.ONLINE:
            raise DomainError(ErrorCode.P2P_AD_OFFLINE)
        if ad.merchant_id == uid:
            raise DomainError(ErrorCode.P2P_OWN_AD)
        currency = await Currency.get(id=ad.currency_id, using_db=conn)
        amount = _amount(opening, ad, currency.decimals)
        total = rules.fiat_total(amount, ad.price)
        if not ad.min_fiat <= total <= ad.max_fiat:
            raise DomainError(ErrorCode.P2P_AMOUNT_LIMITS, min=money(ad.min_fiat), max=money(ad.max_fiat), fiat=ad.fiat)
        if amount > ad.stock:
            raise DomainError(ErrorCode.P2P_STOCK, stock=money(ad.stock), currency=currency.code)
        buyer, seller = rules.parties(ad.side, ad.merchant_id, uid)
        details = (await merchants.offerable(seller)).get(opening.pay_method)
        if opening.pay_method not in ad.methods or details is None:
            raise DomainError(ErrorCode.P2P_METHOD_UNAVAILABLE)
        unpaid = P2POrder.filter(ad_id=ad.id, buyer_id=buyer, state=P2PState.UNPAID).using_db(conn)
        if buyer == uid and await unpaid.exists():
            raise DomainError(ErrorCode.P2P_UNPAID_EXISTS)
        cap = await unpaid_max(conn)
        if await waiting(uid, conn) >= cap:
            raise DomainError(ErrorCode.P2P_UNPAID_MAX, max=cap)
        if await cancels_today(buyer, now_ms, conn) >= rules.CANCEL_LIMIT:
            if buyer == uid:
                raise DomainError(ErrorCode.P2P_CANCEL_LIMIT, limit=rules.CANCEL_LIMIT)
            raise DomainError(ErrorCode.P2P_MERCHANT_CANCEL_LIMIT)
        if ad.side == AdSide.BUY:  # the taker sells: their coins leave the balance for escrow
            memo = f"P2P order {order_id}"
            escrow = Change(
                uid, ad.currency_id, AccountType.LEGAL, -amount, amount, LOG_ESCROW, f"p2p{order_id}:escrow", memo
            )
            await ledger.apply_in(conn, [escrow])
        await ads.restock(ad, -amount, conn, now_ms)
        order = await P2POrder.create(
            id=order_id, ad_id=ad.id, merchant_id=ad.merchant_id, buyer_id=buyer, seller_id=seller, side=ad.side,
            currency_id=ad.currency_id, fiat=ad.fiat, price=ad.price, amount=amount, total=total,
            pay_method=opening.pay_method, pay_details=details, state=P2PState.UNPAID, created_ms=now_ms,
            deadline_ms=now_ms + ad.window_min * 60_000, using_db=conn,
        )  # fmt: skip
        await _event(
            order, conn, P2PState.UNPAID, BUYER if buyer == uid else SELLER, str(uid), "", now_ms, from_state=0
        )
    return order


Act = Callable[[P2POrder, BaseDBAsyncClient], Awaitable[None]]


@retry_busy
async def _step(order_id: int, uid: int | None, act: Act, with_ad: bool = False) -> P2POrder:
    """Lock (the ad, when ``with_ad``, then) the order and run ``act``; a user who is neither side of
    the order does not see it (P2P_ORDER_NOT_FOUND)."""
    seen = await P2POrder.get_or_none(id=order_id)
    if seen is None or uid is not None and uid not in (seen.buyer_id, seen.seller_id):
        raise DomainError(ErrorCode.P2P_ORDER_NOT_FOUND)
    async with transaction() as conn:
        if with_ad:
            await ads.locked(seen.ad_id, conn)
        order = await P2POrder.filter(id=order_id).select_for_update().using_db(conn).get()
        await act(order, conn)
    return await P2POrder.get(id=order_id)


def _party(order: P2POrder, uid: int, role: str) -> None:
    if role == BUYER and uid != order.buyer_id:
        raise DomainError(ErrorCode.P2P_BUYER_ONLY)
    if role == SELLER and uid != order.seller_id:
        raise DomainError(ErrorCode.P2P_SELLER_ONLY)


async def _move(order: P2POrder, conn: BaseDBAsyncClient, to_state: int, by: str, actor: str, note: str, now_ms: int,
                **fields: Any) -> None:  # fmt: skip
    """Write the transition (its event first: it records the state left)."""
    await _event(order, conn, to_state, by, actor, note, now_ms)
    fields["state"] = to_state
    updated = await P2POrder.filter(id=order.id, state=order.state).using_db(conn).update(**fields)
    if updated != 1:  # cannot happen under the row lock; refuse rather than write a second transition
        raise DomainError(ErrorCode.P2P_NOT_UNPAID if order.state == P2PState.UNPAID else ErrorCode.P2P_NOT_PAID)


async def mark_paid(order_id: int, uid: int, proof: str, now_ms: int) -> P2POrder:
    """The buyer says the fiat is paid (before the window ends)."""
    if proof and not await uploads.owned(uid, proof):
        raise DomainError(ErrorCode.IMAGE_NOT_OWN)

    async def act(order: P2POrder, conn: BaseDBAsyncClient) -> None:
        _party(order, uid, BUYER)
        if order.state != P2PState.UNPAID:
            raise DomainError(ErrorCode.P2P_NOT_UNPAID)
        if now_ms >= order.deadline_ms:
            raise DomainError(ErrorCode.P2P_WINDOW_OVER)
        await _move(order, conn, P2PState.PAID, BUYER, str(uid), "", now_ms, paid_ms=now_ms, proof=proof)

    return await _step(order_id, uid, act)


async def _refund(order: P2POrder, conn: BaseDBAsyncClient, now_ms: int, to_stock: bool) -> None:
    """The escrow of an order that will not complete: back to the ad's stock (a sell ad not closed:
    its lock stays) or to the seller's balance. A buy ad not closed takes the amount back into its
    stock as well (``to_stock``)."""
    ad = await P2PAd.filter(id=order.ad_id).using_db(conn).get()  # locked by the caller
    open_ad = to_stock and ad.status != AdStatus.CLOSED
    if ad.side == AdSide.BUY or not open_ad:
        memo = f"P2P order {order.id}"
        back = Change(order.seller_id, order.currency_id, AccountType.LEGAL, order.amount, -order.amount, LOG_REFUND,
                      f"p2p{order.id}:refund", memo)  # fmt: skip
        await ledger.apply_in(conn, [back])
    if open_ad:
        await ads.restock(ad, order.amount, conn, now_ms)
    else:  # the order's amount leaves the ad for good
        ad.total -= order.amount
        await ad.save(using_db=conn, update_fields=["total"])


async def cancel(order_id: int, uid: int, now_ms: int) -> P2POrder:
    """The buyer cancels an unpaid order (counted towards the daily limit)."""

    async def act(order: P2POrder, conn: BaseDBAsyncClient) -> None:
        _party(order, uid, BUYER)
        if order.state != P2PState.UNPAID:
            raise DomainError(ErrorCode.P2P_NOT_UNPAID)
        await _refund(order, conn, now_ms, to_stock=True)
        await _move(order, conn, P2PState.CANCELLED, BUYER, str(uid), "", now_ms, ended_ms=now_ms,
                    cancel_kind=rules.CANCEL_BUYER)  # fmt: skip

    return await _step(order_id, uid, act, with_ad=True)


async def expire(order_id: int, now_ms: int) -> P2POrder | None:
    """The server cancels an unpaid order whose window has ended; None when it no longer applies."""
    done: list[bool] = []

    async def act(order: P2POrder, conn: BaseDBAsyncClient) -> None:
        if order.state != P2PState.UNPAID or order.deadline_ms > now_ms:
            return
        await _refund(order, conn, now_ms, to_stock=True)
        await _move(order, conn, P2PState.CANCELLED, SYSTEM, "", "", now_ms, ended_ms=now_ms,
                    cancel_kind=rules.CANCEL_TIMEOUT)  # fmt: skip
        done.append(True)

    order = await _step(order_id, None, act, with_ad=True)
    return order if done else None


async def _release(order: P2POrder, conn: BaseDBAsyncClient) -> None:
    memo = f"P2P order {order.id}"
    out = Change(order.seller_id, order.currency_id, AccountType.LEGAL, ZERO, -order.amount, LOG_RELEASE,
                 f"p2p{order.id}:release:s", memo)  # fmt: skip
    into = Change(order.buyer_id, order.currency_id, AccountType.LEGAL, order.amount, ZERO, LOG_RELEASE,
                  f"p2p{order.id}:release:b", memo)  # fmt: skip
    await ledger.apply_in(conn, [out, into])


async def release(order_id: int, uid: int, now_ms: int) -> P2POrder:
    """The seller confirms the fiat arrived (the deal password is checked by the caller): the escrow
    goes to the buyer's legal balance."""

    async def act(order: P2POrder, conn: BaseDBAsyncClient) -> None:
        _party(order, uid, SELLER)
        if order.state != P2PState.PAID:
            raise DomainError(ErrorCode.P2P_NOT_PAID)
        await _release(order, conn)
        await _move(order, conn, P2PState.COMPLETED, SELLER, str(uid), "", now_ms, ended_ms=now_ms)

    return await _step(order_id, uid, act)


async def appeal(order_id: int, uid: int, reason: str, images: list[str], now_ms: int) -> P2POrder:
    """Either side disputes a paid order; the escrow stays until an operator resolves it."""
    reason, images = await _evidence(uid, reason, images)

    async def act(order: P2POrder, conn: BaseDBAsyncClient) -> None:
        if order.state != P2PState.PAID:
            raise DomainError(ErrorCode.P2P_NOT_PAID)
        by = BUYER if uid == order.buyer_id else SELLER
        await _move(order, conn, P2PState.APPEAL, by, str(uid), reason, now_ms, appeal_by=uid, appeal_reason=reason,
                    appeal_images=images)  # fmt: skip

    return await _step(order_id, uid, act)


async def reply(order_id: int, uid: int, reason: str, images: list[str], now_ms: int) -> P2POrder:
    """The side that did not appeal answers it, once, with its statement and images, for the operator
    to read beside the appeal. Not a transition: the order stays in appeal."""
    reason, images = await _evidence(uid, reason, images)

    async def act(order: P2POrder, conn: BaseDBAsyncClient) -> None:
        if order.state != P2PState.APPEAL:
            raise DomainError(ErrorCode.P2P_NOT_IN_APPEAL)
        if uid == order.appeal_by:
            raise DomainError(ErrorCode.P2P_REPLY_OTHER_SIDE)
        if order.reply_ms is not None:
            raise DomainError(ErrorCode.P2P_REPLIED)
        await P2POrder.filter(id=order.id).using_db(conn).update(reply_reason=reason, reply_images=images,
                                                                 reply_ms=now_ms)  # fmt: skip

    return await _step(order_id, uid, act)


async def _evidence(uid: int, reason: str, images: list[str]) -> tuple[str, list[str]]:
    """An appeal's or a reply's statement and images, checked: 10 to 500 characters, at most 3 images,
    each one the user uploaded."""
    reason = reason.strip()
    if not rules.REASON_MIN <= len(reason) <= rules.REASON_MAX:
        raise DomainError(ErrorCode.P2P_REASON_INVALID)
    if len(images) > rules.MAX_IMAGES:
        raise DomainError(ErrorCode.P2P_IMAGES_INVALID)
    for url in images:
        if not await uploads.owned(uid, url):
            raise DomainError(ErrorCode.IMAGE_NOT_OWN)
    return reason, images


async def resolve(order_id: int, to: str, operator: str, now_ms: int, note: str = "") -> P2POrder:
    """The operator decides an appeal: ``buyer`` releases the escrow to the buyer, ``seller`` returns it
    to the seller's balance."""
    if to not in (BUYER, SELLER):
        raise DomainError(ErrorCode.BAD_REQUEST)
    if await P2POrder.get_or_none(id=order_id) is None:
        raise DomainError(ErrorCode.P2P_ORDER_NOT_FOUND)

    async def act(order: P2POrder, conn: BaseDBAsyncClient) -> None:
        if order.state != P2PState.APPEAL:
            raise DomainError(ErrorCode.P2P_NOT_IN_APPEAL)
        if to == BUYER:
            await _release(order, conn)
            await _move(order, conn, P2PState.COMPLETED, OPERATOR, operator, note, now_ms, ended_ms=now_ms,
                        resolved_to=to, resolved_by=operator)  # fmt: skip
        else:
            await _refund(order, conn, now_ms, to_stock=False)
            await _move(order, conn, P2PState.CANCELLED, OPERATOR, operator, note, now_ms, ended_ms=now_ms,
                        resolved_to=to, resolved_by=operator, cancel_kind=rules.CANCEL_APPEAL)  # fmt: skip

    return await _step(order_id, None, act, with_ad=True)


async def sweep_expired(now_ms: int) -> tuple[list[P2POrder], bool]:
    """Cancel unpaid orders whose window ended by ``now_ms``, oldest deadline first, at most
    ``EXPIRE_BATCH``; (the orders cancelled, whether more are due)."""
    due = await column(P2POrder.filter(state=P2PState.UNPAID, deadline_ms__lte=now_ms).order_by("deadline_ms", "id")
        .limit(EXPIRE_BATCH + 1).values_list("id", flat=True))  # fmt: skip
    cancelled = []
    for order_id in due[:EXPIRE_BATCH]:
        order = await expire(int(order_id), now_ms)
        if order is not None:
            cancelled.append(order)
    return cancelled, len(due) > EXPIRE_BATCH


async def next_deadline() -> int | None:
    """The earliest window still running, for the sweep's ``next_ms``."""
    row = await P2POrder.filter(state=P2PState.UNPAID).order_by("deadline_ms").first()
    return row.deadline_ms if row else None
