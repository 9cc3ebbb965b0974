"""Second contracts: MicroTimer shards (``actors.micro.actor``) and the pure settlement rule."""


def micro_name(index: int) -> str:
    """The MicroTimer shard ``index``'s actor name."""
    return f"micro:{index}"


def contract_id(sequence: int, uid: int, shards: int) -> int:
    """The id of a user's new contract, made of ``sequence`` (the allocator's next number, used once).

    A contract is held by the shard ``id % shards``; this id puts it in the user's shard (``uid %
    shards``, the wallets' rule), so all of a user's contracts share one MicroTimer: two shards never
    settle into the same micro account at once, and never wait on each other's row locks (with ids
    spread over the shards, a settling commit waited for the other shard's whole transaction on the
    accounts both touched). Unique because each sequence number gives one id; above every id handed
    out before from the same allocator, since ``sequence * shards >= sequence``."""
    return sequence * shards + uid % shards
