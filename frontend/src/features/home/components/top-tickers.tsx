import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { PriceCell } from '@/components/market/price-cell';
import { paths } from '@/config/paths';
import { useLocale } from '@/hooks/use-locale';
import { usdValue } from '@/lib/fiat';
import { changeDirection, formatChange, formatCompact } from '@/lib/format';
import { TOP_TICKER_COUNT } from '@/stores/home-market-store';
import { useStores } from '@/stores/root-store';

/** The 6 top tickers: tradable pairs (open_change 1) with live price and change. */
export const TopTickers = observer(function TopTickers() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { market } = useStores();
  const tickers = market.topTickers;

  if (!tickers.length) {
    return (
      <div className="tickers" aria-busy={market.status === 'loading'}>
        {Array.from({ length: TOP_TICKER_COUNT }, (_, i) => (
          <div key={i} className="ticker skeleton" />
        ))}
      </div>
    );
  }

  return (
    <div className="tickers" data-testid="top-tickers">
      {tickers.map((m) => {
        const q = m.currency_quotation;
        const group = market.groupOf(m);
        return (
          <Link key={m.id} to={paths.trade} className="ticker" data-testid="ticker" data-pair={m.symbol}>
            <div className="ticker-head">
              <span className="ticker-symbol">{m.symbol}</span>
              <span className={`ticker-change ${changeDirection(q?.change)}`}>{formatChange(q?.change)}</span>
            </div>
            <PriceCell match={m} className="ticker-price" tick={market.ticks.get(m.id)} />
            <div className="ticker-foot muted">
              <span>≈ ${usdValue(q, group?.usd_price)}</span>
              <span>
                {t('market.vol')} {formatCompact(q?.volume, locale)}
              </span>
            </div>
          </Link>
        );
      })}
    </div>
  );
});
