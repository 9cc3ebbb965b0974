import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { PriceCell } from '@/components/market/price-cell';
import { paths } from '@/config/paths';
import { useLocale } from '@/hooks/use-locale';
import { changeDirection, formatChange, formatPrice, formatVolume } from '@/lib/format';
import { useStores } from '@/stores/root-store';

/** The fixed 14 pairs, sorted by 24 h change, biggest gainer first. */
export const HomeMarketTable = observer(function HomeMarketTable() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { market } = useStores();
  const rows = market.homeRows;

  return (
    <section className="panel home-markets">
      <div className="panel-head">
        <h2>{t('home.marketTitle')}</h2>
        <Link to={paths.markets} className="link-accent">
          {t('home.allMarkets')}
        </Link>
      </div>
      {market.status === 'error' && !rows.length ? (
        <div className="empty" role="alert">
          <p>{t('market.unreachable')}</p>
          <button type="button" className="button small" onClick={() => void market.load()}>
            {t('market.retry')}
          </button>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="data-table" data-testid="home-market-table">
            <thead>
              <tr>
                <th>{t('market.pair')}</th>
                <th className="num">{t('market.lastPrice')}</th>
                <th className="num">{t('market.change')}</th>
                <th className="num hide-sm">{t('market.high')}</th>
                <th className="num hide-sm">{t('market.low')}</th>
                <th className="num hide-sm">{t('market.volume')}</th>
                <th className="num">{t('market.action')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 &&
                Array.from({ length: 8 }, (_, i) => (
                  <tr key={i} className="row-skeleton">
                    <td colSpan={7}>
                      <span className="skeleton-bar" />
                    </td>
                  </tr>
                ))}
              {rows.map((m) => {
                const q = m.currency_quotation;
                const dir = changeDirection(q?.change);
                return (
                  <tr key={m.id} data-testid="market-row">
                    <td>
                      <span className="pair-base">{m.base_currency_code}</span>
                      <span className="muted">/{m.quote_currency_code}</span>
                    </td>
                    <td className="num">
                      <PriceCell match={m} tick={market.ticks.get(m.id)} />
                    </td>
                    <td className="num">
                      <span className={`change-pill ${dir}`}>{formatChange(q?.change)}</span>
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
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
});
