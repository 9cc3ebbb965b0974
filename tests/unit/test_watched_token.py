"""The deposit page names the token contract the watcher follows: the dev chain's USDT in development
(settings.erc20_contracts), the listed contract where settings name none."""

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
    dev = Settings(env="test", erc20_contracts={"USDT": DEV_USDT})
    assert watched_token(dev, usdt, erc20) == DEV_USDT
    assert watched_token(dev, usdt, trc20) == trc20.token_address
    assert watched_token(Settings(env="test"), usdt, erc20) == MAINNET_USDT
    assert watched_token(dev, Currency(code="LINK"), erc20) == MAINNET_USDT  # no contract named for LINK
