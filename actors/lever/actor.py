"""The LeverShard actor: the leveraged contracts of every user with ``uid % n == index``.

It is the single writer of its users' lever accounts and positions. It holds them in a ``LeverBook``
(the pure core: accounts, positions, a trigger book per pair) and is fed every lever pair's mark
ticks: from Redis pub/sub as they are published, and from the tick log (``mark_ticks``) for any it
missed. Each tick's decisions (an entrustment filled, a take-profit or stop-loss hit, an account
liquidated) are carried out one transaction each, the money and the position's row together
(``actors.lever.ledger``), before they are pushed (LEVER_TRADE, LEVER_CLOSED). It records, per pair,
the last tick whose decisions are all durable (``lever_cursors``); a restarted shard rebuilds from
the database and replays the ticks after it: what was carried out is durable and does not fire again
(its trigger is gone), what was not fires now. A tick that fails to carry out stops the shard's feed
until it has reloaded and replayed from the cursor, so no crossed trigger is ever skipped.

The feed (ticks in order, replay, cursors) is a ``LeverFeed`` the shard owns (``actors.lever.feed``).
Everything starts in the constructor, as named loops of the shard's ``Lifecycle`` (``actors.lifecycle``):
Ray runs it again when it restarts the actor.
"""

from __future__ import annotations

import asyncio
import copy
import logging
from collections import defaultdict
from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import ray
from redis.asyncio import Redis

from actors.commands import LeverOrder, LeverOverview
from actors.lever import ledger as lever_ledger
from actors.lever import settle, terms
from actors.lever.checks import check_stops, check_target
from actors.lever.events import LeverEvents
from actors.lever.feed import CURSOR_FLUSH_S, LeverFeed, held, read_shard, read_terms, stored_balance
from actors.lever.state import DAY_MS, PairTerms, position_of
from actors.names import lever_name
from actors.runtime import DbActor
from actors.wallet.legs import transfer as transfer_legs
from store import channels, ledger, marks, ticks
from store.cache import connect_redis, redis_db
from store.errors import DomainError, ErrorCode
from store.ids import IdBlocks
from store.models import AccountType, LeverPosition, LeverStatus
from store.money import money
from store.times import now_ms

log = logging.getLogger(__name__)


# Ray's typed overloads of ray.remote() lack the actor option max_concurrency (the ignore's one reason).
@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=0, max_concurrency=1000)  # type: ignore[call-overload]
class LeverShard(LeverEvents, DbActor):
    def __init__(self, index: int, settings: dict[str, Any]) -> None:
        super().__init__(settings, f"lever shard {index}")
        channels.use_database(redis_db(self._settings))
        self._index = index
        self._shards = self._settings.lever_shards
        self._redis: Redis = connect_redis(self._settings)
        self._ids = IdBlocks("lever")
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._pairs: dict[int, PairTerms] = {}
        self._terms_lock = asyncio.Lock()  # a load and a reload of the terms, one at a time
        self._loops: dict[str, int] = {}
        # The ticks in order, replay and the cursors; the shard's book and pairs as they are when read.
        self._feed = LeverFeed(index, self._redis, lambda: self._book, lambda: self._pairs, self._carry_out_all,
                               self._loops)  # fmt: skip
        # Background work starts in the constructor: a restarted actor runs it again.
        self._life.loop("ticks", self._serve)
        self._life.loop("listener", lambda: self._feed.listen(self._life.loaded))
        self._life.every("cursors", self._feed.flush_and_catch_up, CURSOR_FLUSH_S, healthy_only=True,
                         level=logging.WARNING)  # fmt: skip

    # -- loading and the feed --------------------------------------------------------------------------

    async def _serve(self) -> None:
        """Load, then carry out every tick in order, forever; a failure reloads and replays."""
        await self._life.load(self._load)
        while True:
            pair_id, seq, price, tick_id = await self._feed.queue.get()
            try:
                await self._feed.take(pair_id, seq, price, tick_id)
            except Exception:
                log.exception("lever shard %d: tick %s of pair %s failed; reloading", self._index, seq, pair_id)
                await self._life.load(self._load)

    async def _load(self) -> None:
        """Write the cursors that moved; then this shard's active positions, the pairs (open for lever or
        holding them) and balances, and every tick after the cursors."""
        await self._feed.flush()
        async with self._terms_lock:
            await self._ready()
            level = self._settings.lever_liquidation_level
            self._usdt, self._book, self._rows, self._pairs = await read_shard(self._index, self._shards, level)
            await self._feed.follow(held(self._rows))

    # -- the calls -------------------------------------------------------------------------------------

    def _pair(self, pair_id: int) -> PairTerms:
        """The terms of a pair open for lever (what a new position or entrustment is made with)."""
        found = self._pairs.get(pair_id)
        if found is None or not found.offered:
            raise DomainError(ErrorCode.LEVER_NOT_OFFERED)
        return found

    async def _mark(self, pair: PairTerms) -> marks.Mark:
        """The pair's fresh mark (what prices an open, a close, a check), else PRICE_STALE."""
        found = (await marks.read(self._redis, [pair.symbol])).get(pair.symbol)
        if found is None or not found.fresh(now_ms(), self._settings.mark_stale_seconds):
            raise DomainError(ErrorCode.PRICE_STALE)
        return found

    async def _fresh_balance(self, uid: int) -> Decimal:
        """The account's free balance as stored (a deposit by an operator lands there, not here)."""
        balance = await stored_balance(uid, self._usdt)
        self._book.set_balance(uid, balance)
        return balance

    def _own(self, uid: int, position_id: int) -> LeverPosition:
        row = self._rows.get(position_id)
        if row is None or row.user_id != uid:
            raise DomainError(ErrorCode.LEVER_POSITION_NOT_FOUND)
        return row

    async def submit(self, uid: int, order: LeverOrder) -> dict[str, Any]:
        """Open at the market, or entrust at a target. Durable when it answers. Raises DomainError, among
        others LEVER_EXPOSURE when the order's worst case (every pending entrustment on its side filled
        too) takes the shard past its share of the pair's cap, INSUFFICIENT_BALANCE, and
        LEVER_ACCOUNT_AT_RISK when it would put the account at or below the liquidation level.

        ``order.id``, when given, is the position's id (an idempotency key's, ``serve.api.idempotency``):
        a submit whose position exists already answers it as it is now and moves nothing."""
        await self._life.serving()
        given = order.id
        if given is not None and (made := await self._made(uid, given)) is not None:
            return made
        pair = self._pair(order.pair_id)
        side, hands, multiple = order.side, order.hands, order.multiple
        if multiple not in pair.multiples:
            raise DomainError(ErrorCode.LEVER_MULTIPLE_INVALID, multiples=", ".join(map(str, pair.multiples)))
        if not 1 <= hands <= pair.max_hands:
            raise DomainError(ErrorCode.LEVER_HANDS_RANGE, max=pair.max_hands)
        mark = await self._mark(pair)
        limit = order.limit
        target = order.target if order.target is not None else Decimal(0)
        if limit:
            check_target(pair, mark.price, side, target)
        async with self._locks[uid]:
            if given is not None and (made := await self._made(uid, given)) is not None:
                return made  # the same submit, run meanwhile (its caller lost the answer)
            balance = await self._fresh_balance(uid)
            qty = terms.quantity(hands, pair.share_num)
            if self._book.past_cap(pair.id, side, qty, mark.price, pair.max_exposure / self._shards, pending=True):
                raise DomainError(ErrorCode.LEVER_EXPOSURE)
            position_id = given if given is not None else await self._ids.next()
            row = LeverPosition(
                id=position_id, user_id=uid, currency_match_id=pair.id, type=side, share=hands, multiple=multiple,
                share_num=pair.share_num, point_rate=pair.point_rate, fee_rate=pair.fee_rate,
                overnight_rate=pair.overnight_rate, origin_price=mark.price, target_price=target,
                overnight_day=now_ms() // DAY_MS,
            )  # fmt: skip
            if limit:
                frozen = terms.margin(target, hands, pair.share_num, multiple)
                frozen += terms.fee(target, hands, pair.share_num, pair.fee_rate)
                moved = settle.entrusting(frozen)
                row.status, row.frozen, row.armed_seq = LeverStatus.ENTRUSTED, frozen, max(mark.seq, self._seq(pair))
                log_type, memo = "lever_entrust", f"{pair.symbol} entrustment"
                equity, margins = -frozen, Decimal(0)  # frozen funds are not equity until it opens
            else:
                price = terms.open_price(mark.price, pair.point_rate, side, pair.places)
                margin = terms.margin(price, hands, pair.share_num, multiple)
                fee = terms.fee(price, hands, pair.share_num, pair.fee_rate)
                moved = settle.opening(margin, fee)
                row.status, row.price, row.caution_money, row.origin_caution_money = (
                    LeverStatus.OPEN,
                    price,
                    margin,
                    margin,
                )
                row.trade_fee, row.opened_at, row.open_tick_id = fee, datetime.now(UTC), mark.tick_id
                row.stop_seq = max(mark.seq, self._seq(pair))
                log_type, memo = "lever_open", f"{pair.symbol} position opened"
                equity, margins = terms.unrealised(side, price, mark.price, hands, pair.share_num) - fee, margin
            if balance + moved.balance < 0:
                raise DomainError(ErrorCode.INSUFFICIENT_BALANCE)
            if self._book.at_risk_after(uid, equity, margins):
                raise DomainError(ErrorCode.LEVER_ACCOUNT_AT_RISK)
            ref = f"lv{position_id}:{'entrust' if limit else 'open'}"
            await lever_ledger.commit(lever_ledger.change(uid, self._usdt, moved, log_type, ref, memo), [row],
                                      lever_ledger.house(moved, self._usdt, uid, position_id, ref))  # fmt: skip
            self._after(row, moved)
            await self._push(row, "LEVER_TRADE")
            if self._book.at_risk(uid):  # a position that puts the account at the level at once
                await self._liquidate(uid, mark.tick_id)
            return self._public(row)

    async def _made(self, uid: int, position_id: int) -> dict[str, Any] | None:
        """Position ``position_id`` as it is now, if it was made; REF_CONFLICT if another user's."""
        row = self._rows.get(position_id) or await LeverPosition.get_or_none(id=position_id)
        if row is None:
            return None
        if row.user_id != uid:
            raise DomainError(ErrorCode.REF_CONFLICT)
        return self._public(row)

    def _seq(self, pair: PairTerms) -> int:
        return self._book.seqs.get(pair.id, 0)

    async def cancel(self, uid: int, position_id: int) -> dict[str, Any]:
        """Cancel an entrustment: its frozen funds go back. Durable when it answers."""
        await self._life.serving()
        async with self._locks[uid]:
            row = self._own(uid, position_id)
            if row.status != LeverStatus.ENTRUSTED:
                raise DomainError(ErrorCode.LEVER_NOT_ENTRUSTED)
            return self._public(await self._cancel(row, "cancelled"))

    async def close(self, uid: int, position_id: int, reason: str = "manual") -> dict[str, Any]:
        """Close an open position at the mark moved by the spread against the trader."""
        await self._life.serving()
        async with self._locks[uid]:
            row = self._own(uid, position_id)
            if row.status != LeverStatus.OPEN:
                raise DomainError(ErrorCode.LEVER_POSITION_NOT_OPEN)
            pair = self._pairs[row.currency_match_id]
            mark = await self._mark(pair)
            price = terms.close_price(mark.price, row.point_rate, row.type, pair.places)
            return self._public(await self._close(row, price, reason, mark.tick_id))

    async def batch_close(self, uid: int, pair_id: int, side: int) -> list[dict[str, Any]]:
        """Close the user's open positions (of ``pair_id``, 0: every pair; of ``side``, 0: both)."""
        await self._life.serving()
        chosen = [r for r in list(self._rows.values())
                  if r.user_id == uid and r.status == LeverStatus.OPEN
                  and (not pair_id or r.currency_match_id == pair_id) and (not side or r.type == side)]  # fmt: skip
        closed = []
        for row in chosen:
            try:
                closed.append(await self.close(uid, row.id, "batch"))
            except DomainError as exc:
                if exc.code != ErrorCode.LEVER_POSITION_NOT_FOUND:  # closed meanwhile (a trigger): skip it
                    raise
        return closed

    async def setstop(self, uid: int, position_id: int, take_profit: Decimal | None,
                      stop_loss: Decimal | None) -> dict[str, Any]:  # fmt: skip
        """Set (or clear, with None or 0) the take-profit and stop-loss of an open position."""
        await self._life.serving()
        async with self._locks[uid]:
            row = self._own(uid, position_id)
            if row.status != LeverStatus.OPEN:
                raise DomainError(ErrorCode.LEVER_POSITION_NOT_OPEN)
            pair = self._pairs[row.currency_match_id]
            mark = await self._mark(pair)
            tp, sl = take_profit or Decimal(0), stop_loss or Decimal(0)
            check_stops(pair, mark.price, row.type, tp, sl)
            new = copy.copy(row)
            new.target_profit_price, new.stop_loss_price = tp, sl
            new.stop_seq = max(mark.seq, self._seq(pair))
            await lever_ledger.commit([], [new])
            self._after(new, settle.Movement())
            await self._push(new, "LEVER_TRADE")
            return self._public(new)

    async def transfer(self, uid: int, currency_id: int, amount: Decimal, source: int, target: int, ref: str) -> bool:
        """Move funds between the lever account and another account of the user, both legs in one
        batch. Out of the lever account, at most what the open positions leave free (``LeverBook.free``:
        equity at the close prices stays at the margins they opened with): LEVER_MARGIN_IN_USE beyond.
        Idempotent by ``ref``."""
        await self._life.serving()
        async with self._locks[uid]:
            if currency_id == self._usdt:
                await self._fresh_balance(uid)  # the free balance as stored, before the book counts it
            if source == int(AccountType.LEVER) and currency_id == self._usdt:
                free = self._book.free(uid, {pair_id: pair.places for pair_id, pair in self._pairs.items()})
                if amount > free:
                    raise DomainError(ErrorCode.LEVER_MARGIN_IN_USE, max=money(free))
            done = await ledger.apply(
                transfer_legs(uid, currency_id, amount, AccountType(source), AccountType(target), ref)
            )
            if currency_id == self._usdt:
                await self._fresh_balance(uid)
            return done

    async def overview(self, uid: int, pair_id: int | None = None) -> LeverOverview:
        """The account's free balance, margins, risk rate and unrealised profit at the marks."""
        await self._life.serving()
        async with self._locks[uid]:
            balance = await self._fresh_balance(uid)
        opened = self._book.account(uid).open_positions()
        chosen = [p for p in opened if pair_id is None or p.pair_id == pair_id]
        rate = self._book.risk(uid)
        return LeverOverview(
            balance=money(balance),
            margins=money(self._book.margins(uid)),
            hazard_rate=money(rate.quantize(Decimal("0.01"))) if rate is not None else None,
            profits_all=money(sum((self._book.unrealised(p) for p in chosen), Decimal(0))),
            marks={pid: money(price) for pid, price in self._book.marks.items()},
        )

    async def overnight(self, day: int) -> dict[str, int]:
        """Charge the overnight fee of every position open at 00:00 UTC of ``day`` (days since
        1970-01-01), at the mark of that moment (the tick log), once per (position, day): from the
        free balance, then from the margin down to its floor (``terms.floor``); a fee those cannot pay
        liquidates the position instead (``_overnight_close``)."""
        await self._life.serving()
        midnight = day * DAY_MS
        charged = 0
        for row in [r for r in list(self._rows.values()) if r.status == LeverStatus.OPEN]:
            uid = row.user_id
            opened = int(row.opened_at.timestamp() * 1000) if row.opened_at else midnight
            if row.overnight_day >= day or opened >= midnight or not row.overnight_rate:
                continue
            async with self._locks[uid]:
                row = self._rows.get(row.id)  # type: ignore[assignment]
                if row is None or row.status != LeverStatus.OPEN or row.overnight_day >= day:
                    continue
                at = await ticks.tick_at(row.currency_match_id, midnight)
                mark = at.price if at else self._book.marks.get(row.currency_match_id, row.price)
                fee = terms.overnight(mark, row.share, row.share_num, row.overnight_rate)
                floor = terms.floor(row.origin_caution_money, self._book.level)
                found = settle.overnight(self._book.account(uid).balance, row.caution_money, floor, fee)
                ref = f"lv{row.id}:night:{day}"
                if found is None:
                    await self._overnight_close(row, day, fee, ref, at.id if at else 0)
                else:
                    moved, from_margin = found
                    new = copy.copy(row)
                    new.overnight_money += fee
                    new.caution_money -= from_margin
                    new.overnight_day = day
                    await lever_ledger.commit(
                        lever_ledger.change(uid, self._usdt, moved, "lever_overnight", ref, "overnight fee"),
                        [new],
                        lever_ledger.house(moved, self._usdt, uid, row.id, ref),
                    )
                    self._after(new, moved)
                    await self._push(new, "LEVER_TRADE")
                charged += 1
                if self._book.at_risk(uid):
                    await self._liquidate(uid, at.id if at else 0)
        self._loops["overnight"] = now_ms()
        return {"charged": charged}

    async def _overnight_close(self, row: LeverPosition, day: int, fee: Decimal, ref: str, tick_id: int) -> None:
        """A fee the balance and the margin above its floor cannot pay: the position is liquidated
        instead, at what a close pays now (the mark the shard holds, moved by the spread; a loss it
        cannot pay is the rest of the account's first, ``_cover``), and the fee is taken from what it
        returns to the balance, as far as that goes, in the same transaction."""
        uid = row.user_id
        pair_id = row.currency_match_id
        closing = (row, self._close_price(position_of(row)), "liquidation", self._tick_of(pair_id, tick_id))
        now = datetime.now(UTC)
        plan = self._cover(closing, now) or self._plan(uid, [closing], [], "liquidation", keep=True, now=now,
                                                      ref=f"cv{uid}:{row.id}")  # fmt: skip
        paid = min(fee, plan.balance)
        moved = settle.Movement(balance=-paid, house={settle.OVERNIGHT: paid})
        closed = next(r for r in plan.rows if r.id == row.id)
        closed.overnight_money += paid
        closed.overnight_day = day
        await self._carry_out_plan(replace(
            plan,
            changes=plan.changes + lever_ledger.change(uid, self._usdt, moved, "lever_overnight", ref, "overnight fee"),
            houses=plan.houses + lever_ledger.house(moved, self._usdt, uid, row.id, ref),
            balance=plan.balance - paid,
        ))  # fmt: skip

    async def status(self) -> dict[str, Any]:
        """The loops' last runs, the cursors, and what the shard holds (tests, `exchange` commands)."""
        await self._life.serving()
        offered = sorted(p.id for p in self._pairs.values() if p.offered)
        return {"loops": dict(self._loops), "cursors": dict(self._feed.done), "positions": len(self._rows),
                "healthy": self._life.healthy, "offered": offered}  # fmt: skip

    async def reload_terms(self) -> dict[str, list[int]]:
        """Read the pairs' lever terms again (an operator changed them in the console): the next open or
        entrustment is made with them; positions already made keep the terms copied onto them. A pair
        newly open for lever is followed at once; one closed refuses new positions (LEVER_NOT_OFFERED).
        Answers the pairs offered and followed."""
        await self._life.serving()
        async with self._terms_lock:
            fresh = await read_terms(held(self._rows) | set(self._pairs))
            await self._feed.follow_terms(fresh)
            self._pairs = fresh
        return {"offered": sorted(p.id for p in fresh.values() if p.offered), "followed": sorted(fresh)}

    async def ping(self) -> bool:
        await self._life.serving()
        return True


__all__ = ["LeverShard", "lever_name"]  # lever_name: where callers have always found it
