import { observer } from 'mobx-react-lite';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { PriceCell } from '@/components/market/price-cell';
import { paths } from '@/config/paths';
import { useLiveMarket } from '@/hooks/use-live-market';
import { useLocale } from '@/hooks/use-locale';
import { changeDirection, convert, formatChange, formatPrice, formatVolume } from '@/lib/format';
import { useStores } from '@/stores/root-store';

import './markets.css';

/** All markets (spec §2): a quote table with one tab per quote currency, live. */
const MarketsPage = observer(function MarketsPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { market } = useStores();
  const [groupId, setGroupId] = useState<number | null>(null);
  const [query, setQuery] = useState('');
  useLiveMarket();

  const group = market.groups.find((g) => g.id === groupId) ?? market.groups[0];
  const needle = query.trim().toUpperCase();
  const rows = (group?.matches ?? []).filter((m) => !needle || m.symbol.toUpperCase().includes(needle));

  return (
    <div className="markets-page">
      <div className="markets-head">
        <h1>{t('markets.title')}</h1>
        <input className="input search" type="search" value={query} placeholder={t('markets.search')}
          aria-label={t('markets.search')} onChange={(e) => setQuery(e.target.value)} />
      </div>
      <section className="panel">
        <div className="tabs" role="tablist" aria-label={t('markets.quoteTabs')}>
          {market.groups.map((g) => (
            <button key={g.id} type="button" role="tab" aria-selected={g.id === group?.id}
              className={g.id === group?.id ? 'tab active' : 'tab'} onClick={() => setGroupId(g.id)}>
              {g.code}
            </button>
          ))}
        </div>
        {market.status === 'error' && !market.groups.length ? (
          <div className="empty" role="alert">
            <p>{t('market.unreachable')}</p>
            <button type="button" className="button small" onClick={() => void market.load()}>
              {t('market.retry')}
            </button>
          </div>
        ) : (
          <div className="table-wrap">
            <table className="data-table" data-testid="markets-table">
              <thead>
                <tr>
                  <th>{t('market.pair')}</th>
                  <th className="num">{t('market.lastPrice')}</th>
                  <th className="num hide-sm">{t('markets.fiatValue')}</th>
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
                      <td className="num hide-sm muted">
                        ≈ ${convert(q?.close, group?.usd_price)}
                      </td>
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
                {market.status !== 'loading' && rows.length === 0 && (
                  <tr>
                    <td colSpan={8} className="empty-cell muted">
                      {t('market.empty')}
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
});

export default MarketsPage;
