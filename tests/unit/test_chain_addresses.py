"""Withdrawal addresses are checked by their checksums and the network's prefixes (store/chain/addresses.py):
every address this exchange derives for itself passes on its own network only, published vectors
pass, and one changed character, another network's prefix or a pattern-shaped string never does."""

from __future__ import annotations

import pytest

from store.chain.addresses import withdrawable
from store.chain.custody import TEST_MNEMONIC, MnemonicKeySource
from store.chain.keys import AccountKey, Network

CHAINS = {"BTC": "BTC", "LTC": "LTC", "DOGE": "DOGE", "BCH": "BCH", "EVM": "ERC20", "TRON": "TRC20"}


def derived(network: Network) -> dict[str, list[str]]:
    xpubs = MnemonicKeySource(TEST_MNEMONIC).account_xpubs(network)
    return {CHAINS[f]: [AccountKey(f, network, xpub).address(i) for i in range(3)] for f, xpub in xpubs.items()}


@pytest.mark.parametrize("network", ["mainnet", "regtest"])
def test_every_derived_address_is_withdrawable_on_its_own_network_only(network: Network) -> None:
    other: Network = "regtest" if network == "mainnet" else "mainnet"
    for chain, addresses in derived(network).items():
        for address in addresses:
            assert withdrawable(chain, address, network), (chain, address)
            if chain not in ("ERC20", "TRC20"):  # EVM and TRON encode alike on every network
                assert not withdrawable(chain, address, other), (chain, address, other)


@pytest.mark.parametrize(
    ("chain", "address"),
    [
        ("BTC", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"),  # P2PKH
        ("BTC", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"),  # P2SH
        ("BTC", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"),  # BIP173: P2WPKH
        ("BTC", "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3"),  # BIP173: P2WSH
        ("BTC", "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4"),  # upper case is bech32 too
        ("BTC", "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297"),  # BIP86: taproot
        ("ERC20", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"),  # EIP-55
        ("ERC20", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"),  # one case: no checksum to check
        ("BEP20", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"),
        ("TRC20", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
    ],
)
def test_published_mainnet_addresses_pass(chain: str, address: str) -> None:
    assert withdrawable(chain, address, "mainnet")


@pytest.mark.parametrize(
    ("chain", "address"),
    [
        ("BTC", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3"),  # one character changed: the checksum fails
        ("BTC", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5"),
        ("BTC", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3T4"),  # mixed case is not bech32
        ("BTC", "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx"),  # testnet's prefix
        ("BTC", "bc1zw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvaryvg6xhg"),  # not a known program
        ("LTC", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz"),
        ("LTC", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"),  # Bitcoin's
        ("DOGE", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"),  # Bitcoin's version byte
        ("ERC20", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"),  # mixed case with a wrong checksum
        ("ERC20", "0x" + "ab" * 19),  # 19 bytes
        ("ERC20", "5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"),  # no 0x
        ("TRC20", "T" + "a" * 33),  # shaped like TRON's, no valid checksum
        ("TRC20", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"),
        ("BCH", "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6b"),  # one character changed
        ("XRP", "rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY"),  # a chain with no adapter
        ("ERC20", ""),
        ("ERC20", "0x" + "ab" * 200),
        ("BTC", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2\u00e9"),
    ],
)
def test_a_changed_character_another_network_or_a_shape_never_passes(chain: str, address: str) -> None:
    assert not withdrawable(chain, address, "mainnet")


def test_a_cash_address_may_leave_out_its_prefix_but_not_name_another() -> None:
    (address, *_) = derived("mainnet")["BCH"]
    assert address.startswith("bitcoincash:q")
    bare = address.split(":", 1)[1]
    assert withdrawable("BCH", bare, "mainnet")
    assert not withdrawable("BCH", "bchreg:" + bare, "mainnet")
    assert not withdrawable("BCH", bare, "regtest")  # its checksum covers the mainnet prefix
