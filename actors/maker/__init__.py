"""The liquidity bot: a pure quoting core and the MarketMaker actor that trades through the engine."""
