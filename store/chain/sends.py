"""Approved withdrawals out to their chains, each exactly once (docs/decisions.md "Sending withdrawals").

One ``Dispatch`` per chain, stepped by the Signer actor:

1. **Sign** each APPROVED withdrawal of the chain that has no transaction yet (its user's withdrawals
   not frozen), and store the signed bytes and their id (``ChainSend``, unique per withdrawal) before
   anything is broadcast. A crash before the row commits loses only a signature nobody saw; after it,
   the stored bytes are what goes out. A request that can never be sent as asked (an amount the chain
   cannot carry) fails at once and its lock returns.
2. **Follow** every stored transaction not yet final, asking the chain what it knows of it:
   - unknown to the node: broadcast the stored bytes (again, after any failure or restart: the same
     bytes, never a new transaction); a refusal is recorded and tried again on the next step;
   - in the mempool or mined: SENT, its depth recorded;
   - mined with ``final`` confirmations: the withdrawal is COMPLETED (its lock leaves) or, if the EVM
     transaction reverted, FAILED (its lock returns with the reason), in the transaction that marks
     the send;
   - beaten by a conflicting transaction (the hot wallet's nonce or the inputs spent elsewhere) that is
     ``final`` deep, or (TRON) expired with the first block past its expiration ``final`` deep: it can
     never be mined, so the withdrawal FAILS and its lock returns.

Nothing else fails a withdrawal: a refusal that might pass later (too little in the hot wallet, fees)
leaves it waiting, and one beyond what the hot wallet holds (less its sends not yet mined) is not
signed until funds arrive. What waits is visible to operators (``exchange chain status``) with the
reason.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError
from tortoise.functions import Max

from store import withdrawals
from store.chain.senders import Outgoing, Refused, Seen, Sender
from store.chain_rpc.jsonrpc import NodeError
from store.db import column
from store.models import ChainSend, SendState, Withdrawal, WithdrawalStatus

log = logging.getLogger(__name__)
OPEN = (SendState.SIGNED, SendState.SENT)
BATCH = 50  # withdrawals signed per step, oldest first
Notify = Callable[[list[Withdrawal]], Awaitable[None]]


@dataclass
class StepReport:
    signed: list[str] = field(default_factory=list)  # txids
    broadcast: list[str] = field(default_factory=list)
    completed: list[int] = field(default_factory=list)  # withdrawal ids
    failed: list[int] = field(default_factory=list)
    waiting: dict[str, str] = field(default_factory=dict)  # txid (or w<id>) -> why it has not moved on


class Dispatch:
    def __init__(self, sender: Sender, *, final_confirmations: int, notify: Notify | None = None) -> None:
        self.sender = sender
        self.chain = sender.chain
        self.final = final_confirmations
        self._notify = notify

    async def step(self) -> StepReport:
        """Sign what was approved, then follow every open transaction once. ``NodeError`` only when
        the node cannot be reached at all; a refusal of one transaction is in the report."""
        report = StepReport()
        await self.sign_approved(report)
        await self.follow(report)
        return report

    async def sign_approved(self, report: StepReport) -> None:
        rows = (
            await Withdrawal.filter(status=WithdrawalStatus.APPROVED, currency_protocol__chain_protocol=self.chain,
                                    send=None, user__withdraw_frozen=False)
            .order_by("id").limit(BATCH).prefetch_related("currency")
        )  # fmt: skip
        if not rows:
            return
        try:
            free = None if self.sender.funded_when_signed else await self._free()
        except NodeError as exc:
            report.waiting.update({f"w{row.id}": str(exc) for row in rows})
            return
        for row in rows:
            out = Outgoing(row.id, row.currency.code, row.address, row.amount - row.fee)
            code = out.currency.upper()
            try:
                signed = await self.sender.sign(out, stored_next_nonce=await self._next_nonce())
            except ValueError as exc:  # never sendable as asked: nothing signed, nothing can leave
                await self._fail(row, None, f"cannot be sent: {exc}", report)
                continue
            except NodeError as exc:  # the node, or the hot wallet's funds: next step
                report.waiting[f"w{row.id}"] = str(exc)
                continue
            held = free.get(code, Decimal(0)) if free is not None else out.amount
            if held < out.amount:  # it would revert: the signature is dropped unseen, the request waits
                report.waiting[f"w{row.id}"] = (
                    f"the hot wallet has {held.normalize():f} {code} free, less than {out.amount.normalize():f}"
                )
                continue
            try:
                await ChainSend.create(withdrawal_id=row.id, chain=self.chain, sender=signed.sender,
                                       nonce=signed.nonce, txid=signed.txid, raw_tx=signed.raw)  # fmt: skip
            except IntegrityError:  # another Signer stored one first: that one is the transaction
                continue
            log.info("withdrawal %s: signed %s on %s (nonce %s)", row.id, signed.txid, self.chain, signed.nonce)
            report.signed.append(signed.txid)
            if free is not None:
                free[code] = held - out.amount

    async def _free(self) -> dict[str, Decimal]:
        """Per currency, what the hot wallet holds less what its stored sends not yet mined will take
        from it. A withdrawal is signed only within it: a transfer beyond the hot wallet's funds would
        revert (and fail its user's withdrawal) or be refused, where waiting for a sweep or an operator's
        top-up sends it whole."""
        free = await self.sender.hot_balances()
        unmined = await ChainSend.filter(chain=self.chain, state__in=OPEN, confirmations=0).prefetch_related(
            "withdrawal__currency"
        )
        for send in unmined:
            code = send.withdrawal.currency.code.upper()
            free[code] = free.get(code, Decimal(0)) - (send.withdrawal.amount - send.withdrawal.fee)
        return free

    async def _next_nonce(self) -> int | None:
        """One past the highest nonce stored for this chain's sends from this hot wallet (None: none yet;
        a wallet that replaced another starts from its own count)."""
        mine = ChainSend.filter(chain=self.chain, sender=self.sender.account)
        found = await column(mine.annotate(top=Max("nonce")).values_list("top", flat=True))
        top = found[0] if found else None
        return None if top is None else int(top) + 1

    async def follow(self, report: StepReport) -> None:
        sends = await ChainSend.filter(chain=self.chain, state__in=OPEN).order_by("nonce", "id")
        for send in sends:
            seen = await self.sender.seen(send.txid, nonce=send.nonce, final=self.final, raw=send.raw_tx)
            await self._follow_one(send, seen, report)

    async def _follow_one(self, send: ChainSend, seen: Seen, report: StepReport) -> None:
        if seen.depth is not None and seen.depth >= self.final:
            row = await Withdrawal.get(id=send.withdrawal_id)
            if seen.succeeded:
                await self._complete(row, send, seen, report)
            else:
                await self._fail(row, send, seen.why or "the transaction reverted on the chain", report)
            return
        if seen.depth is not None:
            await ChainSend.filter(id=send.id).update(state=SendState.SENT, confirmations=seen.depth,
                                                      block_height=seen.block_height, error="")  # fmt: skip
            return
        if seen.conflict >= self.final:
            row = await Withdrawal.get(id=send.withdrawal_id)
            await self._fail(row, send, seen.why or "another transaction spent its nonce or inputs", report)
            return
        try:  # unknown to the node: the stored bytes, again
            await self.sender.broadcast(send.raw_tx)
        except (Refused, NodeError) as exc:
            report.waiting[send.txid] = str(exc)
            await ChainSend.filter(id=send.id).update(attempts=send.attempts + 1, error=str(exc)[:255])
            log.warning("withdrawal %s: %s refused: %s", send.withdrawal_id, send.txid, exc)
            return
        await ChainSend.filter(id=send.id).update(state=SendState.SENT, attempts=send.attempts + 1, error="",
                                                  confirmations=0, block_height=None)  # fmt: skip
        report.broadcast.append(send.txid)

    async def _complete(self, row: Withdrawal, send: ChainSend, seen: Seen, report: StepReport) -> None:
        async def mark(conn: BaseDBAsyncClient) -> None:
            await (
                ChainSend.filter(id=send.id)
                .using_db(conn)
                .update(state=SendState.CONFIRMED, confirmations=seen.depth, block_height=seen.block_height, error="")
            )

        if await withdrawals.complete(row, txid=send.txid, also=mark):
            log.info("withdrawal %s: %s final at %s confirmations", row.id, send.txid, seen.depth)
            report.completed.append(row.id)
            await self._notified(row)

    async def _fail(self, row: Withdrawal, send: ChainSend | None, reason: str, report: StepReport) -> None:
        async def mark(conn: BaseDBAsyncClient) -> None:
            if send is not None:
                await ChainSend.filter(id=send.id).using_db(conn).update(state=SendState.FAILED, reason=reason[:255])

        if await withdrawals.fail(row, reason=reason[:255], also=mark):
            log.warning("withdrawal %s failed for good (%s): its lock returned", row.id, reason)
            report.failed.append(row.id)
            await self._notified(row)

    async def _notified(self, row: Withdrawal) -> None:
        if self._notify is not None:
            await row.refresh_from_db()
            try:
                await self._notify([row])
            except Exception:  # a push is a courtesy; the records hold the outcome
                log.exception("withdrawal %s: could not push its outcome", row.id)

    async def status(self) -> dict[str, Any]:
        """For operators: the hot wallet (its address, or the node wallet's name) and its balances, and the
        sends not yet final with their state."""
        open_sends = (
            await ChainSend.filter(chain=self.chain, state__in=OPEN)
            .order_by("id")
            .values("withdrawal_id", "txid", "state", "confirmations", "attempts", "error")
        )
        unsigned = Withdrawal.filter(status=WithdrawalStatus.APPROVED, currency_protocol__chain_protocol=self.chain,
                                     send=None)  # fmt: skip
        waiting = await unsigned.count()
        frozen = await unsigned.filter(user__withdraw_frozen=True).count()  # of those, held by a freeze
        balances = await self.sender.hot_balances()
        return {"hot_account": self.sender.account,
                "hot_wallet": {code: f"{amount.normalize():f}" for code, amount in balances.items()},
                "unconfirmed_withdrawals": [{**s, "state": SendState(s["state"]).name.lower()} for s in open_sends],
                "approved_unsigned": waiting, "approved_of_frozen_users": frozen}  # fmt: skip
