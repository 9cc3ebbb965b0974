/** The latest 30 trades of the pair: time, price (green for way 2, red otherwise: spec trading §3), amount. */
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';

import { tradeClass } from '@/components/market/change-class';
import { formatTime, truncate } from '@/lib/format';

import { useSpotPage } from '../stores/spot-page-store';

export const RecentTrades = observer(function RecentTrades() {
  const { t } = useTranslation('spot');
  const { market } = useSpotPage();
  const dp = market.priceDecimals;
  const qdp = market.quantityDecimals;

  return (
    <section className="tp-panel tp-trades" data-testid="recent-trades">
      <h2 className="tp-title">{t('trades.title')}</h2>
      <div className="tp-row tp-head">
        <span>{t('trades.time')}</span>
        <span className="num">{t('trades.price')}</span>
        <span className="num">{t('trades.amount')}</span>
      </div>
      {market.trades.length === 0 && <p className="tp-note">{t('trades.empty')}</p>}
      <ol className="tp-trade-items">
        {market.trades.map((tr) => (
          <li key={tr.id} className="tp-row" data-testid="trade-row">
            <span className="muted">{formatTime(tr.time || tr.timestamp)}</span>
            <span className={`num ${tradeClass(tr.way)}`}>{truncate(tr.price, dp)}</span>
            <span className="num">{truncate(tr.amount, qdp)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
});
