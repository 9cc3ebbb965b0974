import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { htmlLangOf, isLang } from '@/i18n/languages';

import { useCurrencyMatches } from '../api/get-currency-matches';
import { changeDirection, formatChange, formatPrice, formatVolume } from '../utils/format';

export function MarketTable() {
  const { t, i18n } = useTranslation();
  const { state, reload } = useCurrencyMatches();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const locale = isLang(i18n.language) ? htmlLangOf(i18n.language) : undefined;

  if (state.status === 'loading') {
    return <p className="panel muted">{t('market.loading')}</p>;
  }

  if (state.status === 'error') {
    return (
      <div className="panel notice" role="alert">
        <p>{t('market.unreachable')}</p>
        <button type="button" className="button" onClick={reload}>
          {t('market.retry')}
        </button>
      </div>
    );
  }

  const groups = state.groups;
  const group = groups.find((g) => g.id === selectedId) ?? groups[0];
  if (!group) return <p className="panel muted">{t('market.empty')}</p>;

  return (
    <section className="panel">
      <div className="panel-head">
        <h2>{t('market.title')}</h2>
        <div className="tabs" role="tablist">
          {groups.map((g) => (
            <button
              key={g.id}
              type="button"
              role="tab"
              aria-selected={g.id === group.id}
              className={g.id === group.id ? 'tab active' : 'tab'}
              onClick={() => setSelectedId(g.id)}
            >
              {g.code || g.name}
            </button>
          ))}
        </div>
      </div>
      {group.matches.length === 0 ? (
        <p className="muted">{t('market.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table className="market-table">
            <thead>
              <tr>
                <th>{t('market.pair')}</th>
                <th className="num">{t('market.lastPrice')}</th>
                <th className="num">{t('market.change')}</th>
                <th className="num">{t('market.high')}</th>
                <th className="num">{t('market.low')}</th>
                <th className="num">{t('market.volume')}</th>
              </tr>
            </thead>
            <tbody>
              {group.matches.map((m) => {
                const q = m.currency_quotation;
                return (
                  <tr key={m.id}>
                    <td>
                      <strong>{m.base_currency_code}</strong>
                      <span className="muted">/{group.code}</span>
                    </td>
                    <td className="num">{formatPrice(q?.close)}</td>
                    <td className={`num ${changeDirection(q?.change)}`}>{formatChange(q?.change)}</td>
                    <td className="num">{formatPrice(q?.high)}</td>
                    <td className="num">{formatPrice(q?.low)}</td>
                    <td className="num">{formatVolume(q?.volume, locale)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
