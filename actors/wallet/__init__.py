"""User wallets: sharding rule, settlement arithmetic (pure) and the WalletShard actor."""
