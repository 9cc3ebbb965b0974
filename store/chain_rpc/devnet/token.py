"""The dev chain's USDT: ``usdt.vy`` compiled by the ``vyper`` package and deployed from the faucet account.

Compiling takes about a second, so the compiler's output is cached in the data directory under the
source's hash (an edited contract compiles again, an unchanged one never).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from store.chain_rpc.devnet.evm_rpc import DevEvm

SOURCE = Path(__file__).with_name("usdt.vy")
DECIMALS = 6
SUPPLY = 10**9 * 10**DECIMALS  # a billion USDT, all held by the faucet account


def compiled(cache_dir: Path) -> dict[str, Any]:
    """``{"abi": [...], "bytecode": "0x..."}`` of the token, from the cache when the source is unchanged."""
    source = SOURCE.read_text()
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    cached = cache_dir / f"usdt-{digest}.json"
    if cached.exists():
        return json.loads(cached.read_text())
    import vyper  # only when the source changed: the import alone takes a while

    output = vyper.compile_code(source, output_formats=["abi", "bytecode"])
    result = {"abi": output["abi"], "bytecode": output["bytecode"]}
    cache_dir.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(".tmp")
    partial.write_text(json.dumps(result))
    partial.replace(cached)
    return result


def deploy(chain: DevEvm, *, owner: str, cache_dir: Path) -> str:
    """Deploy the token from ``owner`` (who receives the whole supply) and mine it; its address."""
    bytecode = compiled(cache_dir)["bytecode"]
    constructor_args = format(SUPPLY, "064x")
    tx_hash = chain.tester.send_transaction(
        {"from": owner, "data": bytecode + constructor_args, "gas": 3_000_000, "value": 0}
    )
    chain.mine()
    receipt = chain.tester.get_transaction_receipt(tx_hash)
    if receipt["status"] != 1 or not receipt["contract_address"]:
        raise RuntimeError(f"the USDT token did not deploy: {receipt}")
    return receipt["contract_address"].lower()
