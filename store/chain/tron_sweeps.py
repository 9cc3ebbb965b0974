"""Sweeps on TRON (TRC20): final deposits' TRC20 tokens and TRX moved from their deposit addresses to
the hot wallet (docs/decisions.md "Chains a deployment follows"). Run by the Signer, which alone has
the deposit addresses' keys through the KeySource (``m/44'/195'/0'/0/<index>``, the TRON xpub's
children).

A TRC20 transfer burns TRX for its energy, and a deposit address holds only the user's tokens. So, as
EVM sweeps do with gas, the gas station (``m/44'/195'/1'/0/1``, beside the hot wallet) first sends
the address TRX up to ``fee_limit`` (the most a transfer may burn); once that top-up is mined, the
address's token balance at or above the currency's minimum moves to the hot wallet in a transfer the
deposit address's key signs, built by the node and checked field by field (store/chain/tron_signing.py)
like a withdrawal. TRX above the minimum, less ``BANDWIDTH_RESERVE`` for the transfer's own bandwidth,
follows when no token moved in the same step (the transfer's burn is unknown until it is mined); what
the top-up leaves goes with the address's next TRX sweep. What is below a minimum stays for the next
deposit. The deposits are marked swept once their address is done, so a token is sent once. The
ledger does not change; a crash can at worst repeat a top-up, whose TRX is swept back later.

The gas station is published where the TRC20 watcher reads (``publish_gas_station``): its top-ups are
the house's TRX, not deposits of the address's user.
"""

from __future__ import annotations

import logging
from decimal import Decimal

from store.chain import tron_signing as tron
from store.chain.custody import KeySource
from store.chain.keys import AccountKey
from store.chain.senders import TronSender
from store.chain.sweeps import AccountSweeper, SweepReport
from store.chain_rpc.evm import word

log = logging.getLogger(__name__)
GAS_STATION_PATH = tron.hot_path(1)
BANDWIDTH_RESERVE = 1_000_000  # SUN kept back when TRX is swept: a transfer's bandwidth if none is free


class TronSweeper(AccountSweeper):
    family = "TRON"

    def __init__(
        self, sender: TronSender, keys: KeySource, account: AccountKey, *, minimums: dict[str, Decimal], final: int
    ) -> None:
        super().__init__(sender, keys, tron.address_of(keys, GAS_STATION_PATH), minimums=minimums, final=final)
        self._account = account

    async def _sweep(self, address: str, index: int, context: None, report: SweepReport) -> bool:
        """Sweep one address as far as it goes this step; True when it is done (nothing left above a
        minimum), False when it waits for a top-up."""
        if address in self._topping:
            if await self.node.transaction_info(self._topping[address]) is None:
                return False
            del self._topping[address]
        path = self._account.path(index)
        if tron.address_of(self._keys, path) != address:
            log.error("sweep: %s is not the key at %s: skipped", address, path)
            return True
        trx = await self.node.balance(address)
        need = self.sender.fee_limit
        moved_token = False
        for code, token in self.sender.tokens.items():
            _, decimals = await self.sender.currency(code)
            units = await self.node.token_balance(token, address, word=word(tron.evm_hex(address)))
            if units == 0 or Decimal(units).scaleb(-decimals) < self._minimums.get(code, Decimal(0)):
                report.below_minimum += units > 0
                continue
            if trx < need:
                top_up = await self.sender.signed_by(GAS_STATION_PATH, address, need - trx, token=None)
                await self.sender.broadcast(top_up.raw)
                self._topping[address] = top_up.txid
                report.topped_up.append(address)
                log.info("sweep: %s topped up with %d SUN for its %s (%s)", address, need - trx, code, top_up.txid)
                return False
            swept = await self.sender.signed_by(path, self.sender.hot, units, token=token, fee_limit=need)
            await self.sender.broadcast(swept.raw)
            report.swept.append(swept.txid)
            trx, moved_token = trx - need, True
        # TRX: not beside a token transfer still to burn its fee (what it leaves goes with a later sweep).
        native = trx - BANDWIDTH_RESERVE
        if (
            not moved_token
            and native > 0
            and Decimal(native).scaleb(-tron.TRX_DECIMALS) >= self._minimums.get("TRX", Decimal(0))
        ):
            swept = await self.sender.signed_by(path, self.sender.hot, native, token=None)
            await self.sender.broadcast(swept.raw)
            report.swept.append(swept.txid)
        return True
