import { useTranslation } from 'react-i18next';

import { MarketTable } from '@/features/market/components/market-table';

export function HomeRoute() {
  const { t } = useTranslation();
  return (
    <section className="home">
      <h1 className="home-title">{t('app.name')}</h1>
      <MarketTable />
    </section>
  );
}
