import type { ParseKeys, TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { Pagination } from '@/components/ui/pagination';

import type { RecordsStore } from '../stores/records-store';
import { LoadFailed } from './wallet-layout';
import '../i18n';

/** One column of a records table. */
export interface RecordColumn<Row> {
  /** The header, a key of the wallet texts. */
  head: ParseKeys<'wallet'>;
  /** Classes of the header and of every cell (`num`, `hide-sm`). */
  className?: string;
  /** Further classes of the cells alone, fixed or by row (`muted`, `up` / `down`). */
  cellClassName?: string | ((row: Row) => string);
  /** The whole value as a tooltip, for a cell that may be cut short. */
  title?: (row: Row) => string;
  testId?: string;
  cell: (row: Row, t: TFunction<'wallet'>) => ReactNode;
}

/** What tells one records table from another: its columns and the names the browser tests use. */
export interface RecordsTableSpec<Row> {
  testId: string;
  rowTestId: string;
  /** The row's state as `data-status`, for rows that have one. */
  statusOf?: (row: Row) => number;
  columns: RecordColumn<Row>[];
}

function cellClass<Row>(column: RecordColumn<Row>, row: Row): string | undefined {
  const own = typeof column.cellClassName === 'function' ? column.cellClassName(row) : column.cellClassName;
  return [column.className, own].filter(Boolean).join(' ') || undefined;
}

/**
 * A paged list of the assets area (records, deposits, withdrawals): the spec's columns over a
 * RecordsStore, "empty" once an empty page is in, "failed, retry" instead when it could not be
 * read, and the pager below when there is more than one page (15 a page).
 */
function RecordsTableView<Row extends { id: number }>({ store, spec }: { store: RecordsStore<Row>; spec: RecordsTableSpec<Row> }) {
  const { t } = useTranslation('wallet');
  if (store.status === 'error') return <LoadFailed onRetry={() => void store.load()} />;
  return (
    <>
      <div className="table-wrap">
        <table className="data-table" data-testid={spec.testId} aria-busy={store.status === 'loading'}>
          <thead>
            <tr>
              {spec.columns.map((c) => (
                <th key={c.head} className={c.className}>
                  {t(c.head)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {store.rows.map((row) => (
              <tr key={row.id} data-testid={spec.rowTestId} data-status={spec.statusOf?.(row)}>
                {spec.columns.map((c) => (
                  <td key={c.head} className={cellClass(c, row)} title={c.title?.(row)} data-testid={c.testId}>
                    {c.cell(row, t)}
                  </td>
                ))}
              </tr>
            ))}
            {store.status === 'ready' && !store.rows.length && (
              <tr>
                <td colSpan={spec.columns.length} className="empty-cell" data-testid="records-empty">
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
}

export const RecordsTable = observer(RecordsTableView) as typeof RecordsTableView;
