"""Second contracts: MicroTimer shards (``actors.micro.actor``) and the pure settlement rule."""
