"""What a stack prepares before Ray starts, each step idempotent: the deposit keys (written on first
start outside production), the schema and seed, and the pairs that get an actor."""

from __future__ import annotations

from config.settings import Settings


async def prepare_database(settings: Settings) -> dict[str, int]:
    """Apply migrations, then load the seed (and, in development, the P2P demo merchants). All
    idempotent."""
    from serve.security import hash_password
    from store.db import close_db, init_db, migrate
    from store.p2p import demo
    from store.seed import seed

    await migrate(settings)
    await init_db(settings, "start")
    try:
        counts = await seed()
        if settings.is_development:
            counts["p2p_demo_ads"] = await demo.seed(await hash_password(demo.DEMO_PASSWORD))
        return counts
    finally:
        await close_db()


def prepare_keys(settings: Settings) -> None:
    """Outside production, write the development keys on first start; everywhere, parse every chain
    family's xpub, so a missing, private or malformed key stops the start instead of the first deposit.
    Raises ``KeysUnavailable``."""
    from store.chain import keys

    if settings.env != "production":
        from store.chain.custody import ensure_dev_keys  # writes the mnemonic: never in an API process

        ensure_dev_keys(settings)
    keys.load(settings, complete=True)


async def engine_facts(settings: Settings) -> tuple[list[tuple[int, str]], int | None]:
    """The pairs that get an actor, and the connections PostgreSQL lets ordinary users open
    (``max_connections`` less the reserved ones; None on SQLite), read in one opening of the ORM."""
    from tortoise import connections

    from store.db import close_db, init_db
    from store.models import CurrencyMatch

    await init_db(settings, "start")
    try:
        query = CurrencyMatch.filter(open_change=True).prefetch_related("base_currency", "quote_currency")
        if settings.pair_ids:
            query = query.filter(id__in=settings.pair_ids)
        pairs = [(p.id, f"{p.base_currency.code}/{p.quote_currency.code}") for p in await query.order_by("sort", "id")]
        if not settings.db_url.startswith("postgres://"):
            return pairs, None
        _, rows = await connections.get("default").execute_query(
            "SELECT current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int"
            " AS room"
        )
        return pairs, int(rows[0]["room"])
    finally:
        await close_db()


# Processes that open the database besides the pairs and the shards: the wallet-middle replica, the
# scheduler, the SMS sender, the signer, the market maker, the placement actor, a chain watcher or two
# and `exchange up` itself (one per node: the fanout).
OTHER_DB_PROCESSES = 8


def connections_needed(settings: Settings, pairs: int) -> int:
    """How many PostgreSQL connections the stack may hold at most: every database process's pool full."""
    processes = (
        pairs + settings.wallet_shards + settings.lever_shards + settings.micro_shards + settings.api_replicas
        + settings.ray_local_nodes + OTHER_DB_PROCESSES
    )  # fmt: skip
    return processes * settings.db_pool_max
