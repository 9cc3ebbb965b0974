"""The PairActor: one per trading pair, wrapping the pure order book and market-data cores."""
