/**
 * Token sales (/shoufa, public; spec shell §2): tabs All (99), In progress (0), Completed (1); cards
 * in two columns with logo, title, status tag, total, start and end, and the circular progress.
 */
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { formatDateTime, formatPrice } from '@/lib/format';

import { ProductLogo } from '../common/logo';
import { ProgressRing } from '../common/progress-ring';
import { type EarnTab, Tabs } from '../common/tabs';
import { ReadState } from '../common/ui';
import { createSalesApi } from './api/sales-api';
import { SaleStatusTag } from './components/parts';
import { SalesListStore } from './stores/sales-stores';
import type { Sale, SaleFilter } from './types';

import '../i18n';
import '../earn.css';

export default observer(function SalesPage() {
  const { t } = useTranslation('earn');
  const [store] = useState(() => new SalesListStore(createSalesApi()));
  useEffect(() => store.start(), [store]);
  const sales = store.sales.data ?? [];
  const tabs: EarnTab<SaleFilter>[] = [
    { key: 99, label: t('sales.tabs.all'), testId: 'shoufa-tab-99' },
    { key: 0, label: t('sales.tabs.running'), testId: 'shoufa-tab-0' },
    { key: 1, label: t('sales.tabs.done'), testId: 'shoufa-tab-1' },
  ];

  return (
    <div className="earn-page" data-testid="shoufa-page">
      <div className="earn-head">
        <div>
          <h1>{t('sales.title')}</h1>
          <p className="muted">{t('sales.intro')}</p>
        </div>
      </div>
      <Tabs tabs={tabs} active={store.filter} onSelect={(k) => store.setFilter(k)} label={t('sales.title')} />
      <ReadState resource={store.sales} empty={!sales.length} />
      <div className="earn-grid two">
        {sales.map((s) => (
          <SaleCard key={s.id} sale={s} />
        ))}
      </div>
    </div>
  );
});

function SaleCard({ sale }: { sale: Sale }) {
  const { t } = useTranslation('earn');
  return (
    <Link className="panel earn-card earn-link earn-ring-card" to={`${paths.shoufaInfo}?id=${sale.id}`}
      data-testid="sale-card" data-id={sale.id}>
      <div className="earn-ring-card-body">
        <div className="earn-card-head">
          <ProductLogo src={sale.logo} title={sale.title} />
          <h3 data-testid="sale-title">{sale.title}</h3>
          <SaleStatusTag sale={sale} />
        </div>
        <dl className="earn-facts">
          <div>
            <dt className="muted">{t('sales.total')}</dt>
            <dd className="num" data-testid="sale-total">{formatPrice(sale.total)} {sale.huodong}</dd>
          </div>
          <div>
            <dt className="muted">{t('common.start')}</dt>
            <dd className="num">{formatDateTime(sale.btime)}</dd>
          </div>
          <div>
            <dt className="muted">{t('common.end')}</dt>
            <dd className="num">{formatDateTime(sale.etime)}</dd>
          </div>
        </dl>
      </div>
      <ProgressRing value={sale.jindu} testId="sale-progress" />
    </Link>
  );
}
