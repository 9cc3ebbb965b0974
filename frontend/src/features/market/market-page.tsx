import { observer } from 'mobx-react-lite';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { MarketTable } from '@/components/market/market-table';
import { useLiveMarket } from '@/hooks/use-live-market';
import { useStores } from '@/stores/root-store';

import './market-page.css';

/** All markets (spec §2): a quote table with one tab per quote currency, live. */
const MarketPage = observer(function MarketPage() {
  const { t } = useTranslation();
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
        <MarketTable rows={rows} unreachable={market.status === 'error' && !market.groups.length}
          testId="markets-table" fiat={{ usdPrice: group?.usd_price }} whenEmpty="message" />
      </section>
    </div>
  );
});

export default MarketPage;
