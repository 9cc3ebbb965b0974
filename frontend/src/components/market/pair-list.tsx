/**
 * Left panel of the trade and lever screens: quote-currency tabs and the pairs the screen lists
 * (the market store's `listed`) with price and coloured change (+ when ≥ 0).
 */
import { observer } from 'mobx-react-lite';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { formatChange, truncate } from '@/lib/format';

import { changeClass } from './change-class';
import { TabBar } from './tab-bar';
import type { PairMarketStore } from './stores/pair-market-store';

export const PairList = observer(function PairList({ market }: { market: PairMarketStore }) {
  const { t } = useTranslation('spot');
  const [query, setQuery] = useState('');
  const group = market.quoteGroup;
  const needle = query.trim().toUpperCase();
  const pairs = market.quotePairs.filter((m) => !needle || m.base_currency_code.toUpperCase().includes(needle));

  return (
    <section className="tp-panel tp-pairs" data-testid="pair-list">
      <TabBar
        className="tp-quote-tabs"
        tabs={market.tabs.map((g) => ({ key: g.id, label: g.code, testId: `quote-tab-${g.code}` }))}
        active={group?.id}
        onSelect={(id) => market.setQuote(id)}
      />
      <input
        className="tp-input tp-search"
        type="search"
        placeholder={t('pairs.search')}
        aria-label={t('pairs.search')}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <div className="tp-row tp-head">
        <span>{t('pairs.pair')}</span>
        <span className="num">{t('pairs.price')}</span>
        <span className="num">{t('pairs.change')}</span>
      </div>
      {market.status === 'loading' && <p className="tp-note">{t('pairs.loading')}</p>}
      {market.status === 'error' && (
        <div className="tp-note" role="alert">
          <p>{t('pairs.error')}</p>
          <button type="button" className="tp-button ghost" onClick={() => void market.load()}>
            {t('pairs.retry')}
          </button>
        </div>
      )}
      {market.status === 'ready' && pairs.length === 0 && <p className="tp-note">{t('pairs.empty')}</p>}
      <ul className="tp-pair-items">
        {pairs.map((m) => {
          const q = m.currency_quotation;
          const active = m.id === market.pairId;
          return (
            <li key={m.id}>
              <button
                type="button"
                className={active ? 'tp-row tp-pair active' : 'tp-row tp-pair'}
                aria-current={active ? 'true' : undefined}
                data-testid="pair-item"
                data-pair-id={m.id}
                data-symbol={m.symbol}
                onClick={() => market.selectPair(m.id)}
              >
                <span>
                  <strong>{m.base_currency_code}</strong>
                  <span className="muted">/{m.quote_currency_code}</span>
                </span>
                <span className="num">{truncate(q?.close, m.price_decimals ?? 4)}</span>
                <span className={`num ${changeClass(q?.change)}`}>{formatChange(q?.change)}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
});
