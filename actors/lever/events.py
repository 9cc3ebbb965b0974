"""What a LeverShard does when a tick or a call decides something: fill an entrustment, close a
position (one or many), cancel, liquidate an account; each one transaction with its journal and house
rows, then the push (mixed into the actor).

A loss is the whole account's to pay before the insurance fund pays anything: a close whose loss
passes its margin and the free balance cancels the account's entrustments (their frozen funds pay
next) and, if that is not enough, closes its other positions with it (reason ``cover``); a
liquidation counts the frozen funds of the entrustments it cancels the same way (``_plan``)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from redis.asyncio import Redis

from actors.lever import ledger as lever_ledger
from actors.lever import settle, terms
from actors.lever.book import ENTRUSTED, ZERO, Decision, LeverBook, Position
from actors.lever.state import PairTerms, position_of
from store import channels, lever
from store.ledger import Change
from store.models import HouseLedger, LeverPosition, LeverStatus
from store.money import money

log = logging.getLogger(__name__)
CLOSE_BATCH = 500  # positions closed in one transaction when a tick fires many
LIQUIDATION_BATCH = 100  # accounts liquidated in one transaction (each with all its positions)


# A position settled in a plan: its row, its close price, its close reason and the tick id it records.
Closing = tuple[LeverPosition, Decimal, str, int]


@dataclass(frozen=True)
class Plan:
    """What settling one account writes (a liquidation, or a close the rest of the account covers),
    and the account's free balance once it is durable."""

    uid: int
    changes: list[Change]
    rows: list[LeverPosition]
    houses: list[HouseLedger]
    balance: Decimal
    closed: int


class LeverEvents:
    """Mixed into the LeverShard; everything runs on its event loop, under the owner's lock."""

    _index: int
    _book: LeverBook
    _rows: dict[int, LeverPosition]
    _pairs: dict[int, PairTerms]
    _locks: defaultdict[int, asyncio.Lock]
    _usdt: int
    _shards: int
    _redis: Redis

    async def _carry_out_all(self, decisions: list[Decision], tick_id: int) -> None:
        """What one tick decided: its take-profits and stop-losses in batches, its entrustments in
        order, then its liquidations in batches (a tick that fires many: few transactions)."""
        closes = [d for d in decisions if d.kind in ("take_profit", "stop_loss")]
        for start in range(0, len(closes), CLOSE_BATCH):
            await self._close_many(closes[start : start + CLOSE_BATCH], tick_id)
        for decision in decisions:
            if decision.kind == "open":
                await self._carry_out(decision, tick_id)
        accounts = [d.ident for d in decisions if d.kind == "liquidate"]
        for start in range(0, len(accounts), LIQUIDATION_BATCH):
            await self._liquidate_many(accounts[start : start + LIQUIDATION_BATCH], tick_id)

    async def _carry_out(self, d: Decision, tick_id: int) -> None:
        """Fill an entrustment the tick reached (and liquidate its account if the fill takes it to the
        level), or cancel it (reason ``exposure``) when filling it now would take the shard past its
        share of the pair's exposure cap."""
        row = self._rows.get(d.ident)
        if row is None:
            return
        uid = row.user_id
        async with self._locks[uid]:
            row = self._rows.get(d.ident)
            if row is None or row.status != LeverStatus.ENTRUSTED:
                return
            pair = self._pairs[row.currency_match_id]
            qty = terms.quantity(row.share, row.share_num)
            if self._book.past_cap(pair.id, row.type, qty, d.mark, pair.max_exposure / self._shards, pending=False):
                await self._cancel(row, "exposure")
                return
            await self._fill(row, d.mark, d.seq, tick_id)
            if self._book.at_risk(uid):
                await self._liquidate(uid, tick_id)

    async def _close_many(self, decisions: list[Decision], tick_id: int) -> None:
        """Close the positions a tick's take-profits and stop-losses hit, at the mark moved by the
        spread (as a market close at that tick), in one transaction (a tick can fire a thousand: one
        commit each would take seconds). A close whose loss its margin and the free balance cannot
        pay is left out of the batch and settled against its whole account after it (``_close``)."""
        uids = sorted({self._rows[d.ident].user_id for d in decisions if d.ident in self._rows})
        closing: list[tuple[LeverPosition, settle.Movement]] = []
        async with contextlib.AsyncExitStack() as held:
            for uid in uids:  # in uid order: two batches never wait on each other
                await held.enter_async_context(self._locks[uid])
            balances = {uid: self._book.account(uid).balance for uid in uids}
            uncovered: list[tuple[int, Decimal, str]] = []  # (position id, close price, reason)
            changes, houses = [], []
            now = datetime.now(UTC)
            for d in decisions:
                row = self._rows.get(d.ident)
                if row is None or row.status != LeverStatus.OPEN:
                    continue  # closed meanwhile (by its owner, or a liquidation)
                uid = row.user_id
                price = self._close_price(position_of(row), d.mark)
                profit = terms.profit(row.type, row.price, price, row.share, row.share_num)
                moved = settle.closing(balances[uid], row.caution_money, profit)
                if moved.house.get(settle.INSURANCE):
                    uncovered.append((row.id, price, d.kind))
                    continue
                balances[uid] += moved.balance
                new = copy.copy(row)
                new.status, new.close_price, new.profits, new.close_reason = LeverStatus.CLOSED, price, profit, d.kind
                new.closed_at, new.close_tick_id, new.caution_money = now, tick_id, Decimal(0)
                ref = f"lv{row.id}:close"
                facts: dict[str, object] = {"reason": d.kind, "price": money(price), "profit": money(profit)}
                changes += lever_ledger.change(uid, self._usdt, moved, "lever_close", ref, "position closed", facts)
                houses += lever_ledger.house(moved, self._usdt, uid, row.id, ref)
                closing.append((new, moved))
            if closing:
                await lever_ledger.commit_many(changes, [new for new, _ in closing], houses)
                for new, moved in closing:
                    self._after(new, moved)
            for position_id, price, reason in uncovered:
                row = self._rows.get(position_id)
                if row is not None and row.status == LeverStatus.OPEN:  # a cover before it may have closed it
                    await self._close(row, price, reason, tick_id)
        if closing:
            await self._push_many([new for new, _ in closing], "LEVER_CLOSED")

    async def _fill(self, row: LeverPosition, mark: Decimal, seq: int, tick_id: int) -> None:
        terms_ = self._pairs[row.currency_match_id]
        uid = row.user_id
        position = position_of(row)
        price, margin, fee = settle.fill(position, mark, row.point_rate, row.fee_rate, terms_.places,
                                         self._book.account(uid).balance)  # fmt: skip
        moved = settle.filling(row.frozen, margin, fee)
        new = copy.copy(row)
        new.status, new.price, new.caution_money, new.origin_caution_money = LeverStatus.OPEN, price, margin, margin
        new.trade_fee, new.frozen, new.opened_at, new.open_tick_id = fee, Decimal(0), datetime.now(UTC), tick_id
        new.stop_seq = max(row.stop_seq, seq)
        ref = f"lv{row.id}:fill"
        await lever_ledger.commit(
            lever_ledger.change(uid, self._usdt, moved, "lever_fill", ref, f"{terms_.symbol} entrustment filled"),
            [new],
            lever_ledger.house(moved, self._usdt, uid, row.id, ref),
        )
        self._after(new, moved)
        await self._push(new, "LEVER_TRADE")

    async def _close(self, row: LeverPosition, price: Decimal, reason: str, tick_id: int) -> LeverPosition:
        """Close one position at ``price`` (the caller holds its owner's lock); a loss its margin and the
        free balance cannot pay is settled against the whole account (``_cover``)."""
        uid = row.user_id
        pair = self._pairs[row.currency_match_id]
        covered = self._cover((row, price, reason, tick_id), datetime.now(UTC))
        if covered is not None:
            await self._carry_out_plan(covered)
            return next(r for r in covered.rows if r.id == row.id)
        profit = terms.profit(row.type, row.price, price, row.share, row.share_num)
        moved = settle.closing(self._book.account(uid).balance, row.caution_money, profit)
        new = copy.copy(row)
        new.status, new.close_price, new.profits, new.close_reason = LeverStatus.CLOSED, price, profit, reason
        new.closed_at, new.close_tick_id, new.caution_money = datetime.now(UTC), tick_id, Decimal(0)
        ref = f"lv{row.id}:close"
        await lever_ledger.commit(
            lever_ledger.change(uid, self._usdt, moved, "lever_close", ref, f"{pair.symbol} position closed",
                                {"reason": reason, "price": money(price), "profit": money(profit)}),
            [new],
            lever_ledger.house(moved, self._usdt, uid, row.id, ref),
        )  # fmt: skip
        self._after(new, moved)
        await self._push(new, "LEVER_CLOSED")
        return new

    async def _cancel(self, row: LeverPosition, reason: str) -> LeverPosition:
        uid = row.user_id
        moved = settle.cancelling(row.frozen)
        new = copy.copy(row)
        new.status, new.close_reason, new.closed_at, new.frozen = LeverStatus.CANCELLED, reason, datetime.now(UTC), ZERO
        ref = f"lv{row.id}:cancel"
        journal = lever_ledger.change(uid, self._usdt, moved, "lever_cancel", ref, "entrustment cancelled")
        await lever_ledger.commit(journal, [new])
        self._after(new, moved)
        await self._push(new, "LEVER_CLOSED")
        return new

    async def _liquidate(self, uid: int, tick_id: int) -> None:
        """Liquidate one account (the caller holds its lock): see ``_liquidation``."""
        plan = self._liquidation(uid, tick_id, datetime.now(UTC))
        if plan is not None:
            await self._carry_out_plan(plan)

    async def _carry_out_plan(self, plan: Plan) -> None:
        """Write one account's plan in one transaction, then tell the book and push its rows."""
        await lever_ledger.commit(plan.changes, plan.rows, plan.houses)
        self._settled(plan)
        await self._push_many(plan.rows, "LEVER_CLOSED")

    async def _liquidate_many(self, uids: list[int], tick_id: int) -> None:
        """Liquidate the accounts one tick took to the level in one group commit, each account all or
        nothing (a commit each would keep the last of a hundred waiting for the ninety-nine before it)."""
        async with contextlib.AsyncExitStack() as held:
            for uid in sorted(set(uids)):  # in uid order: two batches never wait on each other
                await held.enter_async_context(self._locks[uid])
            now = datetime.now(UTC)
            plans = [plan for uid in sorted(set(uids)) if (plan := self._liquidation(uid, tick_id, now))]
            if not plans:
                return
            results = await lever_ledger.commit_each([(p.changes, p.rows, p.houses) for p in plans])
            done = [plan for plan, result in zip(plans, results, strict=True) if not isinstance(result, Exception)]
            for plan in done:
                self._settled(plan)
        await self._push_many([row for plan in done for row in plan.rows], "LEVER_CLOSED")
        refused = [result for result in results if isinstance(result, Exception)]
        if refused:  # the tick failed for these accounts: the shard reloads and replays it
            raise refused[0]

    def _liquidation(self, uid: int, tick_id: int, now: datetime) -> Plan | None:
        """What liquidating the account writes: every open position closed at its pair's mark, every
        entrustment cancelled; None when a close before it brought the account back above the level."""
        if not self._book.at_risk(uid):
            return None
        account = self._book.account(uid)
        opened = sorted(account.open_positions(), key=lambda p: p.id)
        closes = [(self._rows[p.id], self._book.marks[p.pair_id], "liquidation", self._tick_of(p.pair_id, tick_id))
                  for p in opened]  # fmt: skip
        return self._plan(uid, closes, self._entrusted(uid), "liquidation", keep=False, now=now,
                          ref=f"lq{uid}:{opened[0].id}")  # fmt: skip

    def _cover(self, closing: Closing, now: datetime) -> Plan | None:
        """A close (``closing``) whose loss passes its margin and the free balance, settled against the
        whole account: its entrustments are cancelled and their frozen funds pay next; if the loss still
        passes them, its other open positions close with it (reason ``cover``, each at its close price
        at the mark the shard holds) and their margins and profits pay; the insurance fund pays only
        what the whole account cannot. None when the margin and the free balance pay the loss."""
        row, price, _, tick_id = closing
        uid = row.user_id
        account = self._book.account(uid)
        left = account.balance + row.caution_money + terms.profit(row.type, row.price, price, row.share, row.share_num)
        if left >= 0:
            return None
        cancels = self._entrusted(uid)
        closes = [closing]
        if left + sum((e.frozen for e in cancels), Decimal(0)) < 0:
            for p in account.open_positions():
                if p.id != row.id:
                    closes.append((self._rows[p.id], self._close_price(p), "cover", self._tick_of(p.pair_id, tick_id)))
        return self._plan(uid, closes, cancels, "cover", keep=True, now=now, ref=f"cv{uid}:{row.id}")

    def _plan(self, uid: int, closes: list[Closing], cancels: list[LeverPosition], cancel_reason: str, *, keep: bool,
              now: datetime, ref: str) -> Plan:  # fmt: skip
        """One account's positions closed together and its entrustments cancelled, in one batch: the
        refunds first (the frozen funds pay a loss before the insurance fund does), then each
        position's margin leaves the lock, then the balance takes what they leave or pays the loss
        (``settle.settling``; ``keep``: a close, else a liquidation whose remainder is the fund's)."""
        account = self._book.account(uid)
        changes: list[Change] = []
        rows: list[LeverPosition] = []
        for entrusted in cancels:
            row = copy.copy(entrusted)
            row.status, row.close_reason, row.closed_at, row.frozen = LeverStatus.CANCELLED, cancel_reason, now, ZERO
            rows.append(row)
            changes += lever_ledger.change(uid, self._usdt, settle.cancelling(entrusted.frozen), "lever_cancel",
                                           f"lv{row.id}:cancel", f"entrustment cancelled: {cancel_reason}")  # fmt: skip
        refunds = sum((e.frozen for e in cancels), Decimal(0))
        priced = [(position_of(row), price) for row, price, _, _ in closes]
        moved, closed = settle.settling(account.balance + refunds, priced, keep=keep)
        log_type = "lever_close" if keep else "lever_liquidation"
        for c, (held, _, reason, tick) in zip(closed, closes, strict=True):
            row = copy.copy(held)
            row.status, row.close_price, row.profits, row.close_reason = LeverStatus.CLOSED, c.price, c.profit, reason
            row.closed_at, row.caution_money, row.close_tick_id = now, Decimal(0), tick
            rows.append(row)
            facts: dict[str, object] = {"reason": reason, "price": money(c.price), "profit": money(c.profit)}
            changes += lever_ledger.change(uid, self._usdt, settle.Movement(lock=-held.caution_money), log_type,
                                           f"lv{row.id}:close", f"position closed: {reason}", facts)  # fmt: skip
        changes += lever_ledger.change(uid, self._usdt, settle.Movement(balance=moved.balance), log_type, ref,
                                       "what the positions left, or the loss beyond their margins")  # fmt: skip
        first = closes[0][0].id
        houses = lever_ledger.house(moved, self._usdt, uid, first, ref)
        return Plan(uid, changes, rows, houses, account.balance + refunds + moved.balance, len(closed))

    def _entrusted(self, uid: int) -> list[LeverPosition]:
        return [self._rows[p.id] for p in self._book.account(uid).positions.values() if p.status == ENTRUSTED]

    def _tick_of(self, pair_id: int, tick_id: int) -> int:
        """The id of the pair's last tick the shard took (``tick_id`` before any)."""
        seq = self._book.seqs.get(pair_id, 0)
        return (pair_id << 40) | seq if seq else tick_id

    def _close_price(self, position: Position, mark: Decimal | None = None) -> Decimal:
        """What a close pays: ``mark`` (by default the pair's mark the shard holds) moved by the spread."""
        mark = mark if mark is not None else self._book.marks.get(position.pair_id, position.price)
        return terms.close_price(mark, position.point_rate, position.side, self._pairs[position.pair_id].places)

    def _settled(self, plan: Plan) -> None:
        """A plan is durable: the book forgets its rows and takes the account's new balance."""
        for row in plan.rows:
            self._forget(row)
        self._book.set_balance(plan.uid, plan.balance)
        log.info("lever shard %d: account %d settled (%d positions closed)", self._index, plan.uid, plan.closed)

    def _after(self, row: LeverPosition, moved: settle.Movement) -> None:
        """A change of ``row`` is durable: keep it, update the book and the balance."""
        uid = row.user_id
        if row.status in lever.ACTIVE:
            self._rows[row.id] = row
            self._book.put(position_of(row))
        else:
            self._forget(row)
        self._book.set_balance(uid, self._book.account(uid).balance + moved.balance)

    def _forget(self, row: LeverPosition) -> None:
        self._rows.pop(row.id, None)
        self._book.drop(row.id, row.user_id)

    async def _push(self, row: LeverPosition, channel: str) -> None:
        await self._push_many([row], channel)

    async def _push_many(self, rows: list[LeverPosition], channel: str) -> None:
        """Push the rows to their owners on ``channel``, one Redis command for all (a tick that closes
        a hundred positions does not keep the last waiting behind ninety-nine publishes)."""
        kind = "lever_trade" if channel == "LEVER_TRADE" else "lever_closed"
        try:
            await channels.publish_all(self._redis, ((channels.user_topic(row.user_id, channel),
                                                      channels.encode(kind, {"position": self._public(row)}))
                                                     for row in rows))  # fmt: skip
        except Exception:  # pushes are best effort: the lists are the truth
            log.warning("lever shard %d: push failed", self._index, exc_info=True)

    def _public(self, row: LeverPosition) -> dict[str, Any]:
        pair_id = row.currency_match_id
        return lever.position_public(row, self._pairs[pair_id], self._book.marks.get(pair_id))
