"""Deposit addresses in the database (store/deposits.py): derived at the family's stored counter, one per
user and family, the same under concurrent first requests, never an index twice, refused on chains with
no adapter and when the configured xpub is not the one an address came from."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from config.settings import Settings
from store import deposits, users
from store.chain.custody import MnemonicKeySource
from store.chain.keys import DepositKeys, configured_xpubs, deposit_keys
from store.errors import DomainError, ErrorCode
from store.models import Currency, CurrencyProtocol, DepositAddress, HdAddress, HdCounter

# Seeded protocols: USDT on ERC20 (1) and TRC20 (2), BTC (3), ETH on ERC20 (4), LTC (5), XRP (6), ETC (9), TRX (10).
USDT_ERC20, USDT_TRC20, BTC, ETH, LTC, XRP, ETC, TRX = 1, 2, 3, 4, 5, 6, 9, 10


async def _user() -> int:
    account = f"hd-{uuid.uuid4().hex[:12]}@example.com"
    return (await users.create_user(kind="email", account=account, password_hash="x", area=None, parent=None)).id


async def _address(keys: DepositKeys, uid: int, protocol_id: int) -> str:
    return (await deposits.address_for(keys, uid, await CurrencyProtocol.get(id=protocol_id))).address


async def test_a_users_address_is_the_familys_child_at_its_stored_index(settings: Settings, db: None) -> None:
    keys = deposit_keys(settings)
    alice, bob = await _user(), await _user()
    usdt_erc20 = await _address(keys, alice, USDT_ERC20)
    row = await HdAddress.get(user_id=alice, family="EVM")
    assert usdt_erc20 == row.address == keys.account("EVM").address(row.index)
    assert row.key_id == keys.account("EVM").key_id
    # One EVM address space: ETH, USDT on ERC20 and ETC are the same address; TRON's tokens share TRON's.
    assert {await _address(keys, alice, p) for p in (ETH, ETC)} == {usdt_erc20}
    assert await _address(keys, alice, TRX) == await _address(keys, alice, USDT_TRC20)
    assert (await _address(keys, alice, LTC)).startswith("rltc1q")
    assert (await _address(keys, alice, BTC)).startswith("bcrt1q")
    # Stable, and bob's are his own.
    assert await _address(keys, alice, USDT_ERC20) == usdt_erc20
    assert await _address(keys, bob, USDT_ERC20) != usdt_erc20
    assert await HdAddress.filter(user_id=alice).count() == 4  # EVM, TRON, LTC, BTC


async def test_concurrent_first_requests_give_one_address_and_use_one_index(settings: Settings, db: None) -> None:
    keys = deposit_keys(settings)
    carol = await _user()
    before = (await HdCounter.get(family="EVM")).next_index if await HdCounter.exists(family="EVM") else 0
    usdt = await CurrencyProtocol.get(id=USDT_ERC20)
    eth = await CurrencyProtocol.get(id=ETH)
    found = await asyncio.gather(*(deposits.address_for(keys, carol, p) for p in [usdt, eth] * 6))
    assert len({a.address for a in found}) == 1
    assert await HdAddress.filter(user_id=carol, family="EVM").count() == 1
    assert await DepositAddress.filter(user_id=carol).count() == 2
    row = await HdAddress.get(user_id=carol, family="EVM")
    assert row.index == before and (await HdCounter.get(family="EVM")).next_index == before + 1


async def test_the_counter_is_stored_so_an_index_is_never_given_twice(settings: Settings, db: None) -> None:
    keys = deposit_keys(settings)
    dave, erin = await _user(), await _user()
    await _address(keys, dave, LTC)
    dave_row = await HdAddress.get(user_id=dave, family="LTC")
    # Even with dave's row gone (a restore, an operator's mistake), the next user gets the next index:
    # the counter is not recomputed from the rows, so dave's address is never handed to anyone else.
    await HdAddress.filter(id=dave_row.id).delete()
    # A process started afresh holds nothing but the xpubs: the index comes from the database.
    fresh = DepositKeys(settings.chain_network, {"LTC": configured_xpubs(settings)["LTC"]})
    erin_address = await _address(fresh, erin, LTC)
    erin_row = await HdAddress.get(user_id=erin, family="LTC")
    assert erin_row.index == dave_row.index + 1 and erin_address != dave_row.address
    assert (await HdCounter.get(family="LTC")).next_index == erin_row.index + 1


async def test_a_chain_with_no_adapter_is_refused_not_given_a_fake_address(settings: Settings, db: None) -> None:
    keys = deposit_keys(settings)
    frank = await _user()
    with pytest.raises(DomainError) as refused:
        await deposits.address_for(keys, frank, await CurrencyProtocol.get(id=XRP))
    assert refused.value.code == ErrorCode.CHAIN_NOT_SUPPORTED
    assert not await DepositAddress.filter(user_id=frank).exists()
    # The seed (and migration 0022) keep every currency without an adapter closed both ways.
    for code in ("ADA", "DOT", "FIL", "XRP", "EOS"):
        currency = await Currency.get(code=code)
        assert (currency.open_recharge, currency.open_draw) == (False, False), code


async def test_an_address_from_another_xpub_is_refused_not_replaced(settings: Settings, db: None) -> None:
    keys = deposit_keys(settings)
    grace = await _user()
    given = await _address(keys, grace, USDT_TRC20)
    other = MnemonicKeySource(" ".join(["zoo"] * 11 + ["wrong"])).account_xpubs(settings.chain_network)
    with pytest.raises(DomainError) as refused:
        await _address(DepositKeys(settings.chain_network, other), grace, USDT_TRC20)
    assert refused.value.code == ErrorCode.DEPOSIT_KEYS_UNAVAILABLE
    with pytest.raises(DomainError) as missing:  # a family with no xpub configured
        await _address(DepositKeys(settings.chain_network, {}), await _user(), BTC)
    assert missing.value.code == ErrorCode.DEPOSIT_KEYS_UNAVAILABLE
    assert await _address(keys, grace, USDT_TRC20) == given
