/**
 * The second-contract history: "in progress" (with a countdown per row) and "closed" (outcome, open
 * and end price, profit, and the proof of each), 10 a page, every pair or only the shown one.
 */
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';

import { ColumnsTable, type TableColumn } from '@/components/market/columns-table';
import { Pager } from '@/components/market/pager';
import { TabBar } from '@/components/market/tab-bar';
import { formatClock } from '@/lib/countdown';
import { changeDirection, EMPTY, formatDateTime, formatPrice, truncate } from '@/lib/format';

import { HISTORY_TABS, type HistoryTab } from '../stores/history-store';
import { useMicroPage } from '../stores/micro-page-store';
import { type MicroOrder, STATUS, UP } from '../types';
import { ProofDialog } from './proof-dialog';

/** Stakes and profits, cut to 4 places. */
const amount = (value: unknown): string => truncate(value, 4);

/** A price the order does not have yet (null) shows as --. */
const price = (value: string | null) => (value === null ? EMPTY : formatPrice(value));

type Column = TableColumn<MicroOrder>;

export const HistoryPanel = observer(function HistoryPanel() {
  const { t } = useTranslation('micro');
  const { history, proof } = useMicroPage();
  const tab = history.tab;

  const outcome = (o: MicroOrder) =>
    o.outcome ? <span className={o.outcome === 'win' ? 'up' : o.outcome === 'loss' ? 'down' : ''}>{t(`outcomes.${o.outcome}`)}</span> : EMPTY;

  const common: Column[] = [
    { key: 'time', head: t('table.time'), cell: (o) => formatDateTime(o.time, { year: false }) },
    { key: 'pair', head: t('table.pair'), cell: (o) => o.symbol_name },
    {
      key: 'direction',
      head: t('table.direction'),
      cell: (o) => <span className={o.type === UP ? 'up' : 'down'}>{t(`types.${o.type}`)}</span>,
    },
    { key: 'stake', head: t('table.stake'), num: true, cell: (o) => `${amount(o.number)} ${o.currency_name}` },
    { key: 'duration', head: t('table.duration'), num: true, cell: (o) => t('form.seconds', { seconds: o.seconds }) },
    { key: 'percent', head: t('table.percent'), num: true, cell: (o) => t('form.percent', { percent: formatPrice(o.profit_ratio) }) },
  ];
  const columns: Record<HistoryTab, Column[]> = {
    open: [
      ...common,
      {
        key: 'open-price',
        head: t('table.openPrice'),
        num: true,
        cell: (o) => (o.open_price === null ? <span className="muted">{t('table.waiting')}</span> : price(o.open_price)),
      },
      {
        key: 'remaining',
        head: t('table.remaining'),
        num: true,
        cell: (o) => {
          if (o.status === STATUS.closed) return outcome(o);
          const left = history.secondsLeft(o);
          return left > 0 ? <strong className="sc-clock">{formatClock(left)}</strong> : <span className="muted">{t('table.settling')}</span>;
        },
      },
    ],
    closed: [
      ...common,
      { key: 'open-price', head: t('table.openPrice'), num: true, cell: (o) => price(o.open_price) },
      { key: 'end-price', head: t('table.endPrice'), num: true, cell: (o) => price(o.end_price) },
      {
        key: 'profit',
        head: t('table.profit'),
        num: true,
        cell: (o) => <span className={changeDirection(o.fact_profits)}>{amount(o.fact_profits)}</span>,
      },
      { key: 'outcome', head: t('table.outcome'), cell: outcome },
      {
        key: 'action',
        head: t('table.action'),
        cell: (o) => (
          <button type="button" className="tp-button ghost small" onClick={() => void proof.open(o.id)} data-testid="micro-proof">
            {t('table.proof')}
          </button>
        ),
      },
    ],
  };

  return (
    <section className="tp-panel sc-history" data-testid="second-history">
      <div className="tp-orders-bar">
        <TabBar
          tabs={HISTORY_TABS.map((name) => ({ key: name, label: t(`tabs.${name}`), testId: `second-tab-${name}` }))}
          active={tab}
          onSelect={(name) => history.setTab(name)}
        />
        <label className="sc-check">
          <input
            type="checkbox"
            checked={history.pairOnly}
            onChange={(e) => history.setPairOnly(e.target.checked)}
            data-testid="second-pair-only"
          />{' '}
          {t('pairOnly')}
        </label>
      </div>

      <ColumnsTable
        testId={`second-table-${tab}`}
        columns={columns[tab]}
        rows={history.rows}
        rowKey={(o) => o.id}
        rowAttributes={(o) => ({
          'data-testid': 'micro-row',
          'data-order-id': o.id,
          'data-status': o.status,
          'data-outcome': o.outcome ?? '',
          'data-type': o.type,
        })}
        cellPrefix="micro"
      />
      {history.rows.length === 0 && (
        <p className="tp-note" data-testid="second-history-empty">
          {history.loading ? t('table.loading') : t('table.empty')}
        </p>
      )}
      <Pager page={history.page} lastPage={history.lastPage} onPage={(page) => history.setPage(page)} testId="second-pager" />
      {proof.orderId !== null && <ProofDialog />}
    </section>
  );
});
