"""Start and stop everything ``exchange up`` runs: the deposit keys (store/chain), embedded Redis (when
no REDIS_URL), the schema and seed, Ray (local, a local cluster of EXCHANGE_RAY_LOCAL_NODES nodes, or the
cluster at RAY_ADDRESS), the engine, the Scheduler, the SMS sender, a chain watcher per configured chain node, one push
fanout per node, and the Serve app. The tests start the same stack once per session, on a local cluster
of two nodes. Its steps before Ray are in serve/prepare.py, the embedded Redis in
serve/embedded_redis.py, joining and reaping Ray in serve/ray_node.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from actors.remote import actor_class
from config.settings import Settings
from serve import ray_node
from serve.embedded_redis import EmbeddedRedis
from serve.ingress import ingress_environment
from serve.prepare import connections_needed, engine_facts, prepare_database, prepare_keys
from serve.ray_node import join_ray, ray_address_file

log = logging.getLogger(__name__)


@dataclass
class Stack:
    settings: Settings
    redis: EmbeddedRedis | None = None
    started_ray: bool = False
    cluster: Any = None  # the local multi-node cluster (ray.cluster_utils.Cluster), if the stack made one
    placement: Any = None
    fanouts: dict[str, Any] = field(default_factory=dict)
    chains: list[Any] = field(default_factory=list)  # the dev chains' processes (DevChainProcess)
    pairs: list[tuple[int, str]] = field(default_factory=list)
    actors: dict[str, Any] = field(default_factory=dict)
    # Called right after ray.init: it installs a C++ signal handler that aborts on SIGTERM, so a
    # caller that stops cleanly on SIGTERM (exchange up) re-installs its own handlers here.
    after_ray_init: Callable[[], None] | None = None

    def start(self) -> Settings:
        """Bring everything up; returns the settings the services run with (Redis address and, in
        development, the dev chains' URLs filled in)."""
        self.start_chains()
        self.start_storage()
        self.start_services()
        return self.settings

    def start_chains(self) -> Settings:
        """In development (``dev_chains_on``), the dev chains for each node without a URL: the dev EVM
        node, and litecoind regtest when it is installed, both mining every ``dev_block_seconds``.
        They start side by side; their URLs (and the dev USDT contract) go into the settings."""
        if not self.settings.dev_chains_on:
            return self.settings
        from store.chain_rpc.devnet.litecoin import litecoind
        from store.chain_rpc.devnet.process import dev_evm, dev_litecoin

        root, seconds = self.settings.dev_chains_dir, self.settings.dev_block_seconds
        evm = None if self.settings.evm_rpc_url else dev_evm(root / "evm", block_seconds=seconds)
        ltc = None
        if not self.settings.ltc_rpc_url:
            if litecoind() is None:
                log.info("litecoind is not installed: no LTC dev chain (Debian: apt-get install litecoind)")
            else:
                ltc = dev_litecoin(root / "ltc", block_seconds=seconds)
        started = [chain for chain in (evm, ltc) if chain is not None]
        for chain in started:
            chain.launch()
            self.chains.append(chain)
        update: dict[str, Any] = {}
        if evm is not None:
            info = evm.wait()
            update |= {"evm_rpc_url": info["url"]}
            update["erc20_contracts"] = {code: t["address"] for code, t in info["tokens"].items()}
            log.info("dev EVM chain at %s (USDT %s)", info["url"], info["tokens"]["USDT"]["address"])
        if ltc is not None:
            info = ltc.wait()
            update |= {"ltc_rpc_url": info["url"], "ltc_rpc_wallet": info["wallet"]}
            log.info("litecoind regtest at %s", info["url"].rsplit("@", 1)[-1])
        self.settings = self.settings.model_copy(update=update)
        return self.settings

    def start_storage(self) -> Settings:
        """The deposit keys checked (generated outside production on first start), embedded Redis when
        no REDIS_URL is set, then migrations and seed."""
        prepare_keys(self.settings)
        if self.settings.uses_embedded_redis:
            self.redis = EmbeddedRedis(self.settings.data_dir, persist=self.settings.env != "test")
            self.settings = self.settings.model_copy(update={"redis_url": self.redis.start()})
        counts = asyncio.run(prepare_database(self.settings))
        log.info("database ready (%s): %s", self.settings.db_url.split("://")[0], counts)
        self.pairs, room = asyncio.run(engine_facts(self.settings))
        needed = connections_needed(self.settings, len(self.pairs))
        if room is not None and needed > room:
            log.warning(
                "PostgreSQL allows %d connections and this stack may open up to %d (%d pairs and the other "
                "database processes, EXCHANGE_DB_POOL_MAX=%d each): raise max_connections or lower "
                "EXCHANGE_DB_POOL_MAX, or a busy moment will refuse queries",
                room, needed, len(self.pairs), self.settings.db_pool_max,
            )  # fmt: skip
        return self.settings

    def start_services(self) -> None:
        """A local Ray (or the cluster at RAY_ADDRESS), the engine, the push fanout, then the Serve app."""
        self._start_ray(self.settings)
        if self.after_ray_init is not None:
            self.after_ray_init()
        self._start_engine(self.settings)
        self._start_scheduler(self.settings)
        self._start_sms_sender(self.settings)
        self._start_watchers(self.settings)
        self._start_signer(self.settings)
        self._start_fanout(self.settings)
        # The API comes up last: once /api/ answers, push and the engine are already there.
        self._deploy(self.settings)

    def _start_ray(self, settings: Settings) -> None:
        import ray

        from actors.nodes import PAIR_RESOURCE

        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        if not settings.ray_address:  # a Ray this stack starts: its processes wake less when idle
            ray_node.idle_environment()
        ingress = ingress_environment(settings)
        quiet: dict[str, Any] = {"log_to_driver": settings.env == "development", "logging_level": logging.WARNING}
        node: dict[str, Any] = {
            "num_cpus": settings.ray_num_cpus,
            "object_store_memory": settings.ray_object_store_mb * 1024 * 1024,
            "resources": {PAIR_RESOURCE: settings.pair_slots},
        }
        if settings.ray_address:
            join_ray(settings.ray_address, log_to_driver=False, runtime_env={"env_vars": ingress} if ingress else None)
        elif settings.ray_local_nodes > 1:
            from ray.cluster_utils import Cluster

            self.cluster = Cluster(
                initialize_head=True,
                head_node_args={
                    **node,
                    "node_name": "node-1",
                    "include_dashboard": False,
                    "metrics_export_port": settings.metrics_port,
                },
            )
            for index in range(2, settings.ray_local_nodes + 1):
                self.cluster.add_node(**{**node, "num_cpus": 1}, node_name=f"node-{index}")
            ray.init(address=self.cluster.address, namespace="exchange", **quiet)
            self.started_ray = True
        else:
            # "local": never join a Ray another program started on this machine.
            ray.init(address="local", include_dashboard=False, namespace="exchange", _node_name="node-1",
                     _metrics_export_port=settings.metrics_port, **node, **quiet)  # fmt: skip
            self.started_ray = True
        address = ray.get_runtime_context().gcs_address
        ray_address_file(settings).write_text(address + "\n")
        log.info("ray at %s (%d nodes)", address, len([n for n in ray.nodes() if n["Alive"]]))

    def _deploy(self, settings: Settings) -> None:
        from ray import serve

        from serve.deployment import build_app, build_wallet_middle
        from serve.wallet_middle import ROUTE_PREFIX

        # On a cluster every node runs an HTTP proxy (a load balancer spreads over them); the nodes
        # of a local cluster share one host and port, so only the head's proxy serves.
        serve.start(
            proxy_location="HeadOnly" if self.cluster is not None else "EveryNode",
            http_options={"host": settings.http_host, "port": settings.http_port},
        )
        serve.run(build_wallet_middle(settings), name="wallet-middle", route_prefix=ROUTE_PREFIX)
        serve.run(build_app(settings), name="api", route_prefix="/")

    def _start_engine(self, settings: Settings) -> None:
        """Wallet shards (the stack holds their handles: their owner), then the pairs, each on its
        node, through the PairPlacement actor."""
        import ray

        from actors.names import PLACEMENT_NAME, wallet_name
        from actors.pair.placement import PairPlacement
        from actors.wallet.shard import WalletShard

        config = settings.model_dump(mode="json")
        for index in range(settings.wallet_shards):
            name = wallet_name(index)
            self.actors[name] = actor_class(WalletShard).options(name=name, get_if_exists=True).remote(index, config)
        self.placement = (
            actor_class(PairPlacement)
            .options(name=PLACEMENT_NAME, lifetime="detached", get_if_exists=True)
            .remote(config, self.pairs)
        )
        ray.get([a.start.remote() for a in self.actors.values()], timeout=180)
        placed = ray.get(self.placement.start.remote(), timeout=180)
        log.info("engine up: %d wallet shards, %d pairs on %s", settings.wallet_shards, len(self.pairs),
                 sorted({p["node"] for p in placed}))  # fmt: skip
        self._start_lever(config, settings.lever_shards)
        if settings.market_maker_on and self.pairs:
            from actors.maker.actor import MarketMaker
            from actors.names import MAKER_NAME

            self.actors[MAKER_NAME] = (
                actor_class(MarketMaker)
                .options(name=MAKER_NAME, get_if_exists=True)
                .remote(config, [pair_id for pair_id, _ in self.pairs])
            )
            ray.get(self.actors[MAKER_NAME].start.remote(), timeout=120)

    def _start_lever(self, config: dict[str, Any], shards: int) -> None:
        """The LeverShards and the MicroTimers (after the pairs: they follow the pairs' mark ticks); the
        stack owns them. Run again, it starts only those that are not running."""
        import ray

        from actors.lever.actor import LeverShard
        from actors.micro.actor import MicroTimer
        from actors.names import lever_name, micro_name

        started = []
        for cls, name_of, count in ((LeverShard, lever_name, shards), (MicroTimer, micro_name, config["micro_shards"])):
            for index in range(count):
                name = name_of(index)
                try:
                    running = ray.get_actor(name)
                except ValueError:  # none yet, or it was stopped: start one
                    running = None
                if running is not None and name in self.actors:
                    continue  # keep the first handle: a non-detached actor lives as long as its owner's handle
                self.actors[name] = running or actor_class(cls).options(name=name).remote(index, config)
                started.append(self.actors[name])
        ray.get([a.ping.remote() for a in started], timeout=180)

    def _start_scheduler(self, settings: Settings) -> None:
        """The Scheduler (calendar work: overnight fees ...); it runs what is owed from its constructor."""
        import ray

        from actors.names import SCHEDULER_NAME
        from actors.scheduler.actor import Scheduler

        config = settings.model_dump(mode="json")
        self.actors[SCHEDULER_NAME] = (
            actor_class(Scheduler).options(name=SCHEDULER_NAME, get_if_exists=True).remote(config)
        )
        ray.get(self.actors[SCHEDULER_NAME].status.remote(), timeout=120)

    def _start_sms_sender(self, settings: Settings) -> None:
        """The SmsSender: drains the SMS queue through the configured providers (store/sms/dispatch.py)."""
        import ray

        from actors.names import SMS_SENDER_NAME
        from actors.sms.sender import SmsSender

        config = settings.model_dump(mode="json")
        self.actors[SMS_SENDER_NAME] = (
            actor_class(SmsSender).options(name=SMS_SENDER_NAME, get_if_exists=True).remote(config)
        )
        ray.get(self.actors[SMS_SENDER_NAME].status.remote(), timeout=120)

    def _start_watchers(self, settings: Settings) -> None:
        """A ChainWatcher per chain whose node's URL is configured (store/chain/watch.py); each resumes
        from its stored cursor. The stack owns them, as it owns the Scheduler."""
        import ray

        from actors.chain.watcher import ChainWatcher
        from actors.names import watcher_name
        from config.chains import watched_chains

        config = settings.model_dump(mode="json")
        started = []
        for chain in watched_chains(settings):
            name = watcher_name(chain)
            self.actors[name] = actor_class(ChainWatcher).options(name=name, get_if_exists=True).remote(config, chain)
            started.append(self.actors[name])
        ray.get([w.status.remote() for w in started], timeout=120)
        if started:
            log.info("chain watchers: %s", ", ".join(watched_chains(settings)))

    def _start_signer(self, settings: Settings) -> None:
        """The Signer, which alone holds the hot wallet's keys and sends approved withdrawals
        (actors/chain/signer.py), when a chain node is configured; on the node offering
        ``signer_resource`` when the settings name one. The dev hot wallet is topped up first."""
        import ray

        from actors.chain.signer import Signer
        from actors.names import SIGNER_NAME
        from config.chains import sending_chains

        if not sending_chains(settings):
            return
        if self.chains and settings.evm_rpc_url:  # this stack's dev EVM chain: fill the hot wallets
            from store.chain.custody import MnemonicKeySource
            from store.chain_rpc.devnet import faucet

            asyncio.run(faucet.top_up_hot_wallets(settings, MnemonicKeySource.from_settings(settings)))

        options: dict[str, Any] = {"name": SIGNER_NAME, "get_if_exists": True}
        if settings.signer_resource:
            options["resources"] = {settings.signer_resource: 0.01}
        self.actors[SIGNER_NAME] = actor_class(Signer).options(**options).remote(settings.model_dump(mode="json"))
        ray.get(self.actors[SIGNER_NAME].status.remote(), timeout=120)

    def _start_fanout(self, settings: Settings) -> None:
        """One Fanout on every node (they share WS_PORT on a host: SO_REUSEPORT). Run again, it
        starts the fanouts of nodes that joined or whose fanout died, and forgets nodes that left."""
        import ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        from actors.names import fanout_name
        from actors.nodes import alive_nodes
        from serve.ws.fanout import Fanout

        config = settings.model_dump(mode="json")
        nodes = alive_nodes()
        for gone in self.fanouts.keys() - {node.label for node in nodes}:
            del self.fanouts[gone]  # its node left the cluster, and the fanout with it
        added = []
        for node in nodes:
            name = fanout_name(node.label)
            try:
                running = ray.get_actor(name)
            except ValueError:  # none yet, or it died: start one
                running = None
            if running is not None and node.label in self.fanouts:
                continue  # keep the first handle: the stack owns the actor through it
            # The stack keeps the handles: a non-detached actor lives as long as its owner holds a reference.
            self.fanouts[node.label] = running or actor_class(Fanout).options(
                name=name, scheduling_strategy=NodeAffinitySchedulingStrategy(node.id, soft=False)
            ).remote(config, [symbol for _, symbol in self.pairs])  # their public channels exist
            added.append(self.fanouts[node.label])
        ray.get([f.start.remote() for f in added], timeout=60)

    def cover_new_nodes(self) -> None:
        """Start a fanout on every node that joined since the start (``exchange up`` calls this
        every ``NODE_CHECK_S``); never raises: a failure is logged and tried again next time."""
        try:
            self._start_fanout(self.settings)
        except Exception:
            log.exception("could not start a fanout on every node; trying again later")

    def _local_nodes(self) -> list[Any]:
        if self.cluster is not None:
            return [n for n in [self.cluster.head_node, *self.cluster.worker_nodes] if n is not None]
        from ray._private import worker

        return [worker._global_node] if worker._global_node is not None else []

    def stop(self) -> None:
        import ray

        with contextlib.suppress(Exception):
            if ray.is_initialized():
                from ray import serve

                serve.shutdown()
        if self.placement is not None and not self.started_ray:  # on a cluster pairs outlive the driver
            with contextlib.suppress(Exception):
                ray.get(self.placement.stop.remote(), timeout=30)
                ray.kill(self.placement, no_restart=True)
        self.placement = None
        self.fanouts.clear()
        self.actors.clear()
        if ray.is_initialized():
            ray_processes = ray_node.ray_processes(self._local_nodes()) if self.started_ray else []
            ray.shutdown()
            if self.cluster is not None:
                self.cluster.shutdown()
                self.cluster = None
            ray_node.reap(ray_processes)
        ray_address_file(self.settings).unlink(missing_ok=True)
        if self.redis is not None:
            self.redis.stop()
            self.redis = None
        self.stop_chains()

    def stop_chains(self) -> None:
        """Stop the dev chains this stack started (and nothing else: Ray and storage stay as they are)."""
        for chain in reversed(self.chains):
            chain.stop()
        self.chains.clear()
