"""Sweeps: deposit funds gathered into the hot wallet, and the hot wallet's ceiling (docs/decisions.md
"Sending withdrawals"). Run by the Signer (it alone has the deposit addresses' keys, through the same
KeySource: ``m/44'/60'/0'/0/<index>``).

On an EVM chain, each step looks at the addresses of deposits that are final and not yet swept:
- a token balance at or above the currency's sweep minimum moves to the hot wallet with an ERC20
  ``transfer`` signed by the deposit address's key, once the address holds the gas for it; until then
  the gas station (``m/44'/60'/1'/0/1``, an address of its own beside the hot wallet, so top-ups never
  take a nonce the withdrawals' nonce manager counts on) sends it that gas, and the next step, after
  the top-up is mined, sweeps;
- ether above its minimum (less the gas of a plain transfer) moves to the hot wallet, once no token
  waits on that address (it would need the gas);
- what is below a minimum stays, and is swept with the address's next deposit.
The deposits are marked swept when their address is done. Sweeps move the house's own coins between
its own addresses: the ledger does not change, and a crash can at worst repeat a gas top-up (the
extra ether is swept back with the address's next native sweep).

The ceiling: the hot wallet's balance above ``hot_wallet_ceiling`` per currency is reported (status,
log) as due to the cold wallet; moving it is an operator's act with the cold wallet's own keys.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, Protocol

from store.chain.custody import KeySource
from store.chain.evm_signing import ERC20_GAS, GAS_STATION_PATH, NATIVE_GAS, address_of, transfer_call
from store.chain.senders import EvmSender
from store.chain.sources import publish_gas_station
from store.chain_rpc.evm import FeeData
from store.models import ChainDeposit, DepositStatus, HdAddress

log = logging.getLogger(__name__)
DEPOSIT_ACCOUNT_PATH = "m/44'/60'/0'/0/{index}"  # store/chain/keys.py: the EVM account xpub's receive children


def deposit_path(index: int) -> str:
    return DEPOSIT_ACCOUNT_PATH.format(index=index)


@dataclass
class SweepReport:
    swept: list[str] = field(default_factory=list)  # txids
    topped_up: list[str] = field(default_factory=list)  # deposit addresses sent gas
    below_minimum: int = 0


class Sweeper(Protocol):
    """What the Signer runs every ``sweep_seconds`` per chain (EvmSweeper here, UtxoSweeper in
    store/chain/utxo_sweeps.py)."""

    @property
    def chain(self) -> str: ...

    async def step(self) -> SweepReport: ...

    async def excess(self, ceilings: dict[str, Decimal]) -> dict[str, str]: ...


class AccountSweeper:
    """What an account chain's sweeper does each step (EVM here, TRON in store/chain/tron_sweeps.py):
    name its gas station where the watcher reads (before any top-up), then take each address of the
    final, credited, unswept deposits in turn (``_sweep``: True when the address is done, and its
    deposits are marked swept). ``_context`` is what every address's sweep of one step shares."""

    family = ""  # the deposit addresses' family (store/chain/keys.py)

    def __init__(
        self, sender: Any, keys: KeySource, gas_station: str, *, minimums: dict[str, Decimal], final: int
    ) -> None:
        self.sender = sender
        self.node = sender.node
        self._keys = keys
        self._minimums = {code.upper(): amount for code, amount in minimums.items()}
        self._final = final
        self._topping: dict[str, str] = {}  # deposit address -> the top-up's txid, while unmined
        self.gas_station = gas_station
        self._published = False

    @property
    def chain(self) -> str:
        return str(self.sender.chain)

    async def step(self) -> SweepReport:
        report = SweepReport()
        if not self._published:  # before any top-up: the watcher must know it is the house's
            await publish_gas_station(self.chain, self.gas_station)
            self._published = True
        waiting = ChainDeposit.filter(chain=self.chain, status=DepositStatus.CREDITED, swept_at=None,
                                      confirmations__gte=self._final)  # fmt: skip
        addresses = sorted(set(await waiting.values_list("address", flat=True)))
        if not addresses:
            return report
        found = await HdAddress.filter(family=self.family, address__in=addresses).values_list("address", "index")
        context = await self._context()
        for address, index in found:
            if await self._sweep(address, int(index), context, report):
                await waiting.filter(address=address).update(swept_at=datetime.now(UTC))
        return report

    async def excess(self, ceilings: dict[str, Decimal]) -> dict[str, str]:
        return over_ceiling(await self.sender.hot_balances(), ceilings)

    async def _context(self) -> Any:
        return None

    async def _sweep(self, address: str, index: int, context: Any, report: SweepReport) -> bool:
        raise NotImplementedError


class EvmSweeper(AccountSweeper):
    family = "EVM"

    def __init__(self, sender: EvmSender, keys: KeySource, *, minimums: dict[str, Decimal], final: int) -> None:
        super().__init__(sender, keys, address_of(keys, GAS_STATION_PATH), minimums=minimums, final=final)

    async def _context(self) -> FeeData:
        return await self.node.fee_data()  # one fee estimate for the step's sweeps

    async def _sweep(self, address: str, index: int, fees: FeeData, report: SweepReport) -> bool:
        """Sweep one address as far as it goes this step; True when it is done (nothing left above a
        minimum), False when it waits for a top-up."""
        if address in self._topping:
            receipt = await self.node.receipt(self._topping[address])
            if receipt is None:
                return False
            del self._topping[address]
        path = deposit_path(index)
        if address_of(self._keys, path).lower() != address.lower():
            log.error("sweep: %s is not the key at %s: skipped", address, path)
            return True
        gas_wei = await self.node.balance(address)
        for code, token in self.sender.tokens.items():
            _, decimals = await self.sender.currency(code)
            units = await self.node.token_balance(token, address)
            if Decimal(units).scaleb(-decimals) < self._minimums.get(code, Decimal(0)) or units == 0:
                report.below_minimum += units > 0
                continue
            need = ERC20_GAS * fees.max_fee
            if gas_wei < need:
                gas = {"to": address, "value": need - gas_wei, "data": "0x", "gas": NATIVE_GAS}
                top_up = await self._send(GAS_STATION_PATH, gas, fees)
                self._topping[address] = top_up
                report.topped_up.append(address)
                log.info("sweep: %s topped up with gas for its %s (%s)", address, code, top_up)
                return False
            call = transfer_call(self.sender.hot, Decimal(units).scaleb(-decimals), token=token, decimals=decimals)
            report.swept.append(await self._send(path, call, fees))
            gas_wei -= need
        native = gas_wei - NATIVE_GAS * fees.max_fee
        if native > 0 and Decimal(native).scaleb(-18) >= self._minimums.get(self.sender.native, Decimal(0)):
            call = {"to": self.sender.hot, "value": native, "data": "0x", "gas": NATIVE_GAS}
            report.swept.append(await self._send(path, call, fees))
        return True

    async def _send(self, path: str, call: dict[str, Any], fees: FeeData) -> str:
        """Sign ``call`` with the key at ``path`` (the hot wallet's sender builds it) and broadcast it."""
        signed = await self.sender.sign_call(path, call, fees)
        await self.node.send_raw_transaction(signed.raw)
        return signed.txid


def over_ceiling(held: dict[str, Decimal], ceilings: dict[str, Decimal]) -> dict[str, str]:
    """Per currency, what the hot wallet holds above its ceiling (due to the cold wallet)."""
    over = {}
    for code, ceiling in ceilings.items():
        amount = held.get(code.upper(), Decimal(0)) - ceiling
        if amount > 0:
            over[code.upper()] = f"{amount.normalize():f}"
    return over
