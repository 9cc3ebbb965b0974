import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { MarketTable } from '@/components/market/market-table';
import { paths } from '@/config/paths';
import { useStores } from '@/stores/root-store';

/** The fixed 14 pairs, sorted by 24 h change, biggest gainer first. */
export const HomeMarketTable = observer(function HomeMarketTable() {
  const { t } = useTranslation();
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
      <MarketTable rows={rows} unreachable={market.status === 'error' && !rows.length} testId="home-market-table"
        whenEmpty="skeleton" />
    </section>
  );
});
