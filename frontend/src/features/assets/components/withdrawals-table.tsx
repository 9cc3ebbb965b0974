import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';

import { Pagination } from '@/components/ui/pagination';
import { EMPTY, formatDateTime, formatPrice } from '@/lib/format';

import type { RecordsStore } from '../stores/records-store';
import type { Withdrawal } from '../types';
import { LoadFailed } from './assets-layout';
import '../i18n';

/** The user's withdrawal requests with their state (under review, completed, rejected), 15 a page. */
export const WithdrawalsTable = observer(function WithdrawalsTable({ store }: { store: RecordsStore<Withdrawal> }) {
  const { t } = useTranslation('assets');
  if (store.status === 'error') return <LoadFailed onRetry={() => void store.load()} />;
  return (
    <>
      <div className="table-wrap">
        <table className="data-table" data-testid="withdrawals-table">
          <thead>
            <tr>
              <th>{t('records.currency')}</th>
              <th className="num">{t('records.amount')}</th>
              <th className="num hide-sm">{t('withdrawals.fee')}</th>
              <th className="hide-sm">{t('withdraw.address')}</th>
              <th>{t('withdrawals.status')}</th>
              <th className="num">{t('records.time')}</th>
            </tr>
          </thead>
          <tbody>
            {store.rows.map((w) => (
              <tr key={w.id} data-testid="withdrawal-row" data-status={w.status}>
                <td className="pair-base">{w.currency?.code ?? EMPTY}</td>
                <td className="num">{formatPrice(w.number)}</td>
                <td className="num hide-sm">{formatPrice(w.fee)}</td>
                <td className="hide-sm mono ellipsis" title={w.address}>{w.address}</td>
                <td data-testid="withdrawal-status">{w.status_name || EMPTY}</td>
                <td className="num muted">{formatDateTime(w.created_at)}</td>
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
