"""Development and test chains: an in-process EVM (eth-tester over py-evm) served over JSON-RPC with a
dev USDT token, litecoind in regtest, the launcher that runs each as a child process, and the faucet.
Nothing here runs in production (``exchange up`` starts them only in development)."""
