"""Deposits and withdrawals are open only on the chains a deployment follows (docs/decisions.md "Chains a
deployment follows"): by default a deposit address is given only on a chain a watcher reads here, and
a withdrawal is taken only on a chain the Signer sends on here. The session's stack opens every chain
(tests/conftest.py), so these run the wallet and withdrawal routes in-process under other settings,
against the session's database, Redis and users."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
from fastapi import APIRouter, FastAPI

from config.chains import ChainNode, deposit_chains, sending_chains, watched_chains, withdraw_chains
from config.settings import Settings
from serve.api.deps import Services
from serve.api.routes import draw, wallet
from serve.errors import install_error_handlers
from store.cache import connect_redis
from store.models import Currency
from tests.utils.users import error, member, ok
from tests.utils.wallets import BTC, USDT

LTC_NODE = "http://u:p@127.0.0.1:19443"
EVM_NODE = "http://127.0.0.1:8545"
TRON = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"
ERC20_USDT, TRC20_USDT, ETC_ETC = 1, 2, 9  # currency protocol ids (config/seed/currencies.toml)

App = Callable[..., Any]


@pytest.fixture
async def routes(settings: Settings, db: None) -> AsyncIterator[App]:
    """``routes(**settings)``: an httpx client of the wallet and withdrawal routes under the session's
    settings changed by those."""
    redis = connect_redis(settings)
    clients: list[httpx.AsyncClient] = []

    def build(**update: Any) -> httpx.AsyncClient:
        api = FastAPI()
        install_error_handlers(api)
        router = APIRouter()
        router.include_router(wallet.router)
        router.include_router(draw.router)
        api.include_router(router, prefix="/api")
        changed = settings.model_copy(update={"deposit_chains": None, "withdraw_chains": None, **update})
        api.state.services = Services.build(changed, redis)
        api.state.engine = None  # a suspended chain is refused before the wallet shard is asked
        client = httpx.AsyncClient(transport=httpx.ASGITransport(app=api), base_url="http://test/api/")
        clients.append(client)
        return client

    yield build
    for client in clients:
        await client.aclose()
    await redis.aclose()


def test_by_default_the_open_chains_are_the_followed_ones() -> None:
    nothing = Settings(env="test")
    assert deposit_chains(nothing) == withdraw_chains(nothing) == []
    both = Settings(env="test", ltc_rpc_url=LTC_NODE, ltc_rpc_wallet="hot", evm_rpc_url=EVM_NODE)
    assert deposit_chains(both) == withdraw_chains(both) == ["LTC", "ERC20"]
    more = Settings(
        env="test",
        chain_nodes={"BTC": {"url": LTC_NODE, "wallet": "hot"}, "ETC": {"url": EVM_NODE}, "BEP20": {"url": EVM_NODE}},
        tron_jsonrpc_url="http://127.0.0.1:8090/jsonrpc",
    )
    assert watched_chains(more) == ["BTC", "ETC", "BEP20", "TRC20"]
    # ETC is watched but not sent on (no EIP-1559 there); TRON sends need its HTTP API's URL.
    assert sending_chains(more) == ["BTC", "BEP20"]
    assert sending_chains(more.model_copy(update={"tron_rpc_url": "http://127.0.0.1:8090"})) == [
        "BTC",
        "BEP20",
        "TRC20",
    ]
    named = Settings(env="test", deposit_chains=["TRC20"], withdraw_chains=[])
    assert (deposit_chains(named), withdraw_chains(named)) == (["TRC20"], [])


async def test_an_address_only_on_a_chain_a_watcher_follows(routes: App, api: httpx.Client) -> None:
    user = member(api)
    client = routes(evm_rpc_url=EVM_NODE)  # ERC20 followed; TRC20, BTC and the rest not
    usdt = ok(await client.get("wallet/wallet", params={"currency_id": USDT}, headers=user.auth))
    assert [w["chain_protocol"]["code"] for w in usdt] == ["ERC20"]
    refused = await client.get("wallet/wallet", params={"currency_id": BTC}, headers=user.auth)
    assert error(refused, 400) == "Deposits of BTC are suspended: none of its chains is connected to this exchange"
    french = await client.get("wallet/wallet", params={"currency_id": BTC}, headers={**user.auth, "lang": "fr"})
    assert "BTC" in error(french, 400) and "suspendus" in error(french, 400)
    # A currency none of whose chains has an adapter keeps its own message.
    xrp = await Currency.get(code="XRP")
    unsupported = await client.get("wallet/wallet", params={"currency_id": xrp.id}, headers=user.auth)
    assert error(unsupported, 400) == "Deposits of XRP are not supported yet: its chain cannot be received here"


async def test_a_withdrawal_only_on_a_chain_the_signer_sends_on(routes: App, api: httpx.Client) -> None:
    user = member(api)
    client = routes(evm_rpc_url=EVM_NODE, chain_nodes={"ETC": ChainNode(url=EVM_NODE)})
    body = {"currency_id": USDT, "number": "100", "address": TRON, "pay_password": "Deal1234", "memo": "",
            "currency_protocol_id": TRC20_USDT}  # fmt: skip
    refused = await client.post("account/draw", json=body, headers=user.auth)
    assert error(refused, 400) == "Withdrawals on TRC20 are suspended: that chain is not connected to this exchange"
    etc = await Currency.get(code="ETC")
    watch_only = {**body, "currency_id": etc.id, "currency_protocol_id": ETC_ETC, "address": "0x" + "ab" * 20}
    assert "ETC" in error(await client.post("account/draw", json=watch_only, headers=user.auth), 400)
    # ETC deposits are open (a watcher reads it): the user's EVM address.
    etc_wallets = ok(await client.get("wallet/wallet", params={"currency_id": etc.id}, headers=user.auth))
    assert [w["chain_protocol"]["code"] for w in etc_wallets] == ["ETC"]
    # On ERC20 the request goes past the chain check to the next rule (this user set no deal password).
    erc20 = {**body, "currency_protocol_id": ERC20_USDT, "address": "0x" + "ab" * 20}
    assert "suspended" not in error(await client.post("account/draw", json=erc20, headers=user.auth), 400)
