import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';

import { Pagination } from '@/components/ui/pagination';
import { EMPTY, formatDateTime, formatPrice, toBig } from '@/lib/format';

import type { RecordsStore } from '../stores/records-store';
import { LoadFailed } from './assets-layout';
import '../i18n';

/** Currency, amount, record, instruction, time; 15 a page, the pager only above 15 (spec "Assets area"). */
export const RecordsTable = observer(function RecordsTable({ store }: { store: RecordsStore }) {
  const { t } = useTranslation('assets');
  if (store.status === 'error') return <LoadFailed onRetry={() => void store.load()} />;
  return (
    <>
      <div className="table-wrap">
        <table className="data-table" data-testid="records-table" aria-busy={store.status === 'loading'}>
          <thead>
            <tr>
              <th>{t('records.currency')}</th>
              <th className="num">{t('records.amount')}</th>
              <th>{t('records.record')}</th>
              <th className="hide-sm">{t('records.instruction')}</th>
              <th className="num">{t('records.time')}</th>
            </tr>
          </thead>
          <tbody>
            {store.rows.map((r) => {
              const value = String(r.value ?? '');
              return (
                <tr key={r.id} data-testid="record-row">
                  <td className="pair-base">{r.currency?.code ?? r.currency_code ?? EMPTY}</td>
                  <td className={`num ${value.startsWith('-') ? 'down' : 'up'}`}>
                    {formatPrice(r.value)}
                    {toBig(r.lock_value)?.eq(0) === false && (
                      <span className="muted lock-change">{t('records.locked', { amount: formatPrice(r.lock_value) })}</span>
                    )}
                  </td>
                  <td>{r.notes || EMPTY}</td>
                  <td className="hide-sm muted">{r.memo || r.extra_data?.from || EMPTY}</td>
                  <td className="num muted">{formatDateTime(r.created_at)}</td>
                </tr>
              );
            })}
            {store.status === 'ready' && !store.rows.length && (
              <tr>
                <td colSpan={5} className="empty-cell" data-testid="records-empty">
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
