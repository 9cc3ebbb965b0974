import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { LoadFailed } from '@/components/ui/load-failed';
import { paths } from '@/config/paths';
import { useLocale } from '@/hooks/use-locale';
import { usdValue } from '@/lib/fiat';
import { changeDirection, formatChange, formatPrice, formatVolume } from '@/lib/format';
import { useStores } from '@/stores/root-store';
import type { CurrencyMatch, Decimal } from '@/types/api';

import { PriceCell } from './price-cell';

const SKELETON_ROWS = 8;

/**
 * The live quote table of the home page and the all-markets page: pair, last price, change, high,
 * low, volume and a trade link, with "unreachable, retry" in its place when the pairs could not be read.
 */
export const MarketTable = observer(function MarketTable({
  rows,
  unreachable,
  testId,
  fiat,
  whenEmpty,
}: {
  rows: CurrencyMatch[];
  /** The pairs could not be read and none are shown: the retry block instead of the table. */
  unreachable: boolean;
  testId: string;
  /**
   * Adds the "≈ $" column after the last price: each quotation's live `usd_price`, or its close ×
   * `usdPrice` (the quote currency's live USD price) when a push moved the close without one.
   */
  fiat?: { usdPrice: Decimal | undefined };
  /** An empty table shows skeleton rows (waiting for the first quotes), or "no pairs" once loaded. */
  whenEmpty: 'skeleton' | 'message';
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { market } = useStores();
  const columns = fiat ? 8 : 7;

  if (unreachable) {
    return <LoadFailed message={t('market.unreachable')} retryLabel={t('market.retry')} onRetry={() => void market.load()} />;
  }
  return (
    <div className="table-wrap">
      <table className="data-table" data-testid={testId}>
        <thead>
          <tr>
            <th>{t('market.pair')}</th>
            <th className="num">{t('market.lastPrice')}</th>
            {fiat && <th className="num hide-sm">{t('markets.fiatValue')}</th>}
            <th className="num">{t('market.change')}</th>
            <th className="num hide-sm">{t('market.high')}</th>
            <th className="num hide-sm">{t('market.low')}</th>
            <th className="num hide-sm">{t('market.volume')}</th>
            <th className="num">{t('market.action')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((m) => {
            const q = m.currency_quotation;
            return (
              <tr key={m.id} data-testid="market-row">
                <td>
                  <span className="pair-base">{m.base_currency_code}</span>
                  <span className="muted">/{m.quote_currency_code}</span>
                </td>
                <td className="num">
                  <PriceCell match={m} tick={market.ticks.get(m.id)} />
                </td>
                {fiat && <td className="num hide-sm muted">≈ ${usdValue(q, fiat.usdPrice)}</td>}
                <td className="num">
                  <span className={`change-pill ${changeDirection(q?.change)}`}>{formatChange(q?.change)}</span>
                </td>
                <td className="num hide-sm">{formatPrice(q?.high, m.price_decimals)}</td>
                <td className="num hide-sm">{formatPrice(q?.low, m.price_decimals)}</td>
                <td className="num hide-sm">{formatVolume(q?.volume, locale)}</td>
                <td className="num">
                  <Link className="link-accent" to={paths.trade}>
                    {t('market.trade')}
                  </Link>
                </td>
              </tr>
            );
          })}
          {rows.length === 0 &&
            (whenEmpty === 'skeleton'
              ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
                  <tr key={i} className="row-skeleton">
                    <td colSpan={columns}>
                      <span className="skeleton-bar" />
                    </td>
                  </tr>
                ))
              : market.status !== 'loading' && (
                  <tr>
                    <td colSpan={columns} className="empty-cell muted">
                      {t('market.empty')}
                    </td>
                  </tr>
                ))}
        </tbody>
      </table>
    </div>
  );
});
