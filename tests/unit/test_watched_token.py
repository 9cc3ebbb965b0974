"""The deposit page names the token contract the watcher follows: the one the chain's node settings
name (the dev chain's USDT in development: settings.erc20_contracts), the listed contract where settings
name none."""

from __future__ import annotations

from config.settings import Settings
from serve.api.routes.wallet import watched_token
from store.models import Currency, CurrencyProtocol

MAINNET_USDT = "0xdAC17F958D2ee523a2206206994597C13D831ec7"
DEV_USDT = "0xf2e246bb76df876cef8b38ae84130f4f55de395b"


def test_the_watched_contract_wins_over_the_listed_one_on_erc20_only() -> None:
    usdt = Currency(code="USDT")
    erc20 = CurrencyProtocol(chain_protocol="ERC20", token_address=MAINNET_USDT)
    trc20 = CurrencyProtocol(chain_protocol="TRC20", token_address="TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")
    dev = Settings(env="test", evm_rpc_url="http://127.0.0.1:8545", erc20_contracts={"USDT": DEV_USDT})
    assert watched_token(dev, usdt, erc20) == DEV_USDT
    assert watched_token(dev, usdt, trc20) == trc20.token_address
    assert watched_token(Settings(env="test"), usdt, erc20) == MAINNET_USDT
    assert watched_token(dev, Currency(code="LINK"), erc20) == MAINNET_USDT  # no contract named for LINK


def test_each_chain_names_its_own_contracts() -> None:
    usdt = Currency(code="USDT")
    bep20 = CurrencyProtocol(chain_protocol="BEP20", token_address="0x55d398326f99059fF775485246999027B3197955")
    trc20 = CurrencyProtocol(chain_protocol="TRC20", token_address="TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")
    erc20 = CurrencyProtocol(chain_protocol="ERC20", token_address=MAINNET_USDT)
    settings = Settings(
        env="test",
        chain_nodes={"BEP20": {"url": "http://127.0.0.1:8575", "tokens": {"USDT": DEV_USDT}}},
        trc20_contracts={"USDT": "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"},
    )
    assert watched_token(settings, usdt, bep20) == DEV_USDT
    assert watched_token(settings, usdt, trc20) == "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"
    assert watched_token(settings, usdt, erc20) == MAINNET_USDT  # the BEP20 node's contract is not ERC20's
