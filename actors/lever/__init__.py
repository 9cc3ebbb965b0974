"""Leveraged contracts: the pure core (``terms``: the money rules; ``triggers``: a pair's sorted trigger
book; ``book``: the positions and accounts of a shard and what a mark tick decides) and the
``LeverShard`` actor around it (``actor``)."""
