/**
 * Mining products (/mining/list, public; spec shell §2): the user's total hosted, expected today,
 * cumulative earnings and hosted count (zeros for a visitor), a button to the orders, and a card per
 * product (logo, title, minimum amount, daily yield, cycle) leading to its detail.
 */
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { formatPrice, truncate } from '@/lib/format';

import { ProductLogo } from '../common/logo';
import { Facts, ReadState } from '../common/ui';
import { createMiningApi } from './api/mining-api';
import { MiningStatusTag } from './components/parts';
import { MiningListStore } from './stores/mining-stores';
import type { MiningProduct } from './types';

import '../i18n';
import '../earn.css';

export default observer(function MiningListPage() {
  const { t } = useTranslation('earn');
  const [store] = useState(() => new MiningListStore(createMiningApi()));
  useEffect(() => store.start(), [store]);
  const info = store.index.data?.info;
  const list = store.index.data?.list ?? [];

  return (
    <div className="earn-page" data-testid="mining-list">
      <section className="panel earn-summary">
        <div className="earn-head">
          <h1>{t('mining.list.title')}</h1>
          <Link className="button" to={paths.miningOrder} data-testid="mining-go-orders">
            {t('mining.list.orders')}
          </Link>
        </div>
        <Facts testIdPrefix="mining-summary" className="wide"
          facts={[
            { key: 'total', label: t('mining.summary.total'), value: truncate(info?.total ?? 0) },
            { key: 'today', label: t('mining.summary.today'), value: truncate(info?.today ?? 0) },
            { key: 'shouyi', label: t('mining.summary.shouyi'), value: truncate(info?.shouyi ?? 0) },
            { key: 'nums', label: t('mining.summary.nums'), value: String(info?.nums ?? 0) },
          ]} />
      </section>
      <ReadState resource={store.index} empty={!list.length} />
      <div className="earn-grid">
        {list.map((p) => (
          <ProductCard key={p.id} product={p} />
        ))}
      </div>
    </div>
  );
});

function ProductCard({ product }: { product: MiningProduct }) {
  const { t } = useTranslation('earn');
  return (
    <Link className="panel earn-card earn-link" to={`${paths.miningInfo}?id=${product.id}`} data-testid="mining-product"
      data-id={product.id}>
      <div className="earn-card-head">
        <ProductLogo src={product.logo} title={product.title} />
        <h3>{product.title}</h3>
        <MiningStatusTag status={product.status} />
      </div>
      <p className="earn-rate">
        <strong className="up num" data-testid="mining-yield">{product.shouyi}%</strong>
        <span className="muted">{t('mining.dailyYield')}</span>
      </p>
      <dl className="earn-facts">
        <div>
          <dt className="muted">{t('mining.minimum')}</dt>
          <dd className="num" data-testid="mining-min">{formatPrice(product.mins)}</dd>
        </div>
        <div>
          <dt className="muted">{t('mining.cycle')}</dt>
          <dd className="num" data-testid="mining-cycle">{t('common.days', { days: product.zhouqi })}</dd>
        </div>
      </dl>
    </Link>
  );
}
