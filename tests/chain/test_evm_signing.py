"""The hot wallet's EVM transactions, signed through the KeySource (store/chain/evm_signing.py), on the
real dev EVM node: USDT and ether reach an outside address exactly, the id known before broadcast is
the chain's, the same bytes broadcast again move nothing twice, and a signature for another key or
an address with a broken checksum never leaves."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from eth_account import Account

from store.chain.custody import TEST_MNEMONIC, MnemonicKeySource, Signature
from store.chain.evm_signing import (
    SigningError,
    address_of,
    hot_path,
    sign_eip1559,
    to_base_units,
    transfer_call,
)
from store.chain_rpc.devnet import faucet
from store.chain_rpc.devnet.clients import DevEvmNode
from store.chain_rpc.jsonrpc import NodeRefused

KEYS = MnemonicKeySource(TEST_MNEMONIC)
OUTSIDE = Account.from_key("0x" + "c3" * 32).address  # a user's own wallet, outside the exchange


async def funded_hot_wallet(evm: DevEvmNode, info: dict[str, Any]) -> str:
    hot = address_of(KEYS, hot_path())
    await faucet.send_evm(info, to=hot, amount=Decimal("1"), currency="ETH")  # gas
    await faucet.send_evm(info, to=hot, amount=Decimal("500"), currency="USDT")
    await evm.mine()
    return hot


async def signed(evm: DevEvmNode, hot: str, call: dict[str, Any]) -> Any:
    fees = await evm.fee_data()
    tx = {"chainId": await evm.chain_id(), "nonce": await evm.nonce(hot), "maxFeePerGas": fees.max_fee,
          "maxPriorityFeePerGas": fees.max_priority_fee, **call}  # fmt: skip
    return sign_eip1559(KEYS, hot_path(), tx)


async def test_usdt_and_ether_reach_an_outside_address_exactly_once(evm: DevEvmNode, evm_chain: dict[str, Any]) -> None:
    hot = await funded_hot_wallet(evm, evm_chain)
    token = evm_chain["tokens"]["USDT"]["address"]
    before = await evm.token_balance(token, OUTSIDE)

    usdt = await signed(evm, hot, transfer_call(OUTSIDE.lower(), Decimal("12.345678"), token=token, decimals=6))
    assert (usdt.sender, Account.recover_transaction(usdt.raw)) == (hot, hot)
    assert await evm.send_raw_transaction(usdt.raw) == usdt.txid  # the id stored before broadcast is the chain's
    try:  # the same bytes again (a Signer restarted after its broadcast): the node has them already
        assert await evm.send_raw_transaction(usdt.raw) == usdt.txid
    except NodeRefused as refused:
        assert "known" in str(refused).lower() or "nonce" in str(refused).lower(), refused
    await evm.mine()
    receipt = await evm.receipt(usdt.txid)
    assert receipt is not None and receipt.succeeded
    with pytest.raises(NodeRefused):  # mined: the nonce is spent, the bytes can never count twice
        await evm.send_raw_transaction(usdt.raw)
    await evm.mine()
    assert await evm.token_balance(token, OUTSIDE) == before + 12_345_678

    ether_before = await evm.balance(OUTSIDE)
    eth = await signed(evm, hot, transfer_call(OUTSIDE, Decimal("0.25"), token=None, decimals=18))
    assert eth.nonce == usdt.nonce + 1
    assert await evm.send_raw_transaction(eth.raw) == eth.txid
    await evm.mine()
    assert await evm.balance(OUTSIDE) == ether_before + 25 * 10**16


class OtherKey:
    """A key source that answers for a key other than the one asked (a misconfigured KMS)."""

    def public_key(self, path: str) -> bytes:
        return KEYS.public_key(path)

    def sign_digest(self, path: str, digest: bytes) -> Signature:
        return KEYS.sign_digest(hot_path(7), digest)


def test_a_signature_of_another_key_never_leaves() -> None:
    tx = {"chainId": 1, "nonce": 0, "maxFeePerGas": 2, "maxPriorityFeePerGas": 1,
          **transfer_call(OUTSIDE, Decimal(1), token=None, decimals=18)}  # fmt: skip
    assert sign_eip1559(KEYS, hot_path(), tx).sender == address_of(KEYS, hot_path())
    with pytest.raises(SigningError):
        sign_eip1559(OtherKey(), hot_path(), tx)


def test_amounts_and_addresses_are_exact_or_refused() -> None:
    assert to_base_units(Decimal("12.345678"), 6) == 12_345_678
    for amount in ("0", "-1", "0.0000001"):
        with pytest.raises(ValueError):
            to_base_units(Decimal(amount), 6)
    broken = OUTSIDE[:-1] + ("a" if OUTSIDE[-1] != "a" else "b")  # a mixed-case address, one letter off
    for address in (
        broken if broken != broken.lower() else "0x" + "Ab" * 20,
        "0x1234",
        "0x" + "zz" * 20,
        "T" + "a" * 33,
    ):
        with pytest.raises(ValueError):
            transfer_call(address, Decimal(1), token=None, decimals=18)
    assert transfer_call(OUTSIDE.upper().replace("0X", "0x"), Decimal(1), token=None, decimals=18)["to"] == OUTSIDE
    assert address_of(KEYS, hot_path()) != address_of(KEYS, "m/44'/60'/0'/0/0")  # never a deposit address
