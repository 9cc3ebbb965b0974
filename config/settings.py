"""The one checked settings object.

Every setting is read from the environment (prefix ``EXCHANGE_``; the infrastructure addresses
``DATABASE_URL``, ``REDIS_URL``, ``RAY_ADDRESS``, ``HTTP_PORT`` and ``WS_PORT`` are also read plain).
The README has a table of all of them; keep it in step with this file.
"""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from config.chains import SWEEP_MINIMUMS, ChainNode, check_chain_nodes, check_open_chains
from config.production import refuse_development_settings

ROOT = Path(__file__).resolve().parent.parent
DEV_SECRET = "dev-only-secret-change-me"
DEV_WALLET_SALT = "dev-only-wallet-salt"
# The chain families deposit addresses are derived for (store/chain/keys.py says how); one xpub each.
CHAIN_FAMILIES = ("BTC", "LTC", "DOGE", "BCH", "EVM", "TRON")


LOOPBACK = ("127.0.0.1", "localhost", "::1")
DIRECT_INGRESS = ("direct", "haproxy")  # the API replicas serve HTTP on ports of their own


def _env(name: str) -> AliasChoices:
    """Accept both ``EXCHANGE_<NAME>`` and the plain ``<NAME>``."""
    return AliasChoices(f"EXCHANGE_{name}", name)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="EXCHANGE_", extra="ignore", populate_by_name=True)

    env: Literal["development", "test", "production"] = "development"
    data_dir: Path = ROOT / "var"

    database_url: str | None = Field(default=None, validation_alias=_env("DATABASE_URL"))
    redis_url: str | None = Field(default=None, validation_alias=_env("REDIS_URL"))
    ray_address: str | None = Field(default=None, validation_alias=_env("RAY_ADDRESS"))
    http_host: str = Field(default="127.0.0.1", validation_alias=_env("HTTP_HOST"))
    http_port: int = Field(default=8000, ge=1, le=65535, validation_alias=_env("HTTP_PORT"))
    ws_port: int = Field(default=8001, ge=1, le=65535, validation_alias=_env("WS_PORT"))
    public_ws_url: str | None = None

    ray_num_cpus: int = Field(default=2, ge=1)
    ray_object_store_mb: int = Field(default=128, ge=64)
    # A local Ray of this many nodes on one machine (node-1 is the head): to try pair placement and
    # moves without a cluster. Ignored with RAY_ADDRESS.
    ray_local_nodes: int = Field(default=1, ge=1, le=8)
    # Pair actors each take one unit of the "pairs" resource; a local Ray offers this many per node.
    pair_slots: int = Field(default=1000, ge=1)
    # Where pairs start, by symbol: a node name, node id (prefix) or IP. `exchange pairs move` wins.
    pair_nodes: dict[str, str] = Field(default_factory=dict)
    # Prometheus metrics of the local Ray (Ray's, Serve's and the exchange's) on this port; none: Ray picks.
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    api_replicas: int = Field(default=1, ge=1)
    # Each process that opens the database (actor, replica, fanout) keeps its own pool of at most this
    # many PostgreSQL connections; one idle this long closes. PostgreSQL's max_connections must cover
    # every process's pool (`exchange up` warns when it does not).
    db_pool_max: int = Field(default=5, ge=1, le=100)
    db_idle_seconds: float = Field(default=30.0, gt=0, le=3600)
    wallet_shards: int = Field(default=2, ge=1, le=1024)
    # Group transactions of freezes and releases a wallet shard runs at once, over disjoint users (each
    # takes a connection of the shard's pool of 5). 1 on a small machine: on 2 shared cores, 3 at a time
    # made smaller groups and cost more CPU per order than the waiting they saved (docs/performance.md §1).
    wallet_hold_groups: int = Field(default=1, ge=1, le=4)
    # How often each wallet shard releases the freezes of orders that never reached their pair.
    reconcile_seconds: float = Field(default=15.0, gt=0, le=3600)
    pair_ids: list[int] = Field(default_factory=list)  # pairs that get an actor; empty: every open pair
    batch_window_ms: float = Field(default=2.0, ge=0, le=100)
    depth_levels: int = Field(default=20, ge=1, le=200)
    market_maker: bool | None = None  # default: on in development, off otherwise
    frontend_dist: Path = ROOT / "frontend" / "dist"

    secret_key: str = DEV_SECRET
    token_ttl_seconds: int = Field(default=7 * 24 * 3600, ge=60)
    code_ttl_seconds: int = Field(default=600, ge=60)
    code_resend_seconds: int = Field(default=60, ge=1)
    code_max_attempts: int = Field(default=5, ge=1)
    login_max_failures: int = Field(default=5, ge=1)
    login_lock_seconds: int = Field(default=900, ge=1)
    login_ip_max_failures: int = Field(default=20, ge=1)
    # Wrong verification codes per target and per client address within code_fail_window_seconds (then 429).
    code_target_max_failures: int = Field(default=15, ge=1)
    code_ip_max_failures: int = Field(default=50, ge=1)
    code_fail_window_seconds: int = Field(default=3600, ge=60)
    # Failed password resets (user/forget_password) per account and per client address within the window.
    reset_max_failures: int = Field(default=5, ge=1)
    reset_ip_max_failures: int = Field(default=20, ge=1)
    reset_window_seconds: int = Field(default=3600, ge=60)
    # Withdrawals wait this long after a contact is bound or the deal or login password set or changed.
    security_cooldown_hours: float = Field(default=24.0, ge=0, le=720)
    # Two-operator rules (docs/decisions.md "Operator controls over money"): a user's withdrawals worth
    # at least this much (USD) within 24 h need the approval of two different operators ...
    second_approval_usd: Decimal = Field(default=Decimal(10_000), ge=0)
    # ... and so does an operator's manual credit worth more than this. Both are ceilings: the console
    # may lower them (site settings of the same names), never raise them.
    credit_second_approval_usd: Decimal = Field(default=Decimal(1_000), ge=0)
    # A user's withdrawals worth less than this (USD) in 24 h are approved with no operator and sent at
    # once (0 turns it off); a ceiling like the two above.
    auto_approve_usd: Decimal = Field(default=Decimal(1_000), ge=0)
    invite_code_required: bool = False

    smtp_host: str | None = None
    smtp_port: int = 587
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_from: str = "no-reply@exchange.local"

    # SMS (docs/decisions.md "Codes that reach phones"): the providers a phone code is offered to, in
    # order (the first is the primary, the others its fallbacks): "smpp" (an SMSC over SMPP 3.4), "http"
    # (a Twilio-shaped HTTP gateway) or "log" (development only: the text goes to the log). Default:
    # ["log"] outside production; production must name its providers and refuses "log".
    sms_providers: list[Literal["smpp", "http", "log"]] | None = None
    sms_smpp_host: str | None = None
    sms_smpp_port: int = Field(default=2775, ge=1, le=65535)
    sms_smpp_system_id: str = ""
    sms_smpp_password: str = ""
    sms_smpp_system_type: str = ""
    # The sender: digits are sent as an international number (TON 1), anything else as an
    # alphanumeric sender id (TON 5, at most 11 characters by GSM 03.38).
    sms_smpp_source: str = "Exchange"
    sms_http_url: str = "https://api.twilio.com"
    sms_http_account_sid: str = ""
    sms_http_auth_token: str = ""
    sms_http_from: str = ""  # a number of the account (E.164) or an alphanumeric sender id
    sms_timeout_seconds: float = Field(default=10.0, gt=0, le=120)
    # A message is offered to each provider in turn; a full round that fails waits
    # sms_retry_seconds x 2^(rounds - 1) (at most 5 minutes) and starts again, up to sms_max_rounds.
    # A code older than its lifetime (code_ttl_seconds) is not sent any more: it could not be used.
    sms_max_rounds: int = Field(default=4, ge=1, le=20)
    sms_retry_seconds: float = Field(default=2.0, gt=0, le=300)
    # How often the sender reads delivery receipts (the SMPP receiver bind; the HTTP provider asks once
    # per sent message and pass).
    sms_receipt_poll_seconds: float = Field(default=10.0, ge=0, le=3600)
    # The global ceiling of codes sent per minute to one country (SMS pumping); the console and
    # `exchange outbox ceiling` set one per country (0 closes a country).
    sms_country_per_minute: int = Field(default=100, ge=0, le=1_000_000)

    # Deposit addresses (docs/decisions.md "Key custody and addresses"): the account-level extended public
    # key of each chain family (BTC, LTC, DOGE, BCH, EVM, TRON), from EXCHANGE_XPUBS (JSON, wins) and the
    # JSON file EXCHANGE_XPUB_FILE (outside production: <data_dir>/keys/xpubs.json, written on first start).
    # Public keys only: what serves HTTP can hand out addresses, never spend from them.
    xpubs: dict[str, str] = Field(default_factory=dict)
    xpub_file: Path | None = None
    # Where the Signer alone reads the hot wallet's BIP39 mnemonic: a file (mode 0600) or the environment
    # variable named here. Only the location is a setting, so the API's settings never carry the secret.
    # Outside production the file defaults to <data_dir>/keys/mnemonic (generated on first start).
    signer_mnemonic_file: Path | None = None
    signer_mnemonic_env: str | None = None
    # On a cluster, the Signer is placed on the node offering this Ray custom resource (the machine that
    # holds the key); unset, anywhere.
    signer_resource: str | None = None
    # Sweeps (store/chain/sweeps.py, utxo_sweeps.py): a deposit address's balance of a currency (on a UTXO
    # chain: all its final deposits' outputs together) at or above its minimum
    # moves to the hot wallet, every sweep_seconds; the hot wallet's balance above its ceiling per
    # currency is reported as due to the cold wallet (none set: no ceiling).
    sweep_minimums: dict[str, Decimal] = Field(default_factory=lambda: dict(SWEEP_MINIMUMS))
    sweep_seconds: float = Field(default=60.0, gt=0, le=86_400)
    hot_wallet_ceiling: dict[str, Decimal] = Field(default_factory=dict)

    # Password hashing (argon2id): "standard" is argon2-cffi's RFC 9106 low-memory profile (3 passes over
    # 64 MiB, 4 lanes; ~0.1 s a hash here), "minimal" its smallest cost, for throwaway users: a test
    # session registers thousands, and at the standard cost their hashing took minutes of two cores.
    # Default: minimal under EXCHANGE_ENV=test, standard elsewhere; production refuses minimal.
    password_hash_cost: Literal["standard", "minimal"] | None = None

    wallet_middle_salt: str = DEV_WALLET_SALT
    wallet_middle_max_skew_seconds: int = Field(default=300, ge=10, le=86400)
    withdraw_confirmations: int = Field(default=6, ge=1, le=1000)
    # Live prices (docs/decisions.md "Live prices"): a pair publishes its mark at most this often, and
    # a mark whose pair has not refreshed it for mark_stale_seconds is stale (convert refuses it).
    mark_interval_ms: int = Field(default=100, ge=10, le=10_000)
    mark_stale_seconds: float = Field(default=10.0, gt=0, le=3600)
    # The published mark is the time-weighted median of the raw mark over this window (docs/decisions.md
    # "A mark no single order can move"): a sustained move shows after half of it, a shorter blip never.
    # At most half the staleness limit, so a mark reported fresh never shows prices older than that.
    mark_window_ms: int = Field(default=3000, ge=0, le=60_000)
    # A last price older than this no longer counts where the book fills the impact notional on both
    # sides (the mark is then the middle of the impact prices); a thin side still takes it.
    mark_last_seconds: float = Field(default=60.0, gt=0, le=86_400)
    convert_spread: Decimal = Field(default=Decimal("0.005"), ge=0, lt=1)
    # Leveraged contracts: LeverShard actors (a user's lever account lives in shard ``uid % n``), and the
    # risk rate (percent) at or below which a lever account is liquidated.
    lever_shards: int = Field(default=2, ge=1, le=1024)
    lever_liquidation_level: Decimal = Field(default=Decimal(50), gt=0, lt=100)
    # Second contracts: MicroTimer actors (a contract lives in shard ``id % n``).
    micro_shards: int = Field(default=2, ge=1, le=1024)
    # Request bodies are capped at the edge before they are read (serve/body_limit.py): JSON and form
    # bodies at request_max_bytes, the image upload at upload_max_bytes (plus its multipart framing); 413 beyond.
    request_max_bytes: int = Field(default=1024 * 1024, ge=16 * 1024, le=100 * 1024 * 1024)
    upload_max_bytes: int = Field(default=5 * 1024 * 1024, ge=1024, le=100 * 1024 * 1024)
    # Uploads per user per UTC day: how many images and how many bytes in all.
    upload_daily_count: int = Field(default=30, ge=1, le=10_000)
    upload_daily_bytes: int = Field(default=25 * 1024 * 1024, ge=1024, le=10 * 1024 * 1024 * 1024)
    # Push (/ws): subscriptions per connection, the unsent bytes a slow reader may leave queued before
    # it is disconnected, and how often each logged-in connection's session is checked again.
    ws_max_subscriptions: int = Field(default=50, ge=1, le=10_000)
    ws_max_buffer_bytes: int = Field(default=1024 * 1024, ge=16 * 1024, le=256 * 1024 * 1024)
    ws_session_check_seconds: float = Field(default=30.0, gt=0, le=3600)
    # Orders and cancels over /ws: each connection's rate (a second) and the burst it may send at once.
    ws_order_rate: float = Field(default=500.0, gt=0, le=1_000_000)
    ws_order_burst: int = Field(default=1000, ge=1, le=1_000_000)
    # Idempotency keys (docs/decisions.md "The idempotency rule"): how long a key's first answer is kept,
    # how long a repeat waits for a first request still in progress before answering 409, and how long
    # an attempt holds its key before a repeat may take it over (past any actor's answer deadline).
    idempotency_ttl_seconds: int = Field(default=24 * 3600, ge=60, le=30 * 24 * 3600)
    idempotency_wait_seconds: float = Field(default=5.0, ge=0, le=60)
    idempotency_lease_seconds: float = Field(default=90.0, ge=30, le=3600)
    # microtrade/proof (public): proofs a minute per client address, and how long (and how many) settled
    # contracts' proofs are kept in Redis (a 300 s contract's is up to ~0.6 MB: 3,000 ticks of ~200 bytes).
    micro_proof_rate: int = Field(default=60, ge=1, le=100_000)
    micro_proof_cache_seconds: int = Field(default=600, ge=1, le=30 * 24 * 3600)
    micro_proof_cache_entries: int = Field(default=1000, ge=1, le=1_000_000)
    # Orders and cancels of one connection waiting for their answer; one more is refused at once ("slow down").
    ws_order_in_flight: int = Field(default=64, ge=1, le=100_000)
    # How HTTP reaches the API (issue 15; serve/ingress.py INGRESS_ENV): "proxy" is Serve's ProxyActor
    # on http_port; "throughput" is Serve's throughput-optimised mode behind the same proxies; "direct"
    # adds a port of its own to each API replica; "haproxy" puts HAProxy on http_port in front of those
    # ports. Serve reaches a replica's port at its node's IP: those two need a non-loopback http_host.
    serve_ingress: Literal["proxy", "throughput", "direct", "haproxy"] = "proxy"
    # Chain nodes (docs/decisions.md "Dev chains and node clients"): each node's JSON-RPC URL; a Bitcoin
    # Core-style one carries user:password and names the node wallet the exchange uses. ERC20 contracts
    # by currency code. Production points these at real nodes; in development, with none set, `exchange
    # up` starts the dev chains and fills them in.
    evm_rpc_url: str | None = None
    ltc_rpc_url: str | None = None
    ltc_rpc_wallet: str | None = None
    erc20_contracts: dict[str, str] = Field(default_factory=dict)
    # TRON (docs/decisions.md "TRON withdrawals"): a full node's HTTP API (its /wallet/* endpoints), the
    # TRC20 contracts by currency code (base58 T…), and the most a TRC20 transfer may burn for its
    # energy, in SUN (1 TRX = 1,000,000 SUN; what it does not use is not paid; a transfer that needs
    # more fails on the chain with OUT_OF_ENERGY and its withdrawal is refunded). With the URL set the
    # Signer sends TRX and TRC20 withdrawals.
    tron_rpc_url: str | None = None
    trc20_contracts: dict[str, str] = Field(default_factory=dict)
    tron_fee_limit_sun: int = Field(default=50_000_000, gt=0, le=15_000_000_000)
    # The same TRON node's Ethereum-style JSON-RPC (its /jsonrpc): set, a watcher follows TRX and those TRC20s.
    tron_jsonrpc_url: str | None = None
    # The other chains' nodes by chain (config/chains.py ChainNode): {"BTC": {"url": …, "wallet": "hot"},
    # "BEP20": {"url": …, "tokens": {"USDT": "0x…"}}}. The chains deposit addresses are given on and
    # withdrawals taken on (docs/decisions.md "Chains a deployment follows"); unset: those followed here.
    chain_nodes: dict[str, ChainNode] = Field(default_factory=dict)
    deposit_chains: list[str] | None = None
    withdraw_chains: list[str] | None = None
    # A chain watcher asks its node for new blocks this often (store/chain/watch.py; at once while behind).
    chain_poll_seconds: float = Field(default=3.0, gt=0, le=600)
    # Whether `exchange up` starts the dev chains for the nodes without a URL: the dev EVM node always,
    # litecoind regtest when it is installed. Default: on in development; never in production.
    dev_chains: bool | None = None
    dev_block_seconds: float = Field(default=3.0, gt=0, le=600)  # a dev chain mines a block this often

    @field_validator("data_dir", "frontend_dist", "xpub_file", "signer_mnemonic_file")
    @classmethod
    def _absolute(cls, path: Path | None) -> Path | None:
        """A relative path means the caller's directory, whatever directory a child process (the
        embedded Redis, a Ray worker) later runs in."""
        return None if path is None else path.expanduser().resolve()

    @field_validator("chain_nodes")
    @classmethod
    def _known_node_chains(cls, nodes: dict[str, ChainNode]) -> dict[str, ChainNode]:
        return check_chain_nodes(nodes)

    @field_validator("deposit_chains", "withdraw_chains")
    @classmethod
    def _known_open_chains(cls, chains: list[str] | None, info: ValidationInfo) -> list[str] | None:
        return check_open_chains(chains, f"EXCHANGE_{(info.field_name or '').upper()}")

    @model_validator(mode="after")
    def _one_node_per_chain(self) -> Settings:
        for chain, url in (("LTC", self.ltc_rpc_url), ("ERC20", self.evm_rpc_url)):
            if url and chain in self.chain_nodes:
                raise ValueError(f"the {chain} node is set twice: in EXCHANGE_CHAIN_NODES and EXCHANGE_{chain}_RPC_URL")
        return self

    @field_validator("xpubs")
    @classmethod
    def _known_families(cls, xpubs: dict[str, str]) -> dict[str, str]:
        unknown = sorted(set(xpubs) - set(CHAIN_FAMILIES))
        if unknown:
            raise ValueError(f"EXCHANGE_XPUBS names no chain family {unknown}; the families are {list(CHAIN_FAMILIES)}")
        return xpubs

    @model_validator(mode="after")
    def _ready_for_production(self) -> Settings:
        if self.env == "production":
            refuse_development_settings(self)
        return self

    @model_validator(mode="after")
    def _mark_window_within_staleness(self) -> Settings:
        if self.mark_window_ms * 2 > self.mark_stale_seconds * 1000:
            raise ValueError(
                f"EXCHANGE_MARK_WINDOW_MS ({self.mark_window_ms}) must be at most half of "
                f"EXCHANGE_MARK_STALE_SECONDS ({self.mark_stale_seconds} s): a fresh mark must not show older prices"
            )
        return self

    @model_validator(mode="after")
    def _direct_ingress_needs_a_reachable_host(self) -> Settings:
        if self.serve_ingress in DIRECT_INGRESS and self.http_host in LOOPBACK:
            raise ValueError(
                f"EXCHANGE_SERVE_INGRESS={self.serve_ingress} needs HTTP_HOST on the node's own interface "
                "(0.0.0.0 or the node's IP): Serve reaches each API replica's own port at the node's IP"
            )
        return self

    @model_validator(mode="after")
    def _sms_providers_configured(self) -> Settings:
        for name, needed in (("smpp", self.sms_smpp_host), ("http", self.sms_http_account_sid and self.sms_http_from)):
            if name in (self.sms_providers or []) and not needed:
                raise ValueError(f"EXCHANGE_SMS_PROVIDERS names {name}: set its EXCHANGE_SMS_{name.upper()}_* settings")
        return self

    @property
    def is_development(self) -> bool:
        return self.env != "production"

    @property
    def chain_network(self) -> Literal["mainnet", "regtest"]:
        """Which encodings deposit addresses use: mainnet in production, the regtest ones elsewhere."""
        return "mainnet" if self.env == "production" else "regtest"

    @property
    def xpub_path(self) -> Path | None:
        """The xpub file the API reads (none in production unless configured)."""
        if self.xpub_file is not None or self.env == "production":
            return self.xpub_file
        return self.data_dir / "keys" / "xpubs.json"

    @property
    def signer_mnemonic_path(self) -> Path | None:
        """The mnemonic file only the Signer (and, outside production, the key generator) reads."""
        if self.signer_mnemonic_file is not None or self.env == "production" or self.signer_mnemonic_env:
            return self.signer_mnemonic_file
        return self.data_dir / "keys" / "mnemonic"

    @property
    def market_maker_on(self) -> bool:
        return self.market_maker if self.market_maker is not None else self.env == "development"

    @property
    def password_hash_profile(self) -> Literal["standard", "minimal"]:
        return self.password_hash_cost or ("minimal" if self.env == "test" else "standard")

    @property
    def sms_chain(self) -> list[str]:
        """The SMS providers in the order they are tried (``["log"]`` outside production by default)."""
        return list(self.sms_providers or ["log"])

    @property
    def nodes(self) -> dict[str, ChainNode]:
        """Every UTXO and EVM chain's node: EXCHANGE_CHAIN_NODES with the LTC and ERC20 (EVM) URLs."""
        nodes = dict(self.chain_nodes)
        if self.ltc_rpc_url:
            nodes["LTC"] = ChainNode(url=self.ltc_rpc_url, wallet=self.ltc_rpc_wallet)
        if self.evm_rpc_url:
            nodes["ERC20"] = ChainNode(url=self.evm_rpc_url, tokens=self.erc20_contracts)
        return nodes

    @property
    def dev_chains_on(self) -> bool:
        return self.dev_chains if self.dev_chains is not None else self.env == "development"

    @property
    def dev_chains_dir(self) -> Path:
        """Where the dev chains keep their data and the info files the faucet reads."""
        return self.data_dir / "chains"

    @property
    def db_url(self) -> str:
        """The database URL in the form tortoise expects (embedded SQLite when none is set)."""
        # busy_timeout: wait for the writer lock instead of failing at once (many actors share the file)
        url = self.database_url or f"sqlite://{self.data_dir / 'exchange.sqlite3'}?busy_timeout=10000"
        if url.startswith("postgresql://"):
            url = "postgres://" + url.removeprefix("postgresql://")
        return url

    @property
    def uses_embedded_redis(self) -> bool:
        return not self.redis_url

    @property
    def embedded_redis_socket(self) -> Path:
        return self.data_dir / "redis.sock"


@lru_cache
def get_settings() -> Settings:
    return Settings()
