"""What a chain watcher reads: one ``Source`` per chain, over its node's client. ``UtxoSource`` reads
a Bitcoin Core-style chain (BTC, LTC, BCH, DOGE), ``EvmSource`` an Ethereum-style one (ERC20, ETC,
BEP20) and TRON's, whose node answers the same JSON-RPC with its addresses as 20-byte hex
(docs/decisions.md "Chains a deployment follows"). config/chains.py says which chains a deployment
follows, ``source_for`` builds each one's source; store/chain/watch.py does the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Context, Decimal
from typing import Protocol

from bip_utils import TrxAddrDecoder

from config.chains import EVM_NATIVE, TRON_CHAIN, UTXO_CHAINS
from config.settings import Settings
from store.chain_rpc.evm import EvmNode
from store.chain_rpc.utxo import UtxoNode
from store.deposits import NATIVE_VALUE, Transfer
from store.models import SiteSetting

ETH_DECIMALS = 18
TRX_DECIMALS = 6  # 1 TRX = 1,000,000 SUN
EXACT = Context(prec=100)  # wide enough for any uint256 in base units: no rounding
GAS_STATION_SETTING = "chain_gas_station:{chain}"  # the address that pays sweeps' gas (store/chain/sweeps.py)


async def publish_gas_station(chain: str, address: str) -> None:
    """Name the address whose native transfers are the house's gas top-ups (the Signer, at start): the
    watcher of ``chain`` never takes them for deposits. Only the Signer knows it (it is derived from
    the hot wallet's key, not from the deposit xpub), so it is stored where the watcher reads."""
    await SiteSetting.update_or_create(key=GAS_STATION_SETTING.format(chain=chain), defaults={"value": address})


async def gas_station(chain: str) -> str | None:
    """The published gas station of ``chain``, as the Signer wrote it (EVM hex, TRON base58)."""
    row = await SiteSetting.get_or_none(key=GAS_STATION_SETTING.format(chain=chain))
    return row.value if row is not None and row.value else None


def from_base_units(units: int, decimals: int) -> Decimal:
    """An integer amount of a currency's smallest unit (satoshi, wei, a token's unit) in whole coins,
    exactly."""
    return Decimal(units).scaleb(-decimals, EXACT)


@dataclass(frozen=True)
class Block:
    height: int
    hash: str
    parent: str | None


Scan = tuple[list[Block], list[Transfer]]  # blocks read, and the transfers to deposit addresses in them


class Source(Protocol):
    """One chain as a watcher reads it (``UtxoSource``, ``EvmSource``)."""

    chain: str  # the currency protocols' chain_protocol (LTC, ERC20)
    family: str  # the family its deposit addresses are derived in (LTC, EVM)

    def spelling(self, address: str) -> str:
        """An address as the node writes it (EVM: lowercase)."""

    async def tip(self) -> int: ...

    async def hashes(self, heights: Sequence[int]) -> list[str | None]:
        """The main chain's hash at each height (None above the tip)."""

    async def scan(self, start: int, end: int, addresses: Mapping[str, str]) -> Scan:
        """Blocks ``start``..``end`` and the transfers in them to ``addresses`` (node spelling ->
        stored address), in chain order."""


class UtxoSource:
    """A Bitcoin Core-style chain: each block read by hash with its transactions (``getblock`` 2), an
    output to a deposit address is a deposit of the chain's coin, keyed by its ``n``."""

    def __init__(self, node: UtxoNode, *, chain: str, family: str, currency: str) -> None:
        self.node, self.chain, self.family, self.currency = node, chain, family, currency

    def spelling(self, address: str) -> str:
        return address

    async def tip(self) -> int:
        return await self.node.block_count()

    async def hashes(self, heights: Sequence[int]) -> list[str | None]:
        tip = await self.node.block_count()
        found = iter(await self.node.block_hashes([h for h in heights if h <= tip]))
        return [next(found) if h <= tip else None for h in heights]

    async def scan(self, start: int, end: int, addresses: Mapping[str, str]) -> Scan:
        blocks: list[Block] = []
        transfers: list[Transfer] = []
        ours = set(addresses)
        for block_hash in await self.node.block_hashes(list(range(start, end + 1))):
            block = await self.node.block(block_hash)
            blocks.append(Block(block.height, block.hash, block.previous_hash))
            for tx in block.txs:
                for out in tx.paid_to(ours):
                    to = addresses[out.address or ""]
                    transfers.append(Transfer(self.chain, tx.txid, out.n, to, out.value, self.currency,
                                              block_hash=block.hash, block_height=block.height))  # fmt: skip
        return blocks, transfers


class EvmSource:
    """An EVM chain: native value from each block's transactions (output index ``NATIVE_VALUE``), and
    ERC20 ``Transfer`` logs of the configured tokens (one ``eth_getLogs`` per scan, filtered here, so
    the query does not grow with the addresses), keyed by log index. A transaction to an address
    without code cannot revert, so a native transfer mined is a transfer made."""

    def __init__(
        self,
        node: EvmNode,
        *,
        chain: str,
        family: str,
        native: str,
        tokens: Mapping[str, str],
        native_decimals: int = ETH_DECIMALS,
        spell: Callable[[str], str] = str.lower,
    ) -> None:
        self.node, self.chain, self.family, self.native = node, chain, family, native
        self.native_decimals, self._spell = native_decimals, spell
        self.tokens = {spell(contract): code for code, contract in tokens.items()}  # contract -> currency code
        self._decimals: dict[str, int] = {}

    def spelling(self, address: str) -> str:
        """As the node writes it: lowercase hex (TRON's node too, for its base58 ``T…`` addresses)."""
        return self._spell(address)

    async def tip(self) -> int:
        return await self.node.block_number()

    async def hashes(self, heights: Sequence[int]) -> list[str | None]:
        return await self.node.block_hashes(list(heights))

    async def _token_decimals(self, token: str) -> int:
        if token not in self._decimals:  # the contract's own decimals(): its base unit, whatever the seed says
            self._decimals[token] = await self.node.token_decimals(token)
        return self._decimals[token]

    async def scan(self, start: int, end: int, addresses: Mapping[str, str]) -> Scan:
        blocks: list[Block] = []
        transfers: list[Transfer] = []
        station = await gas_station(self.chain)  # its top-ups move the house's gas, not a user's deposit
        house = self._spell(station) if station else None
        for number in range(start, end + 1):
            block = await self.node.block(number)
            if block is None:  # the tip moved back under the scan
                break
            blocks.append(Block(block.number, block.hash, block.parent_hash))
            for tx in block.transactions:
                if tx.to is not None and tx.to in addresses and tx.value > 0 and tx.sender.lower() != house:
                    transfers.append(Transfer(self.chain, tx.hash, NATIVE_VALUE, addresses[tx.to],
                                              from_base_units(tx.value, self.native_decimals), self.native,
                                              block_hash=block.hash, block_height=block.number))  # fmt: skip
        if not blocks or not self.tokens:
            return blocks, transfers
        by_height = {b.height: b.hash for b in blocks}
        logs = await self.node.transfer_logs(tokens=list(self.tokens), from_block=start, to_block=blocks[-1].height)
        for event in logs:
            if by_height.get(event.block_number) != event.block_hash:  # the chain moved between the reads
                blocks = [b for b in blocks if b.height < event.block_number]
                break
            if event.to in addresses and event.amount > 0 and not event.removed:
                amount = from_base_units(event.amount, await self._token_decimals(event.token))
                transfers.append(Transfer(self.chain, event.tx_hash, event.log_index, addresses[event.to], amount,
                                          self.tokens[event.token], block_hash=event.block_hash,
                                          block_height=event.block_number))  # fmt: skip
        last = blocks[-1].height if blocks else start - 1
        transfers = [t for t in transfers if (t.block_height or 0) <= last]
        return blocks, sorted(transfers, key=lambda t: (t.block_height or 0, t.index))


def tron_hex(address: str) -> str:
    """A TRON address as TRON's Ethereum-style JSON-RPC writes it: ``0x`` and the 20 bytes after the
    base58 form's 0x41 prefix."""
    return "0x" + TrxAddrDecoder.DecodeAddr(address).hex()


def source_for(settings: Settings, chain: str) -> UtxoSource | EvmSource:
    """The ``Source`` of one of ``watched_chains``, with a node client its caller closes
    (``source.node.aclose()``)."""
    if chain == TRON_CHAIN and settings.tron_jsonrpc_url:
        tron_node = EvmNode(settings.tron_jsonrpc_url)
        return EvmSource(tron_node, chain=chain, family="TRON", native="TRX", tokens=settings.trc20_contracts,
                         native_decimals=TRX_DECIMALS, spell=tron_hex)  # fmt: skip
    node = settings.nodes.get(chain)
    if node is None:
        raise LookupError(f"no node configured for the {chain} chain")
    if chain in UTXO_CHAINS:
        return UtxoSource(UtxoNode(node.url), chain=chain, family=chain, currency=chain)
    return EvmSource(EvmNode(node.url), chain=chain, family="EVM", native=EVM_NATIVE[chain], tokens=node.tokens)
