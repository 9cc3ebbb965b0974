"""Chain watchers' floor: follow one chain block by block from its stored cursor, find the transfers
to deposit addresses, count their confirmations, credit them through ``store.deposits.report``, and
undo what a reorg took. Store logic over a node client, without Ray: the ``ChainWatcher`` actor
(actors/chain/watcher.py) calls ``Watcher.step`` every few seconds, the tests call it directly.

Why it is built this way (docs/decisions.md "Watching chains and reorgs"):

- **The cursor is the blocks themselves.** ``chain_blocks`` holds, per chain, the height and hash of
  each block processed (the last ``KEEP_BLOCKS``); the highest is the cursor. A step first asks the
  node for the hashes at those heights in one batch: the highest height whose hash still matches is
  the common ancestor, and everything above it is rolled back before anything new is read. A cursor
  none of whose blocks the node has (the in-memory dev EVM chain after a restart, or a reorg deeper
  than ``KEEP_BLOCKS``) is a reorg to the start.
- **A rollback unplaces, it does not drop.** Deposits in rolled-back blocks lose their block (hash
  NULL, height kept, confirmations 0, so a credited one blocks withdrawals again) and the scan goes
  on along the new branch: one mined again there gets its new block and keeps its single credit. Only
  once the watcher has caught up with the node's tip is a deposit still unplaced dropped
  (``deposits.drop``: a credit is clawed back with a journal row).
- **Confirmations count to the cursor**, not to the node's tip: only blocks the watcher checked are
  trusted. Deposits that reached ``final_confirmations`` are final and never revisited.
- **Blocks are read by hash and chained.** Each scanned block must name the previous one as its
  parent (and each ERC20 log the hash of the block read at its height); a mismatch means the chain
  moved under the scan, and the step stops there: the next step sees the reorg.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from store import deposits
from store.chain.sources import Block, Source
from store.db import column
from store.deposits import Transfer
from store.models import ChainBlock, ChainDeposit, DepositStatus, HdAddress

log = logging.getLogger(__name__)

KEEP_BLOCKS = 100  # recent block hashes kept per chain: the deepest reorg seen as one (deeper: to the start)
FIRST_SCAN_BLOCKS = 1000  # a chain's first cursor starts this far under the tip
BATCH_BLOCKS = 50  # blocks read per step at most (a watcher catching up answers status between steps)
# A deposit is followed until it has the final count (or is dropped), whatever it was credited or not.
LIVE = (DepositStatus.CONFIRMING, DepositStatus.CREDITED, DepositStatus.BELOW_MINIMUM, DepositStatus.ABOVE_MAXIMUM)


@dataclass(frozen=True)
class Event:
    """What a step did to one deposit that its user hears of: ``confirming`` (seen, or one block nearer
    its credit), ``credited`` or ``dropped``."""

    kind: str
    deposit: ChainDeposit


@dataclass(frozen=True)
class Progress:
    tip: int
    cursor: int | None
    scanned: int  # blocks read by this step
    rolled_back: int  # blocks undone by this step (a reorg)
    events: tuple[Event, ...] = ()

    @property
    def lag(self) -> int:
        return self.tip - (self.cursor if self.cursor is not None else -1)


Notify = Callable[[list[Event]], Awaitable[None]]


class Watcher:
    """One chain's watcher over ``source``; ``final_confirmations`` is the count at which a deposit is
    withdrawable (settings.withdraw_confirmations) and no longer followed."""

    def __init__(
        self,
        source: Source,
        *,
        final_confirmations: int,
        batch_blocks: int = BATCH_BLOCKS,
        first_scan_blocks: int = FIRST_SCAN_BLOCKS,
        notify: Notify | None = None,
    ) -> None:
        self.source = source
        self.chain = source.chain
        self.final = final_confirmations
        self.batch_blocks = batch_blocks
        self.first_scan_blocks = first_scan_blocks
        self.notify = notify

    async def cursor(self) -> ChainBlock | None:
        return await ChainBlock.filter(chain=self.chain).order_by("-height").first()

    async def step(self) -> Progress:
        """Check the cursor against the node (rolling back a reorg), read up to ``batch_blocks`` new
        blocks, record their deposits, count every followed deposit's confirmations, and, once caught
        up, drop what a reorg took for good. Raises the node client's errors (nothing is half done:
        each deposit's change is its own transaction, and a step repeated does the same again)."""
        tip = await self.source.tip()
        recent = await ChainBlock.filter(chain=self.chain).order_by("-height").limit(KEEP_BLOCKS)
        rolled_back = 0
        if recent:
            ancestor = await self._common_ancestor(recent)
            if ancestor is None or ancestor.height < recent[0].height:
                rolled_back = await self._roll_back(ancestor)
            cursor = ancestor
        else:
            cursor = None
        start = cursor.height + 1 if cursor is not None else max(0, tip - self.first_scan_blocks + 1)
        end = min(tip, start + self.batch_blocks - 1)
        events: list[Event] = []
        blocks: list[Block] = []
        if start <= end:
            addresses = await self._addresses()
            blocks, transfers = await self.source.scan(start, end, addresses)
            blocks = self._chained(blocks, cursor.hash if cursor is not None else None)
            height = blocks[-1].height if blocks else start - 1
            # Deposits before the cursor: a watcher that dies between the two scans these blocks again
            # (reporting is idempotent); the other way round, it would resume past deposits never seen.
            for transfer in transfers:
                if transfer.block_height is not None and transfer.block_height <= height:
                    events.extend(await self._report(transfer, height - transfer.block_height + 1))
            if blocks:
                rows = [ChainBlock(chain=self.chain, height=b.height, hash=b.hash) for b in blocks]
                await ChainBlock.bulk_create(rows)
                cursor = await self.cursor()
        at = cursor.height if cursor is not None else None
        if at is not None:
            events.extend(await self._recount(at))
            await ChainBlock.filter(chain=self.chain, height__lte=at - KEEP_BLOCKS).delete()
            if at >= tip:
                events.extend(await self._drop_unplaced())
        if events and self.notify is not None:
            await self.notify(events)
        return Progress(tip, at, len(blocks), rolled_back, tuple(events))

    async def catch_up(self, *, max_steps: int = 1000) -> Progress:
        """Steps until the cursor is at the node's tip (tests, and an operator's one-off run); what
        they did together."""
        events: list[Event] = []
        scanned = rolled_back = 0
        for _ in range(max_steps):
            progress = await self.step()
            events.extend(progress.events)
            scanned, rolled_back = scanned + progress.scanned, rolled_back + progress.rolled_back
            if progress.lag <= 0:
                return Progress(progress.tip, progress.cursor, scanned, rolled_back, tuple(events))
        raise RuntimeError(f"{self.chain}: still {progress.lag} blocks behind after {max_steps} steps")

    async def status(self) -> dict[str, Any]:
        """The node's height, the cursor, the lag and the deposits still followed (raises the node's
        errors)."""
        tip = await self.source.tip()
        cursor = await self.cursor()
        pending = await self._live().count()
        height = cursor.height if cursor is not None else None
        return {"chain": self.chain, "node_height": tip, "cursor": height,
                "cursor_hash": cursor.hash if cursor else None,
                "lag": tip - height if height is not None else None, "pending_deposits": pending}  # fmt: skip

    # -- the parts of a step ------------------------------------------------------------------------

    async def _addresses(self) -> dict[str, str]:
        stored = await column(HdAddress.filter(family=self.source.family).values_list("address", flat=True))
        return {self.source.spelling(a): a for a in stored}

    async def _common_ancestor(self, recent: list[ChainBlock]) -> ChainBlock | None:
        """The highest stored block the node still has at its height (None: not one of them)."""
        on_chain = await self.source.hashes([b.height for b in recent])
        return next((b for b, h in zip(recent, on_chain, strict=True) if b.hash == h), None)

    async def _roll_back(self, ancestor: ChainBlock | None) -> int:
        """Forget the blocks above ``ancestor`` (all of them if None) and unplace their deposits that
        are not final. Returns how many blocks were undone."""
        above = ancestor.height if ancestor is not None else -1
        gone = await ChainBlock.filter(chain=self.chain, height__gt=above).delete()
        unplaced = await self._live().filter(block_height__gt=above, block_hash__isnull=False)\
            .update(block_hash=None, confirmations=0)  # fmt: skip
        log.warning("%s: reorg, rolled back %d blocks above %s; %d deposits lost their block", self.chain, gone,
                    "the start" if ancestor is None else f"{ancestor.height} {ancestor.hash}", unplaced)  # fmt: skip
        return gone

    def _chained(self, blocks: list[Block], parent: str | None) -> list[Block]:
        """The scanned blocks up to the first that does not follow its predecessor (the chain moved)."""
        kept: list[Block] = []
        for block in blocks:
            if parent is not None and block.parent != parent:
                log.info("%s: block %d does not follow %s: the chain moved, the next step sees it", self.chain,
                         block.height, parent)  # fmt: skip
                break
            kept.append(block)
            parent = block.hash
        return kept

    def _live(self) -> Any:
        """This chain's deposits that are still followed: not dropped, and under the final count."""
        return ChainDeposit.filter(chain=self.chain, status__in=LIVE, confirmations__lt=self.final)

    async def _report(self, transfer: Transfer, confirmations: int) -> list[Event]:
        try:
            outcome = await deposits.report(transfer, confirmations)
        except (LookupError, ValueError) as exc:  # not a deposit after all: logged, never a stuck watcher
            log.error("%s: transfer %s:%s not recorded: %s", self.chain, transfer.tx_hash, transfer.index, exc)
            return []
        if outcome.credited_now:
            return [Event("credited", outcome.deposit)]
        if outcome.deposit.status == DepositStatus.CONFIRMING:  # seen, or a block nearer its credit
            return [Event("confirming", outcome.deposit)]
        return []

    async def _recount(self, cursor: int) -> list[Event]:
        """Every placed deposit still followed, its confirmations counted to the cursor (crediting
        those that reach the first count)."""
        events: list[Event] = []
        followed = self._live().filter(block_hash__isnull=False, block_height__lte=cursor)
        for row in await followed.prefetch_related("currency"):
            confirmations = cursor - row.block_height + 1
            if confirmations != row.confirmations:
                transfer = Transfer(row.chain, row.tx_hash, row.output_index, row.address, row.amount,
                                    row.currency.code, row.memo, row.block_hash, row.block_height)  # fmt: skip
                events.extend(await self._report(transfer, confirmations))
        return events

    async def _drop_unplaced(self) -> list[Event]:
        """Deposits a reorg took whose transactions the chain has not mined again, now that the
        watcher is at the tip: dropped (a credit clawed back)."""
        events = []
        for row in await self._live().filter(block_hash__isnull=True, block_height__isnull=False):
            outcome = await deposits.drop(row)
            log.warning("%s: deposit %s:%s dropped by a reorg%s", self.chain, row.tx_hash, row.output_index,
                        ", its credit clawed back" if outcome.credited_now else "")  # fmt: skip
            events.append(Event("dropped", outcome.deposit))
        return events
