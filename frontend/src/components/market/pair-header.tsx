/** Header of the current pair: symbol, last price (and its ≈ $ live), 24 h change, high, low and volume. */
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';

import { useLocale } from '@/hooks/use-locale';
import { usdValue } from '@/lib/fiat';
import { EMPTY, formatChange, formatVolume, truncate } from '@/lib/format';

import { changeClass } from './change-class';
import type { PairMarketStore } from './stores/pair-market-store';

export const PairHeader = observer(function PairHeader({ market }: { market: PairMarketStore }) {
  const { t } = useTranslation('spot');
  const locale = useLocale();
  const q = market.quotation;
  const dp = market.priceDecimals;
  const tone = market.lastMove ?? changeClass(q?.change);

  return (
    <section className="tp-panel tp-header" data-testid="pair-header">
      <h1 className="tp-symbol" data-testid="pair-symbol">
        {market.symbol ?? EMPTY}
      </h1>
      <div className="tp-price">
        <div className={`tp-last ${tone}`} data-testid="last-price">
          {truncate(q?.close, dp)}
        </div>
        <div className="tp-fiat muted" data-testid="last-usd">
          ≈ ${usdValue(q, market.pairGroup?.usd_price)}
        </div>
      </div>
      <dl className="tp-stats">
        <div>
          <dt>{t('header.change')}</dt>
          <dd className={changeClass(q?.change)} data-testid="pair-change">
            {formatChange(q?.change)}
          </dd>
        </div>
        <div>
          <dt>{t('header.high')}</dt>
          <dd>{truncate(q?.high, dp)}</dd>
        </div>
        <div>
          <dt>{t('header.low')}</dt>
          <dd>{truncate(q?.low, dp)}</dd>
        </div>
        <div>
          <dt>{t('header.volume')}</dt>
          <dd data-testid="pair-volume">{formatVolume(q?.volume, locale)}</dd>
        </div>
      </dl>
    </section>
  );
});
