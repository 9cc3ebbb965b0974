"""Second contracts: MicroTimer shards (``actors.micro.actor``) and the pure settlement rule."""


def micro_name(index: int) -> str:
    """The MicroTimer shard ``index``'s actor name."""
    return f"micro:{index}"
