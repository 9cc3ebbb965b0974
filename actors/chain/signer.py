"""The Signer actor (``chain-signer``): the one process that holds the hot wallet's keys and sends
approved withdrawals (store/chain/sends.py), one ``Dispatch`` per chain whose node is configured
(``sending_chains``: each UTXO and EVM chain with a node, and TRON when its node is set).

It loads the ``KeySource`` (store/chain/custody.py) from the key file or environment variable the
settings name, and signs only what the ledger locked and an operator (or the auto-approval rule)
approved; every signature is logged with its withdrawal and txid. It keeps nothing but the stored
sends, so a restarted Signer (``max_restarts=-1``) resumes where the last one stopped, broadcasting
stored bytes again rather than signing anew. On a cluster it is placed on the node offering the
``signer_resource`` custom resource when the settings name one (the machine that holds the key).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable
from typing import Any

import ray

from actors.runtime import DbActor
from config.chains import EVM_NATIVE, SWEPT_UTXO, TRON_CHAIN, sending_chains
from store.cache import connect_redis
from store.chain import push
from store.chain.custody import KeySource, MnemonicKeySource
from store.chain.keys import KeysUnavailable, deposit_keys
from store.chain.senders import EvmSender, TronSender, UtxoSender
from store.chain.sends import Dispatch
from store.chain.sweeps import EvmSweeper, Sweeper
from store.chain.tron_sweeps import TronSweeper
from store.chain.utxo_sweeps import UtxoSweeper
from store.chain_rpc.evm import EvmNode
from store.chain_rpc.jsonrpc import NodeError
from store.chain_rpc.tron import TronNode
from store.chain_rpc.utxo import UtxoNode

log = logging.getLogger(__name__)
MAX_BACKOFF_S = 60.0


def dispatches(settings: Any) -> tuple[list[Dispatch], list[Sweeper]]:
    """A Dispatch per chain the Signer sends on (``sending_chains``): an EVM chain's native coin and
    tokens, and TRON's TRX and TRC20s, signed by the KeySource; a UTXO chain's coin through its node's
    hot wallet. And the sweepers: every EVM chain's, TRON's, and the UTXO chains' in ``SWEPT_UTXO``."""
    found: list[Dispatch] = []
    sweepers: list[Sweeper] = []
    redis = connect_redis(settings)
    notify = functools.partial(push.notify_withdrawals, redis)
    final = settings.withdraw_confirmations
    keys = functools.cache(lambda: MnemonicKeySource.from_settings(settings))  # read once, if any chain signs
    for chain in sending_chains(settings):
        node = settings.nodes.get(chain)
        sender: Any
        if chain == TRON_CHAIN:
            sender = TronSender(TronNode(settings.tron_rpc_url), keys(), tokens=settings.trc20_contracts,
                                fee_limit=settings.tron_fee_limit_sun)  # fmt: skip
            sweepers.extend(_deposit_sweeper(settings, sender, keys))
        elif chain in EVM_NATIVE:
            sender = EvmSender(EvmNode(node.url), keys(), tokens=node.tokens, chain=chain, native=EVM_NATIVE[chain])
            sweepers.append(EvmSweeper(sender, keys(), minimums=settings.sweep_minimums, final=final))
        elif node.wallet:
            sender = UtxoSender(UtxoNode(node.url, wallet=node.wallet), chain=chain, currency=chain)
            sweepers.extend(_deposit_sweeper(settings, sender, keys))
        else:
            log.warning("signer: %s has no hot wallet (its node's wallet in settings): its withdrawals wait", chain)
            continue
        found.append(Dispatch(sender, final_confirmations=final, notify=notify))
    return found, sweepers


def _deposit_sweeper(settings: Any, sender: UtxoSender | TronSender, keys: Callable[[], KeySource]) -> list[Sweeper]:
    """The sweeper of a UTXO chain in ``SWEPT_UTXO`` or of TRON, which find each deposit address's key
    by the deposit xpub's index (none when the xpub cannot be read: its deposits wait)."""
    if sender.chain not in (*SWEPT_UTXO, TRON_CHAIN):
        log.warning("signer: %s deposits are not swept (its fork-id digest is not built): they stay on their "
                    "addresses", sender.chain)  # fmt: skip
        return []
    family = "TRON" if isinstance(sender, TronSender) else sender.chain
    try:
        account = deposit_keys(settings).account(family)
    except KeysUnavailable as exc:
        log.warning("signer: %s deposits are not swept: %s", sender.chain, exc)
        return []
    minimums, final = settings.sweep_minimums, settings.withdraw_confirmations
    if isinstance(sender, TronSender):
        return [TronSweeper(sender, keys(), account, minimums=minimums, final=final)]
    return [UtxoSweeper(sender, keys(), account, minimums=minimums, final=final)]


# Waits on its nodes and the database; reserves no CPU.
@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=-1)
class Signer(DbActor):
    def __init__(self, settings: dict[str, Any]) -> None:
        super().__init__(settings, "signer")
        self._poll_s = self._settings.chain_poll_seconds
        self._dispatches: list[Dispatch] = []
        self._sweepers: list[Sweeper] = []
        self._next_sweep = 0.0
        self._errors: dict[str, str] = {}
        self._failures = 0
        self._last_step: dict[str, Any] = {}
        self._swept: dict[str, Any] = {}
        # The loop starts here: Ray runs __init__ again when it restarts the actor.
        self._life.loop("steps", self._run)

    async def status(self) -> list[dict[str, Any]]:
        """Per chain: the hot wallet's balances, the withdrawals approved and not yet signed, the
        transactions not yet final (``exchange chain status``), and the loop's last error."""
        rows = []
        for dispatch in self._dispatches:
            answer: dict[str, Any] = {"chain": dispatch.chain, "error": self._errors.get(dispatch.chain, ""),
                                      "last_step": self._last_step.get(dispatch.chain),
                                      "last_sweep": self._swept.get(dispatch.chain),
                                      "sweep_error": self._errors.get(f"{dispatch.chain} sweep", "")}  # fmt: skip
            try:
                answer |= await dispatch.status()
            except NodeError as exc:
                answer["error"] = f"node: {exc}"
            rows.append(answer)
        return rows

    async def _run(self) -> None:
        """Start (tried again every ``poll_s`` while the database is not up yet, or the key cannot be
        read), then send and sweep forever."""
        await self._life.load(self._start, delays=(self._poll_s,))
        while True:
            failed = False
            for dispatch in self._dispatches:
                failed |= not await self._step(dispatch)
            if time.monotonic() >= self._next_sweep:
                self._next_sweep = time.monotonic() + self._settings.sweep_seconds
                for sweeper in self._sweepers:
                    failed |= not await self._sweep(sweeper)
            self._failures = self._failures + 1 if failed else 0
            await asyncio.sleep(min(self._poll_s * 2 ** min(self._failures, 10), MAX_BACKOFF_S))

    async def _start(self) -> None:
        await self._ready()
        self._dispatches, self._sweepers = dispatches(self._settings)

    async def _sweep(self, sweeper: Sweeper) -> bool:
        chain = sweeper.chain
        try:
            report = await sweeper.step()
            excess = await sweeper.excess(self._settings.hot_wallet_ceiling)
        except Exception as exc:  # a node, the database, or a bug: the next sweep tries again
            self._errors[f"{chain} sweep"] = f"{type(exc).__name__}: {exc}"
            log.warning("signer %s: sweep failed: %s", chain, exc, exc_info=not isinstance(exc, NodeError))
            return False
        self._errors[f"{chain} sweep"] = ""
        self._swept[chain] = {"at": time.time(), "swept": report.swept, "topped_up": report.topped_up,
                              "below_minimum": report.below_minimum, "excess": excess}  # fmt: skip
        if excess:
            log.warning("signer %s: the hot wallet holds %s above its ceiling: move it to the cold wallet", chain,
                        ", ".join(f"{amount} {code}" for code, amount in excess.items()))  # fmt: skip
        return True

    async def _step(self, dispatch: Dispatch) -> bool:
        try:
            report = await dispatch.step()
        except NodeError as exc:
            self._errors[dispatch.chain] = f"node: {exc}"
            log.warning("signer %s: node: %s", dispatch.chain, exc)
            return False
        except Exception as exc:  # the database, or a bug: logged with its trace, tried again
            self._errors[dispatch.chain] = f"{type(exc).__name__}: {exc}"
            log.exception("signer %s: step failed", dispatch.chain)
            return False
        self._errors[dispatch.chain] = ""
        self._last_step[dispatch.chain] = {"at": time.time(), "signed": len(report.signed),
                                           "broadcast": len(report.broadcast), "completed": len(report.completed),
                                           "failed": len(report.failed), "waiting": report.waiting}  # fmt: skip
        return True
