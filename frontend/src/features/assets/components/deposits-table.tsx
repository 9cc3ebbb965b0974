import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';

import { Pagination } from '@/components/ui/pagination';
import { EMPTY, formatDateTime, formatPrice } from '@/lib/format';

import type { RecordsStore } from '../stores/records-store';
import type { ChainDeposit } from '../types';
import { LoadFailed } from './assets-layout';
import '../i18n';

/** Transfers seen on chain to the user's addresses: confirming, credited, or below the minimum. */
export const DepositsTable = observer(function DepositsTable({ store }: { store: RecordsStore<ChainDeposit> }) {
  const { t } = useTranslation('assets');
  if (store.status === 'error') return <LoadFailed onRetry={() => void store.load()} />;
  return (
    <>
      <div className="table-wrap">
        <table className="data-table" data-testid="deposits-table">
          <thead>
            <tr>
              <th>{t('records.currency')}</th>
              <th className="num">{t('records.amount')}</th>
              <th className="hide-sm">{t('deposit.chain')}</th>
              <th className="hide-sm">{t('deposits.hash')}</th>
              <th>{t('withdrawals.status')}</th>
              <th className="num">{t('records.time')}</th>
            </tr>
          </thead>
          <tbody>
            {store.rows.map((d) => (
              <tr key={d.id} data-testid="deposit-row" data-status={d.status}>
                <td className="pair-base">{d.currency?.code ?? EMPTY}</td>
                <td className="num">{formatPrice(d.amount)}</td>
                <td className="hide-sm">{d.chain_protocol?.code ?? EMPTY}</td>
                <td className="hide-sm mono ellipsis" title={d.tx_hash}>{d.tx_hash}</td>
                <td>{d.status_name || EMPTY}</td>
                <td className="num muted">{formatDateTime(d.created_at)}</td>
              </tr>
            ))}
            {store.status === 'ready' && !store.rows.length && (
              <tr>
                <td colSpan={6} className="empty-cell">
                  {t('common.empty')}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pagination page={store.page} total={store.total} perPage={store.perPage} onPage={(p) => store.setPage(p)} />
    </>
  );
});
