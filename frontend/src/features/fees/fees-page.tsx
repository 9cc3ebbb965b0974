/**
 * The fee schedule (/fees, public): each pair's spot maker and taker fee and its lever fee
 * (market/currency_matches), each currency's withdrawal fee and bounds (block_chain/currency_protocols),
 * and, under the trading fees, the spec's illustration of a fee on 10,000 USDT (schedule.ts). The
 * schedule's figures are the server's; sums are big.js, shown with the shared helpers of lib/format.ts.
 */
import { observer } from 'mobx-react-lite';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ReadState as SharedReadState } from '@/components/ui/read-state';
import { useLocale } from '@/hooks/use-locale';
import { EMPTY, formatPrice, formatVolume } from '@/lib/format';
import type { Loadable } from '@/lib/loadable';

import { createFeesApi } from './api/fees-api';
import { FeesStore } from './stores/fees-store';
import { FEE_ILLUSTRATION, illustrate } from './lib/schedule';

import './i18n';
import './fees.css';

const percent = (value: string | null) => (value === null ? EMPTY : `${value}%`);

function ReadState({ resource, empty }: { resource: Loadable<unknown>; empty: boolean }) {
  const { t } = useTranslation('fees');
  const texts = { loading: t('loading'), loadFailed: t('loadFailed'), retry: t('retry'), empty: t('empty') };
  return <SharedReadState resource={resource} empty={empty} texts={texts} testIdPrefix="fees" />;
}

/** A table of the page: the first column names the row, the others are figures. */
function FeeTable({ columns, children }: { columns: string[]; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table className="data-table">
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th key={c} className={i ? 'num' : undefined}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A section of the page: its title, what it means, then its table, or the state of the read it shows. */
function Section({ testId, title, note, read, empty = false, children }: {
  testId: string;
  title: string;
  note: string;
  read?: Loadable<unknown>;
  /** Nothing to list (the read answered, or has not yet). */
  empty?: boolean;
  children: ReactNode;
}) {
  return (
    <section className="panel fees-section" data-testid={testId}>
      <h2>{title}</h2>
      <p className="muted">{note}</p>
      {read && <ReadState resource={read} empty={empty} />}
      {!empty && children}
    </section>
  );
}

/** The spec's worked example: the fee of each illustrated rate on the illustrated amount. */
export function FeeExample() {
  const { t } = useTranslation('fees');
  const locale = useLocale();
  const { amount, currency } = FEE_ILLUSTRATION;
  const money = (value: string) => `${formatVolume(value, locale)} ${currency}`;
  return (
    <Section testId="fees-example" title={t('example.title')} note={t('example.text', { amount: money(amount) })}>
      <FeeTable columns={[t('example.amount'), t('example.rate'), t('example.fee'), t('example.rest')]}>
        {illustrate().map((row) => (
          <tr key={row.rate} data-testid={`fees-example-${row.percent}`}>
            <td>{money(amount)}</td>
            <td className="num">{percent(row.percent)}</td>
            <td className="num" data-testid="fees-example-fee">{money(row.fee)}</td>
            <td className="num">{money(row.rest)}</td>
          </tr>
        ))}
      </FeeTable>
      <p className="muted fees-formula">{t('example.formula')}</p>
    </Section>
  );
}

const Trading = observer(function Trading({ store }: { store: FeesStore }) {
  const { t } = useTranslation('fees');
  const rows = store.trading;
  return (
    <Section testId="fees-trading" title={t('trading.title')} note={t('trading.note')} read={store.groups}
      empty={!rows.length}>
      <FeeTable columns={[t('trading.pair'), t('trading.maker'), t('trading.taker'), t('trading.lever')]}>
        {rows.map((p) => (
          <tr key={p.id} data-testid={`fees-pair-${p.id}`}>
            <td className="pair-base">{p.symbol}</td>
            <td className="num" data-testid="fees-maker">{percent(p.maker)}</td>
            <td className="num" data-testid="fees-taker">{percent(p.taker)}</td>
            <td className="num" data-testid="fees-lever">{percent(p.lever)}</td>
          </tr>
        ))}
      </FeeTable>
    </Section>
  );
});

const Withdrawals = observer(function Withdrawals({ store }: { store: FeesStore }) {
  const { t } = useTranslation('fees');
  const rows = store.withdrawals;
  return (
    <Section testId="fees-withdrawals" title={t('withdraw.title')} note={t('withdraw.note')} read={store.currencies}
      empty={!rows.length}>
      <FeeTable columns={[t('withdraw.currency'), t('withdraw.rate'), t('withdraw.min'), t('withdraw.max')]}>
        {rows.map((c) => (
          <tr key={c.code} data-testid={`fees-currency-${c.code}`}>
            <td className="pair-base">{c.code}</td>
            {c.open ? (
              <>
                <td className="num" data-testid="fees-draw-rate">{percent(c.percent)}</td>
                <td className="num" data-testid="fees-draw-min">{formatPrice(c.min)}</td>
                <td className="num" data-testid="fees-draw-max">{formatPrice(c.max)}</td>
              </>
            ) : (
              <td className="num muted" colSpan={3}>{t('withdraw.closed')}</td>
            )}
          </tr>
        ))}
      </FeeTable>
    </Section>
  );
});

export default observer(function FeesPage() {
  const { t } = useTranslation('fees');
  const [store] = useState(() => new FeesStore(createFeesApi()));
  useEffect(() => store.start(), [store]);
  return (
    <div className="fees-page" data-testid="fees-page">
      <div>
        <h1>{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
      </div>
      <Trading store={store} />
      <FeeExample />
      <Withdrawals store={store} />
    </div>
  );
});
