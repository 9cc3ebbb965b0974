"""The chains beyond LTC and ERC20 (config/chains.py, store/chain/sources.py): each gets the source its
node speaks, with its own native coin, and TRON's deposits are followed through its node's
Ethereum-style JSON-RPC, which writes TRON's base58 addresses as 20-byte hex. The dev EVM node stands in
for a TRON node here (the same JSON-RPC calls), so a TRC20 transfer to a user's ``T…`` address, sent as
the EVM transfer to its 20 bytes, is a real transfer the watcher finds, records under the ``T…`` address
and credits."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

from bip_utils import Base58Encoder

from config.chains import ChainNode
from config.settings import Settings
from store import deposits, users
from store.chain.keys import deposit_keys
from store.chain.sources import (
    GAS_STATION_SETTING,
    EvmSource,
    UtxoSource,
    publish_gas_station,
    source_for,
    tron_hex,
)
from store.chain.watch import Watcher
from store.chain_rpc.devnet import faucet
from store.chain_rpc.devnet.clients import DevEvmNode
from store.models import Account, AccountType, ChainDeposit, Currency, CurrencyProtocol, DepositStatus, SiteSetting

UTXO_NODE = "http://u:p@127.0.0.1:18443"


def _base58(hex_address: str) -> str:
    """The TRON spelling of a 20-byte address: base58check of 0x41 and the bytes."""
    return Base58Encoder.CheckEncode(b"\x41" + bytes.fromhex(hex_address.removeprefix("0x")))


async def test_each_chain_gets_its_nodes_source_and_native_coin(settings: Settings) -> None:
    configured = settings.model_copy(
        update={
            "chain_nodes": {
                "BTC": ChainNode(url=UTXO_NODE, wallet="hot"),
                "DOGE": ChainNode(url=UTXO_NODE),
                "ETC": ChainNode(url="http://127.0.0.1:8545"),
                "BEP20": ChainNode(url="http://127.0.0.1:8546", tokens={"USDT": "0x" + "55" * 20}),
            },
            "tron_jsonrpc_url": "http://127.0.0.1:8090/jsonrpc",
            "trc20_contracts": {"USDT": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"},
        }
    )
    sources = {chain: source_for(configured, chain) for chain in ("BTC", "DOGE", "ETC", "BEP20", "TRC20")}
    try:
        btc, doge = sources["BTC"], sources["DOGE"]
        assert isinstance(btc, UtxoSource) and (btc.chain, btc.family, btc.currency) == ("BTC", "BTC", "BTC")
        assert isinstance(doge, UtxoSource) and (doge.family, doge.currency) == ("DOGE", "DOGE")
        etc, bep20, trc20 = sources["ETC"], sources["BEP20"], sources["TRC20"]
        assert isinstance(etc, EvmSource) and (etc.family, etc.native, etc.tokens) == ("EVM", "ETC", {})
        assert isinstance(bep20, EvmSource) and (bep20.native, bep20.tokens) == ("BNB", {"0x" + "55" * 20: "USDT"})
        assert isinstance(trc20, EvmSource) and (trc20.family, trc20.native, trc20.native_decimals) == (
            "TRON",
            "TRX",
            6,
        )
        # TRON's mainnet USDT as its node's JSON-RPC names it.
        assert trc20.tokens == {"0xa614f803b6fd780986a42c78ec9c7f77e6ded13c": "USDT"}
    finally:
        for source in sources.values():
            await source.node.aclose()


async def _user_address(settings: Settings, code: str) -> tuple[int, str]:
    user = await users.create_user(kind="email", account=f"tron-{uuid.uuid4().hex[:12]}@example.com",
                                   password_hash="x", area=None, parent=None)  # fmt: skip
    protocol = await CurrencyProtocol.get(chain_protocol="TRC20", currency__code=code)
    return user.id, (await deposits.address_for(deposit_keys(settings), user.id, protocol)).address


async def _change(uid: int, code: str) -> Decimal:
    currency = await Currency.get(code=code)
    account = await Account.get_or_none(user_id=uid, currency_id=currency.id, account_type=AccountType.CHANGE)
    return account.balance if account is not None else Decimal(0)


async def test_trc20_and_trx_deposits_through_the_nodes_json_rpc(
    settings: Settings, evm: DevEvmNode, evm_chain: dict[str, Any], db: None
) -> None:
    usdt = _base58(evm_chain["tokens"]["USDT"]["address"])
    tron = settings.model_copy(update={"tron_jsonrpc_url": evm_chain["url"], "trc20_contracts": {"USDT": usdt}})
    source = source_for(tron, "TRC20")
    assert isinstance(source, EvmSource)
    watcher = Watcher(source, final_confirmations=settings.withdraw_confirmations)
    try:
        alice, alice_t = await _user_address(settings, "USDT")
        bob, bob_t = await _user_address(settings, "TRX")
        assert alice_t.startswith("T") and tron_hex(alice_t) == tron_hex(alice_t).lower()
        await watcher.catch_up()
        usdt_tx = await faucet.send_evm(evm_chain, to=tron_hex(alice_t), amount=Decimal("42.5"), currency="USDT")
        # 7 TRX: 7,000,000 SUN, the node's value field in the chain's own unit (6 decimals, not 18).
        trx_tx = await faucet.send_evm(evm_chain, to=tron_hex(bob_t), amount=Decimal("7e-12"), currency="ETH")
        await evm.mine(settings.withdraw_confirmations)
        await watcher.catch_up()
        (to_alice,) = await ChainDeposit.filter(user_id=alice).prefetch_related("currency")
        assert (to_alice.chain, to_alice.tx_hash, to_alice.address, to_alice.currency.code, to_alice.amount) == (
            "TRC20", usdt_tx, alice_t, "USDT", Decimal("42.5"))  # fmt: skip
        (to_bob,) = await ChainDeposit.filter(user_id=bob).prefetch_related("currency")
        assert (to_bob.tx_hash, to_bob.address, to_bob.currency.code, to_bob.amount) == (trx_tx, bob_t, "TRX", 7)
        for row in (to_alice, to_bob):
            assert row.status == DepositStatus.CREDITED
            assert row.confirmations == settings.withdraw_confirmations
        assert (await _change(alice, "USDT"), await _change(bob, "TRX")) == (Decimal("42.5"), Decimal(7))
        # Counted again from one confirmation, nothing is credited twice.
        await ChainDeposit.filter(id__in=[to_alice.id, to_bob.id]).update(confirmations=1)
        await watcher.catch_up()
        assert (await _change(alice, "USDT"), await _change(bob, "TRX")) == (Decimal("42.5"), Decimal(7))
        # The gas station's TRX top-ups (store/chain/tron_sweeps.py), published in base58, are the
        # house's: a transfer from it is no deposit, though the node writes its sender in hex.
        await publish_gas_station("TRC20", _base58(evm_chain["faucet"]["address"]))
        await faucet.send_evm(evm_chain, to=tron_hex(bob_t), amount=Decimal("30e-12"), currency="ETH")
        await evm.mine()
        await watcher.catch_up()
        assert await ChainDeposit.filter(user_id=bob).count() == 1
    finally:
        await SiteSetting.filter(key=GAS_STATION_SETTING.format(chain="TRC20")).delete()
        await source.node.aclose()
