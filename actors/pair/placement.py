"""PairPlacement: starts every pair's actor on its node, says where each runs, and moves one.

One per cluster, named ``pair-placement``. It and the pair actors it creates are detached: a
restart of the placement actor or of the driver that started it leaves trading alone, and a new
placement actor finds the running pairs by name. ``Stack.stop`` stops them explicitly.

Where a pair starts: its pin from ``exchange pairs move`` (the ``pair_pins`` table), else
EXCHANGE_PAIR_NODES, else wherever Ray finds a free ``pairs`` slot. Pins are soft (``actors.nodes``).

A move (``move``), with no accepted order lost and the pause kept to the handover itself:
1. start the pair's next generation (``pair_name(symbol, n + 1)``) on the target node as a warm
   standby, while the current actor trades on: Ray's creation of an actor (a second) is not paid
   inside the pause; the current actor starts keeping its tail (``keep_tail``) and then the standby
   reads the pair from the database (``preload``): the book's size is not paid inside the pause
   either. ``prepare`` does this step alone, ahead of a ``move`` to the same node;
2. mark the pair as moving in Redis (``PAIR_MOVING``) and ``pause`` the current actor: it refuses new
   commands with PAIR_MOVING (the engine sends them again), matches what it had taken (a commit still
   running goes with the handoff: the standby matches nothing before it has ended) and returns
   its tail (the orders and bars it committed since the standby began reading, and the little state
   the database does not hold exactly, ``actors.pair.tail``), which goes straight to the standby
   (``take_over``), which applies it and serves;
3. record the new generation in Redis (``PAIR_AT``, where the engine looks the pair up): the pause
   ends here, and is reported with the move;
4. check the new actor's book against the database (which it answers once the commit the old one
   paused with, if any, has ended), then mark the old actor as stopped by a move (``PAIR_MOVED``: a
   caller whose command meets it dead knows the command was never taken and sends it again) and
   kill it;
5. record the pin.
If the standby cannot start or take over, it is killed and the current actor resumes: the move
reports the failure and the pair never stopped trading for longer than the attempt.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import ray
from tortoise.exceptions import IntegrityError

from actors.names import PAIR_AT, PAIR_MOVED, PAIR_MOVING, pair_name
from actors.nodes import PAIR_RESOURCE, Node, alive_nodes, find_node, pinned_to
from actors.pair.actor import PairActor
from actors.pair.directory import generations
from actors.remote import actor_class
from actors.runtime import DbActor
from store.cache import connect_redis
from store.models import PairPin

log = logging.getLogger(__name__)
START_TIMEOUT_S = 120.0
INFO_TIMEOUT_S = 5.0
MARK_TTL_S = 3600


@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=0)
class PairPlacement(DbActor):
    def __init__(self, settings: dict[str, Any], pairs: list[tuple[int, str]]) -> None:
        super().__init__(settings)
        self._pairs = {symbol: pair_id for pair_id, symbol in pairs}
        self._move_lock = asyncio.Lock()
        self._redis = connect_redis(self._settings)
        self._generation: dict[str, int] = {}  # symbol -> its live actor's generation
        # symbol -> a loaded standby: (its node id, its generation, its handle, when it was started)
        self._standbys: dict[str, tuple[str, int, Any, float]] = {}

    async def start(self) -> list[dict[str, Any]]:
        """Create (or find) every pair's actor on its node and wait until all have loaded."""
        await self._ready()
        nodes = alive_nodes()
        slots = sum(n.pair_slots for n in nodes)
        if slots < len(self._pairs):
            raise RuntimeError(
                f"the cluster offers {slots} '{PAIR_RESOURCE}' slots and {len(self._pairs)} pairs need one each: "
                f"start nodes with --resources='{{\"{PAIR_RESOURCE}\": 64}}' (see ray-cluster.yaml)"
            )
        pins = await self._pins()
        handles = []
        for symbol in self._pairs:
            generation = await self._adopt(symbol)
            node_id = self._node_id(pins.get(symbol), nodes)
            handles.append(self._create(symbol, node_id, generation, get_if_exists=True))
        await asyncio.wait_for(asyncio.gather(*(h.start.remote() for h in handles)), START_TIMEOUT_S)
        return await self.pairs()

    async def _adopt(self, symbol: str) -> int:
        """The generation of the pair's live actor, found again (this actor restarted, or ``exchange up``
        joined a running cluster): the one Redis records if it runs, else the oldest running. A move
        cut short leaves a standby that never took over, or an old actor the new one replaced: the
        other generation is killed (after its PAIR_MOVED mark), and the one kept takes commands."""
        running = generations(symbol)
        recorded = await self._redis.get(PAIR_AT + symbol)
        live = int(recorded) if recorded is not None and int(recorded) in running else min(running, default=0)
        for other in running:
            if other != live:
                await self._retire(ray.get_actor(pair_name(symbol, other)))
        if live in running:
            with contextlib.suppress(Exception):
                await ray.get_actor(pair_name(symbol, live)).resume.remote()
        self._generation[symbol] = live
        await self._redis.set(PAIR_AT + symbol, live)
        return live

    async def _retire(self, actor: Any) -> None:
        """Kill a pair actor that is not the live one; a call that meets it dead is sent again."""
        await self._redis.set(PAIR_MOVED + actor._actor_id.hex(), 1, ex=MARK_TTL_S)
        ray.kill(actor, no_restart=True)

    async def symbols(self) -> list[str]:
        """The pairs that have an actor (``serve.prepare.engine_facts`` chose them at start)."""
        return list(self._pairs)

    async def pairs(self) -> list[dict[str, Any]]:
        """Each pair: its node, its pin, open orders, and whether it answers."""
        nodes = {n.id: n for n in alive_nodes()}
        pins = await self._pins()
        infos = await asyncio.gather(*(self._info(symbol) for symbol in self._pairs), return_exceptions=True)
        rows = []
        for (symbol, pair_id), info in zip(self._pairs.items(), infos, strict=True):
            row: dict[str, Any] = {"symbol": symbol, "pair_id": pair_id, "pin": pins.get(symbol)}
            if isinstance(info, BaseException):
                rows.append({**row, "node": None, "node_id": None, "pid": None, "open_orders": None, "state": "down"})
                continue
            node = nodes.get(info["node_id"])
            rows.append({
                **row,
                "node": node.label if node else info["node_id"][:8],
                "node_id": info["node_id"],
                "pid": info["pid"],
                "open_orders": info["open_orders"],
                "state": "paused" if info["paused"] else "up",
            })  # fmt: skip
        return rows

    async def move(self, symbol: str, node_ref: str) -> dict[str, Any]:
        """Move one pair's actor to the node ``node_ref`` names. Answers a report; ``error`` if it could not."""
        if symbol not in self._pairs:
            return {"symbol": symbol, "error": f"no pair {symbol!r} runs here; pairs: {', '.join(self._pairs)}"}
        nodes = alive_nodes()
        try:
            target = find_node(node_ref, nodes)
        except LookupError as exc:
            return {"symbol": symbol, "error": str(exc)}
        if target.pair_slots < 1:
            return {"symbol": symbol, "error": f"node {target.label} hosts no pairs (no '{PAIR_RESOURCE}' resource)"}
        async with self._move_lock:
            return await self._move(symbol, target, nodes)

    async def prepare(self, symbol: str, node_ref: str) -> dict[str, Any]:
        """Step 1 of a move alone: start the pair's next actor on ``node_ref`` and have it read the pair
        from the database while the pair trades on; the next ``move`` of the pair to that node
        takes it over (a move elsewhere retires it). Answers a report; ``error`` if it could not."""
        if symbol not in self._pairs:
            return {"symbol": symbol, "error": f"no pair {symbol!r} runs here; pairs: {', '.join(self._pairs)}"}
        try:
            target = find_node(node_ref, alive_nodes())
        except LookupError as exc:
            return {"symbol": symbol, "error": str(exc)}
        async with self._move_lock:
            old = await self._live(symbol)
            if (await old.info.remote())["node_id"] == target.id:
                return {"symbol": symbol, "prepared": False, "error": f"{symbol} already runs on {target.label}"}
            error = await self._standby(symbol, old, target)
            if error is not None:
                return {"symbol": symbol, "prepared": False, "error": error}
            return {"symbol": symbol, "prepared": True, "to": target.label}

    async def stop(self) -> int:
        """Kill every pair actor (``exchange up`` stopping on a cluster it joined); returns how many."""
        stopped = 0
        for symbol in self._pairs:
            for generation in generations(symbol):  # a move's standby too
                try:
                    ray.kill(ray.get_actor(pair_name(symbol, generation)), no_restart=True)
                    stopped += 1
                except ValueError:
                    pass  # gone meanwhile
            self._generation.pop(symbol, None)
            self._standbys.pop(symbol, None)
        return stopped

    # -- the move ---------------------------------------------------------------------------------

    async def _move(self, symbol: str, target: Node, nodes: list[Node]) -> dict[str, Any]:
        old = await self._live(symbol)
        before = await old.info.remote()
        source = next((n for n in nodes if n.id == before["node_id"]), None)
        report: dict[str, Any] = {
            "symbol": symbol,
            "from": source.label if source else before["node_id"][:8],
            "to": target.label,
            "open_orders": before["open_orders"],
        }
        if before["node_id"] == target.id:
            await self._save_pin(symbol, target, nodes)
            return {**report, "moved": False, "pause_ms": 0.0}
        error = await self._standby(symbol, old, target)
        if error is not None:
            return {**report, "moved": False, "error": error}
        _, generation, new, created = self._standbys.pop(symbol)
        await self._redis.set(PAIR_MOVING + symbol, old._actor_id.hex(), ex=MARK_TTL_S)
        began = time.perf_counter()
        try:
            snapshot = old.pause.remote()
            # Committed once it is ready: the snapshot itself goes from the old actor to the standby
            # without a stop here (placement never unpickles it).
            await asyncio.to_thread(ray.wait, [snapshot], fetch_local=False)
            drained = time.perf_counter()
            taken = await asyncio.wait_for(new.take_over.remote(snapshot), START_TIMEOUT_S)
        except Exception as exc:
            log.exception("pair %s: could not hand over to %s; it stays where it is", symbol, target.label)
            await self._retire(new)
            with contextlib.suppress(Exception):  # a pair that died meanwhile is restarted by Ray
                await old.resume.remote()
            await self._redis.delete(PAIR_MOVING + symbol)
            return {**report, "moved": False, "error": f"could not hand over to {target.label}: {exc}"}
        await self._redis.set(PAIR_AT + symbol, generation)
        resumed = time.perf_counter()
        self._generation[symbol] = generation
        await self._redis.delete(PAIR_MOVING + symbol)
        # Through the new actor's queue: it answers once it has matched what came meanwhile, which it
        # does only after the commit the old one paused with (if any) has ended and it has heard so
        # from it (``committed``): only then may the old actor go.
        check = await new.verify.remote()
        await self._retire(old)
        await self._save_pin(symbol, target, nodes)
        after = await new.info.remote()
        log.info("pair %s moved %s -> %s, paused %.1f ms", symbol, report["from"], target.label,
                 (resumed - began) * 1000)  # fmt: skip
        if not check["matches_database"]:
            log.error("pair %s after its move: the book does not match the database at orders %s",
                      symbol, check["differ"])  # fmt: skip
        return {
            **report,
            "moved": after["node_id"] == target.id,
            "pause_ms": round((resumed - began) * 1000, 1),
            "drain_ms": round((drained - began) * 1000, 1),
            "standby_ms": round((began - created) * 1000, 1),  # the standby's start and load, before the pause
            "tail_orders": taken["tail_orders"],  # orders committed after the standby's load, handed in the pause
            "in_flight": taken["in_flight"],  # the pause handed over a batch whose commit was running
            "open_orders_after": after["open_orders"],
            "matches_database": check["matches_database"],
            "differ": check["differ"],
        }

    async def _standby(self, symbol: str, old: Any, target: Node) -> str | None:
        """Have a loaded standby for the pair on ``target`` (``self._standbys``): the one ``prepare``
        left if it is there, else a new one. The live actor ``old`` keeps a tail from before the
        standby reads the database. Answers None, or why there is none (nothing is left running then:
        a standby that failed is killed and ``old`` keeps no tail)."""
        generation = self._generation[symbol] + 1
        prepared = self._standbys.pop(symbol, None)
        if prepared is not None:
            if prepared[0] == target.id:
                self._standbys[symbol] = prepared
                return None
            await self._retire(prepared[2])
            generation = prepared[1] + 1  # Ray may not have freed the retired one's name yet
        created = time.perf_counter()
        new = self._create(symbol, target.id, generation, standby=True)
        try:
            await asyncio.wait_for(new.standby.remote(), START_TIMEOUT_S)
            # The standby reads only once the old actor keeps a tail (the load point): ``preload`` waits
            # for the ticker ``keep_tail`` answers, which goes to the standby without a stop here.
            await asyncio.wait_for(new.preload.remote(old.keep_tail.remote()), START_TIMEOUT_S)
        except Exception as exc:
            await self._retire(new)
            with contextlib.suppress(Exception):
                await old.resume.remote()  # keeps no tail (it was not paused)
            return f"could not start on {target.label}: {exc}"
        self._standbys[symbol] = (target.id, generation, new, created)
        return None

    async def _live(self, symbol: str) -> Any:
        """The pair's live actor (found again after this actor restarted). ValueError if none runs."""
        generation = self._generation.get(symbol)
        if generation is None:
            generation = await self._adopt(symbol)
        return ray.get_actor(pair_name(symbol, generation))

    def _create(
        self, symbol: str, node_id: str | None, generation: int, *, standby: bool = False, get_if_exists: bool = False
    ) -> Any:
        return (
            actor_class(PairActor)
            .options(
                name=pair_name(symbol, generation),
                lifetime="detached",
                get_if_exists=get_if_exists,
                resources={PAIR_RESOURCE: 1},
                **pinned_to(node_id),
            )
            .remote(self._pairs[symbol], self._settings.model_dump(mode="json"), standby)
        )

    # -- pins -------------------------------------------------------------------------------------

    @staticmethod
    def _node_id(ref: str | None, nodes: list[Node]) -> str | None:
        if ref is None:
            return None
        try:
            return find_node(ref, nodes).id
        except LookupError as exc:
            log.warning("pair pinned to %r, which is not in the cluster: placed anywhere (%s)", ref, exc)
            return None

    async def _pins(self) -> dict[str, str]:
        """Symbol -> node: EXCHANGE_PAIR_NODES, overridden by the pins of `exchange pairs move`."""
        await self._ready()
        pins = {symbol: ref for symbol, ref in self._settings.pair_nodes.items() if symbol in self._pairs}
        symbols = {pair_id: symbol for symbol, pair_id in self._pairs.items()}
        for pin in await PairPin.filter(currency_match_id__in=list(symbols)):
            pins[symbols[pin.currency_match_id]] = pin.node
        return pins

    async def _save_pin(self, symbol: str, target: Node, nodes: list[Node]) -> None:
        # By name when the name is the node's alone (it outlives a node restart), else by node id.
        ref = target.name if sum(n.name == target.name for n in nodes) == 1 else target.id
        pair_id = self._pairs[symbol]
        # One statement each (no read-then-write transaction: on SQLite that upgrade fails at once
        # with "database is locked" while pairs write, where a plain write waits its turn).
        if not await PairPin.filter(currency_match_id=pair_id).update(node=ref):
            try:
                await PairPin.create(currency_match_id=pair_id, node=ref)
            except IntegrityError:  # another move pinned it meanwhile: ours is the later word
                await PairPin.filter(currency_match_id=pair_id).update(node=ref)

    async def _info(self, symbol: str) -> dict[str, Any]:
        return await asyncio.wait_for((await self._live(symbol)).info.remote(), INFO_TIMEOUT_S)
