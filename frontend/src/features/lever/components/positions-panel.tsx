/**
 * The lever screen's bottom: the account's risk rate and total profit, the one-click close, the four
 * tabs (current pair's positions, all positions, all entrustments, all closed) with the contract's
 * fields, 10 a page, and the row actions (TP/SL, close, cancel). Rows follow the pushes and marks.
 */
import { observer } from 'mobx-react-lite';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ColumnsTable, type TableColumn } from '@/components/market/columns-table';
import { Pager } from '@/components/market/pager';
import { TabBar } from '@/components/market/tab-bar';
import { EMPTY, formatDateTime, positive, toBig, truncate } from '@/lib/format';

import { useLeverPage } from '../stores/lever-page-store';
import { POSITIONS_TABS, type PositionsTab } from '../stores/positions-store';
import { LONG, type Position } from '../types';
import { CloseAllDialog } from './close-all-dialog';
import { StopDialog } from './stop-dialog';

/** Amounts in USDT, cut to 4 places. */
export const usdt = (value: unknown): string => truncate(value, 4);

/** A price the position does not have ("0": no take-profit, no close) shows as --. */
const price = (value: unknown) => (positive(value) ? truncate(value, 4) : EMPTY);

const tone = (value: unknown) => {
  const n = toBig(value);
  return !n || n.eq(0) ? '' : n.gt(0) ? 'up' : 'down';
};

type Column = TableColumn<Position>;

export const PositionsPanel = observer(function PositionsPanel() {
  const { t } = useTranslation('lever');
  const { market, positions } = useLeverPage();
  const [stopFor, setStopFor] = useState<Position | null>(null);
  const [closingAll, setClosingAll] = useState(false);
  const tab = positions.tab;
  const profit = positions.totalProfit;

  const common: Column[] = [
    { key: 'time', head: t('table.time'), cell: (p) => formatDateTime(p.time, { year: false }) },
    { key: 'pair', head: t('table.pair'), cell: (p) => p.symbol },
    {
      key: 'direction',
      head: t('table.direction'),
      cell: (p) => <span className={p.type === LONG ? 'up' : 'down'}>{t(`types.${p.type}`)}</span>,
    },
    { key: 'hands', head: t('table.hands'), num: true, cell: (p) => p.share },
    { key: 'multiple', head: t('table.multiple'), num: true, cell: (p) => `${p.multiple}×` },
  ];
  const money: Column[] = [
    { key: 'margin', head: t('table.margin'), num: true, cell: (p) => usdt(p.caution_money) },
    { key: 'fee', head: t('table.fee'), num: true, cell: (p) => usdt(p.trade_fee) },
  ];
  const overnight: Column = { key: 'overnight', head: t('table.overnight'), num: true, cell: (p) => usdt(p.overnight_money) };
  const profitColumn: Column = {
    key: 'profit',
    head: t('table.profit'),
    num: true,
    cell: (p) => {
      const value = positions.liveProfit(p);
      return <span className={tone(value)}>{usdt(value)}</span>;
    },
  };
  const open: Column[] = [
    ...common,
    { key: 'open-price', head: t('table.openPrice'), num: true, cell: (p) => price(p.price) },
    { key: 'current-price', head: t('table.currentPrice'), num: true, cell: (p) => price(positions.livePrice(p)) },
    ...money,
    overnight,
    { key: 'tp', head: t('table.tp'), num: true, cell: (p) => price(p.target_profit_price) },
    { key: 'sl', head: t('table.sl'), num: true, cell: (p) => price(p.stop_loss_price) },
    profitColumn,
  ];
  const columns: Record<PositionsTab, Column[]> = {
    current: open,
    open,
    entrusted: [
      ...common,
      { key: 'target-price', head: t('table.targetPrice'), num: true, cell: (p) => price(p.target_price) },
      ...money,
      { key: 'status', head: t('table.status'), cell: (p) => t(`statuses.${p.status}` as 'statuses.0') },
    ],
    closed: [
      ...common,
      { key: 'open-price', head: t('table.openPrice'), num: true, cell: (p) => price(p.price) },
      { key: 'close-price', head: t('table.closePrice'), num: true, cell: (p) => price(p.close_price) },
      ...money,
      overnight,
      profitColumn,
      {
        key: 'reason',
        head: t('table.reason'),
        cell: (p) => (p.close_reason ? t(`reasons.${p.close_reason}`) : (p.close_reason_name ?? EMPTY)),
      },
    ],
  };
  const shown = columns[tab];
  const withActions = tab !== 'closed';

  const button = (label: string, testId: string, onClick: () => void, busy = false) => (
    <button type="button" className="tp-button ghost small" disabled={busy} onClick={onClick} data-testid={testId}>
      {label}
    </button>
  );
  const actions = (p: Position) => {
    const busy = positions.busy.includes(p.id);
    if (tab === 'entrusted') return button(t('table.cancel'), 'position-cancel', () => void positions.cancel(p), busy);
    return (
      <>
        {button(t('table.setStop'), 'position-stop', () => setStopFor(p))}{' '}
        {button(t('table.close'), 'position-close', () => void positions.close(p), busy)}
      </>
    );
  };
  const actionColumn: Column = { key: 'action', head: t('table.action'), className: 'act', cell: actions };

  return (
    <section className="tp-panel lv-positions" data-testid="lever-positions">
      <div className="tp-orders-bar">
        <TabBar
          tabs={POSITIONS_TABS.map((name) => ({ key: name, label: t(`tabs.${name}`), testId: `lever-tab-${name}` }))}
          active={tab}
          onSelect={(name) => positions.setTab(name)}
        />
        <div className="lv-account">
          <span>
            <span className="muted">{t('account.hazard')}</span>{' '}
            <strong className="num" data-testid="lever-hazard">
              {positions.hazardRate === null ? EMPTY : `${truncate(positions.hazardRate, 2)}%`}
            </strong>
          </span>
          <span>
            <span className="muted">{t('account.profit')}</span>{' '}
            <strong className={`num ${tone(profit)}`} data-testid="lever-profits">
              {profit === null ? EMPTY : usdt(profit)}
            </strong>
          </span>
          <button type="button" className="tp-button small" onClick={() => setClosingAll(true)} data-testid="lever-close-all">
            {t('account.closeAll')}
          </button>
        </div>
      </div>

      <ColumnsTable
        testId={`lever-table-${tab}`}
        columns={withActions ? [...shown, actionColumn] : shown}
        rows={positions.rows}
        rowKey={(p) => p.id}
        rowAttributes={(p) => ({
          'data-testid': 'position-row',
          'data-position-id': p.id,
          'data-status': p.status,
          'data-side': p.type,
        })}
        cellPrefix="position"
      />
      {positions.rows.length === 0 && (
        <p className="tp-note" data-testid="positions-empty">
          {positions.loading ? t('table.loading') : t('table.empty')}
        </p>
      )}
      <Pager page={positions.page} lastPage={positions.lastPage} onPage={(page) => positions.setPage(page)} testId="positions-pager" />
      {stopFor && <StopDialog position={stopFor} onClose={() => setStopFor(null)} />}
      {closingAll && <CloseAllDialog symbol={market.symbol} onClose={() => setClosingAll(false)} />}
    </section>
  );
});
