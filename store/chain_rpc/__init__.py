"""Clients for the chain nodes the exchange talks to: one JSON-RPC base (``jsonrpc``) with typed errors
(unreachable vs refused), Bitcoin Core's RPC for the UTXO chains (``utxo.UtxoNode``) and Ethereum's for
the EVM chains (``evm.EvmNode``). The chain watchers and the Signer use these and nothing else to
reach a node; ``devnet`` holds the development chains they are tested against.

Kept apart from ``store.chain`` (addresses and keys) so the two can grow separately; they may merge.
"""
