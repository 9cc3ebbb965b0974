/** The three records tables of the assets area, as columns for RecordsTable. */
import type { TFunction } from 'i18next';

import { EMPTY, formatDateTime, formatPrice, toBig } from '@/lib/format';

import type { AssetRecord, ChainDeposit, Withdrawal } from '../types';
import type { RecordColumn, RecordsTableSpec } from './records-table';

/** Log types of the earn products, named here when the server sends the bare type as the record's name. */
const EARN_LOG_TYPES = ['lock_savings', 'mining', 'shoufa', 'listing'] as const;
type EarnLogType = (typeof EARN_LOG_TYPES)[number];

function isEarnLogType(value: unknown): value is EarnLogType {
  return EARN_LOG_TYPES.some((type) => type === value);
}

/** A record's name: the server's, unless it is only the raw type of an earn movement. */
export function recordName(r: AssetRecord, t: TFunction<'wallet'>): string {
  const type = r.log_type;
  if (isEarnLogType(type) && (!r.notes || r.notes === type)) return t(`records.logTypes.${type}`);
  return r.notes || EMPTY;
}

/** The currency and the time, first and last column of every table. */
const currency: RecordColumn<{ currency?: { code: string } | null }> = {
  head: 'records.currency',
  cellClassName: 'pair-base',
  cell: (r) => r.currency?.code ?? EMPTY,
};
const time: RecordColumn<{ created_at: string | number }> = {
  head: 'records.time',
  className: 'num',
  cellClassName: 'muted',
  cell: (r) => formatDateTime(r.created_at),
};

/** Account records: currency, signed amount (with the locked part's change), record, instruction, time. */
export const ACCOUNT_RECORDS: RecordsTableSpec<AssetRecord> = {
  testId: 'records-table',
  rowTestId: 'record-row',
  columns: [
    { ...currency, cell: (r) => r.currency?.code ?? r.currency_code ?? EMPTY },
    {
      head: 'records.amount',
      className: 'num',
      cellClassName: (r) => (String(r.value ?? '').startsWith('-') ? 'down' : 'up'),
      cell: (r, t) => (
        <>
          {formatPrice(r.value)}
          {toBig(r.lock_value)?.eq(0) === false && (
            <span className="muted lock-change">{t('records.locked', { amount: formatPrice(r.lock_value) })}</span>
          )}
        </>
      ),
    },
    { head: 'records.record', testId: 'record-name', cell: (r, t) => recordName(r, t) },
    { head: 'records.instruction', className: 'hide-sm', cellClassName: 'muted', cell: (r) => r.memo || r.extra_data?.from || EMPTY },
    time,
  ],
};

/** Transfers seen on chain to the user's addresses: confirming, credited, or below the minimum. */
export const DEPOSITS: RecordsTableSpec<ChainDeposit> = {
  testId: 'deposits-table',
  rowTestId: 'deposit-row',
  statusOf: (d) => d.status,
  columns: [
    currency,
    { head: 'records.amount', className: 'num', cell: (d) => formatPrice(d.amount) },
    { head: 'deposit.chain', className: 'hide-sm', cell: (d) => d.chain_protocol?.code ?? EMPTY },
    { head: 'deposits.hash', className: 'hide-sm', cellClassName: 'mono ellipsis', title: (d) => d.tx_hash, cell: (d) => d.tx_hash },
    { head: 'withdrawals.status', cell: (d) => d.status_name || EMPTY },
    time,
  ],
};

/** The user's withdrawal requests with their state (under review, sending, completed, rejected,
 * failed) and, once the Signer stored it, the transaction that carries it. */
export const WITHDRAWALS: RecordsTableSpec<Withdrawal> = {
  testId: 'withdrawals-table',
  rowTestId: 'withdrawal-row',
  statusOf: (w) => w.status,
  columns: [
    currency,
    { head: 'records.amount', className: 'num', cell: (w) => formatPrice(w.number) },
    { head: 'withdrawals.fee', className: 'num hide-sm', cell: (w) => formatPrice(w.fee) },
    { head: 'withdraw.address', className: 'hide-sm', cellClassName: 'mono ellipsis', title: (w) => w.address, cell: (w) => w.address },
    { head: 'deposits.hash', className: 'hide-sm', cellClassName: 'mono ellipsis', title: (w) => w.txid ?? '',
      testId: 'withdrawal-txid', cell: (w) => w.txid || EMPTY },
    { head: 'withdrawals.status', testId: 'withdrawal-status', cell: (w) => w.status_name || EMPTY },
    time,
  ],
};
