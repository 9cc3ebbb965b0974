"""Sweeps on a UTXO chain: the outputs that paid deposit addresses, once final, spent to the hot wallet
kept by the node (docs/decisions.md "Sweeps of UTXO deposits").

The deposit addresses are the xpub's (store/chain/keys.py), not the node wallet's, so the node cannot
spend them: the Signer builds the transaction with ``embit`` and signs each input's digest with the
KeySource at the address's path, as it signs EVM transactions; no private key reaches the node or
leaves the KeySource. BTC and LTC deposits are P2WPKH (``m/84'/coin'/0'/0/<index>``): a BIP143 digest
and a witness. DOGE's are P2PKH (``m/44'/3'/0'/0/<index>``, no segwit there): the legacy digest and a
scriptSig, in a version-1 transaction. BCH's P2PKH needs its fork-id digest, not built: BCH deposits
stay on their addresses (config/chains.py SWEPT_UTXO).

One transaction per step spends up to ``MAX_INPUTS`` final, unswept deposit outputs to one address of
the hot wallet, less the fee (the node's estimate, else ``fallback_rate``). A total below the
currency's sweep minimum waits for more deposits. Never twice: an output can be spent once, and the
node answers ``gettxout`` with nothing for an output a transaction (mined or in the mempool) spends,
so a deposit whose output is already spent is marked swept without a new transaction (a crash between
the broadcast and the mark). A sweep that left the mempool unmined gives its outputs back: a deposit
swept within ``RECHECK`` whose output is unspent again is unmarked and swept with the next step.
The ledger does not change: the coins were the house's from the credit on.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import ROUND_CEILING, Decimal

from coincurve.ecdsa import cdata_to_der, deserialize_compact
from embit import ec
from embit.script import Script, p2pkh, script_sig_p2pkh, witness_p2wpkh
from embit.transaction import Transaction, TransactionInput, TransactionOutput

from store.chain.custody import KeySource
from store.chain.keys import AccountKey
from store.chain.senders import UtxoSender
from store.chain.sweeps import SweepReport, over_ceiling
from store.models import ChainDeposit, DepositStatus, HdAddress

log = logging.getLogger(__name__)
MAX_INPUTS = 200  # about 14 kvB: well under the standard transaction's 100 kvB
RECHECK = timedelta(days=1)
COIN = Decimal(10) ** 8
# Virtual bytes of a one-output P2WPKH spend: 11 of frame, 31 for the output, 69 per input (41 bytes
# of input and a witness of at most 73 + 34 bytes at a quarter's weight, rounded up). A legacy P2PKH
# spend: 10 of frame, at most 34 for the output, 149 per input (41 and a scriptSig of 1 + 73 + 1 + 33).
SEGWIT_VBYTES = (11, 31, 69)
LEGACY_VBYTES = (10, 34, 149)
LEGACY_FAMILIES = ("DOGE",)  # P2PKH deposits whose legacy digest is the chain's own
# The fee rate (coins per 1000 virtual bytes) when the node has no estimate: DOGE's relay floor is 0.01.
FALLBACK_RATES = {"DOGE": Decimal("0.01")}


@dataclass(frozen=True)
class _Input:
    deposit_id: int
    txid: str
    vout: int
    sats: int
    path: str


class UtxoSweeper:
    def __init__(
        self,
        sender: UtxoSender,
        keys: KeySource,
        account: AccountKey,
        *,
        minimums: dict[str, Decimal],
        final: int,
        fallback_rate: Decimal | None = None,
    ) -> None:
        self.sender = sender
        self.node = sender.node
        self._keys = keys
        self._account = account
        self._currency = sender.currency
        self._minimum = {code.upper(): amount for code, amount in minimums.items()}.get(self._currency, Decimal(0))
        self._final = final
        # coins per 1000 virtual bytes
        self._fallback_rate = fallback_rate or FALLBACK_RATES.get(self._currency, Decimal("0.0002"))
        self._legacy = account.family in LEGACY_FAMILIES
        self._hot_address: str | None = None

    @property
    def chain(self) -> str:
        return self.sender.chain

    async def step(self) -> SweepReport:
        report = SweepReport()
        await self._unmark_vanished()
        inputs = await self._inputs(report)
        if not inputs:
            return report
        total = sum(i.sats for i in inputs)
        if Decimal(total) / COIN < self._minimum:
            report.below_minimum += len(inputs)
            return report
        rate = await self.node.estimate_smart_fee(6) or self._fallback_rate
        frame, output, per_input = LEGACY_VBYTES if self._legacy else SEGWIT_VBYTES
        vbytes = frame + output + per_input * len(inputs)
        fee = int((rate * COIN * vbytes / 1000).to_integral_value(ROUND_CEILING))
        if total - fee <= fee:  # the fee would take half or more: wait for more deposits
            report.below_minimum += len(inputs)
            return report
        self._hot_address = self._hot_address or await self.node.new_address(label="sweeps")
        raw = self._signed(inputs, await self.node.script_of(self._hot_address), total - fee)
        await self.sender.broadcast(raw.hex())
        txid = raw_txid(raw)
        await ChainDeposit.filter(id__in=[i.deposit_id for i in inputs]).update(swept_at=datetime.now(UTC))
        report.swept.append(txid)
        log.info("sweep: %d %s outputs, %s less a fee of %s, to the hot wallet (%s)", len(inputs),
                 self._currency, Decimal(total) / COIN, Decimal(fee) / COIN, txid)  # fmt: skip
        return report

    async def excess(self, ceilings: dict[str, Decimal]) -> dict[str, str]:
        return over_ceiling(await self.sender.hot_balances(), ceilings)

    async def _inputs(self, report: SweepReport) -> list[_Input]:
        """The final, unswept deposits' outputs still unspent (the spent ones are marked swept)."""
        rows = (
            await ChainDeposit.filter(
                chain=self.sender.chain, status=DepositStatus.CREDITED, swept_at=None, confirmations__gte=self._final
            )
            .order_by("id")
            .limit(MAX_INPUTS)
            .values("id", "tx_hash", "output_index", "address")
        )
        index_of = dict(await HdAddress.filter(family=self._account.family, address__in=[r["address"] for r in rows])
                        .values_list("address", "index"))  # fmt: skip
        found, spent = [], []
        for row in rows:
            index = index_of.get(row["address"])
            if index is None or self._account.address(int(index)) != row["address"]:
                log.error("sweep: %s is not an address of this key: deposit %d skipped", row["address"], row["id"])
                continue
            value = await self.node.unspent_output(row["tx_hash"], row["output_index"])
            if value is None:
                spent.append(row["id"])
                continue
            path = self._account.path(int(index))
            found.append(_Input(row["id"], row["tx_hash"], row["output_index"], int(value * COIN), path))
        if spent:
            await ChainDeposit.filter(id__in=spent).update(swept_at=datetime.now(UTC))
            log.info("sweep: %d deposits' outputs were already spent by a sweep: marked", len(spent))
        return found

    async def _unmark_vanished(self) -> None:
        """A recent sweep that left the mempool unmined gave its outputs back: sweep them again. The
        deposits one sweep spent share its ``swept_at`` and its fate, so one output is asked per sweep
        (not one per deposit: a node call each, every step, for a day's deposits)."""
        since = datetime.now(UTC) - RECHECK
        recent = await ChainDeposit.filter(chain=self.sender.chain, swept_at__gte=since).values_list(
            "swept_at", "tx_hash", "output_index"
        )
        first_of: dict[datetime, tuple[str, int]] = {}
        for at, txid, vout in recent:
            first_of.setdefault(at, (txid, vout))
        back = [at for at, (txid, vout) in first_of.items() if await self.node.unspent_output(txid, vout) is not None]
        if back:
            count = await ChainDeposit.filter(chain=self.sender.chain, swept_at__in=back).update(swept_at=None)
            log.warning("sweep: %d outputs are unspent again (their sweep was dropped): swept again", count)

    def _signed(self, inputs: list[_Input], to_script: bytes, sats: int) -> bytes:
        """A transaction spending ``inputs`` to ``to_script``, every input signed: version 2 with BIP143
        digests and witnesses, or (legacy P2PKH deposits) version 1 with legacy digests and scriptSigs."""
        tx = Transaction(
            version=1 if self._legacy else 2,
            vin=[TransactionInput(bytes.fromhex(i.txid), i.vout) for i in inputs],
            vout=[TransactionOutput(sats, Script(to_script))],
        )
        for n, spent in enumerate(inputs):
            public = ec.PublicKey.parse(self._keys.public_key(spent.path))
            if self._legacy:
                digest = tx.sighash_legacy(n, p2pkh(public))
            else:
                digest = tx.sighash_segwit(n, p2pkh(public), spent.sats)
            signature = self._keys.sign_digest(spent.path, digest)
            compact = signature.r.to_bytes(32, "big") + signature.s.to_bytes(32, "big")
            der = ec.Signature.parse(cdata_to_der(deserialize_compact(compact)))
            if self._legacy:
                tx.vin[n].script_sig = script_sig_p2pkh(der, public)
            else:
                tx.vin[n].witness = witness_p2wpkh(der, public)
        return tx.serialize()


def raw_txid(raw: bytes) -> str:
    """The txid of serialised bytes (the hash without the witness, as the chain shows it)."""
    return Transaction.parse(raw).txid().hex()
