/**
 * Order book of the trade and lever screens: asks above (best at the bottom), last price, bids
 * below. A click on a level hands its price to the screen's form (`onPick`).
 */
import Big from 'big.js';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';

import { toBig, truncate } from '@/lib/format';

import type { PairMarketStore } from './stores/pair-market-store';
import type { DepthLevel } from './types';

/** Levels shown per side (a screen with less room passes fewer). */
export const BOOK_LEVELS = 12;

interface Row {
  level: DepthLevel;
  /** Amount summed from the best level to this one. */
  cumulative: Big;
}

function withCumulative(levels: DepthLevel[], shown: number): Row[] {
  let sum = new Big(0);
  return levels.slice(0, shown).map((level) => {
    sum = sum.plus(toBig(level.amount) ?? 0);
    return { level, cumulative: sum };
  });
}

export const OrderBook = observer(function OrderBook({
  market,
  onPick,
  levels = BOOK_LEVELS,
}: {
  market: PairMarketStore;
  /** A level was clicked: its price fills the form. */
  onPick: (price: string) => void;
  levels?: number;
}) {
  const { t } = useTranslation('spot');
  const pair = market.pair;
  const dp = market.priceDecimals;
  const qdp = market.quantityDecimals;
  const asks = withCumulative(market.asks, levels);
  const bids = withCumulative(market.bids, levels);
  const deepest = Math.max(Number(asks.at(-1)?.cumulative ?? 0), Number(bids.at(-1)?.cumulative ?? 0), 1e-18);

  const line = (row: Row, side: 'ask' | 'bid') => {
    // The bar width is only a picture of depth; Number is fine for a percentage.
    const width = Math.min(100, (Number(row.cumulative) / deepest) * 100);
    return (
      <button
        key={`${side}-${row.level.price}`}
        type="button"
        className={`tp-row tp-book-row ${side}`}
        title={t('book.fill')}
        data-testid={side === 'ask' ? 'book-ask-row' : 'book-bid-row'}
        data-price={row.level.price}
        onClick={() => onPick(row.level.price)}
      >
        <span className="tp-depth-bar" style={{ width: `${width}%` }} aria-hidden="true" />
        <span className={`num ${side === 'ask' ? 'down' : 'up'}`}>{truncate(row.level.price, dp)}</span>
        <span className="num">{truncate(row.level.amount, qdp)}</span>
        <span className="num">{truncate(row.cumulative.toFixed(), qdp)}</span>
      </button>
    );
  };

  return (
    <section className="tp-panel tp-book" data-testid="order-book">
      <h2 className="tp-title">{t('book.title')}</h2>
      <div className="tp-row tp-head">
        <span>{t('book.price', { quote: pair?.quote_currency_code ?? '' })}</span>
        <span className="num">{t('book.amount', { base: pair?.base_currency_code ?? '' })}</span>
        <span className="num">{t('book.total')}</span>
      </div>
      <div className="tp-book-side asks" style={{ minHeight: `calc(${levels} * var(--tp-row))` }}>{[...asks].reverse().map((row) => line(row, 'ask'))}</div>
      <div className={`tp-book-last ${market.lastMove ?? ''}`} data-testid="book-last-price">
        {truncate(market.quotation?.close, dp)}
        {market.lastMove === 'up' ? ' ↑' : market.lastMove === 'down' ? ' ↓' : ''}
      </div>
      <div className="tp-book-side bids" style={{ minHeight: `calc(${levels} * var(--tp-row))` }}>{bids.map((row) => line(row, 'bid'))}</div>
    </section>
  );
});
