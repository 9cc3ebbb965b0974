/**
 * Listing applications (/listing, public; spec shell §2): the user's application count and a button
 * to the records, then a card per project with its status, the 7-day lock, the currency, the tokens
 * issued and remaining, and the circular progress.
 */
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { formatPrice } from '@/lib/format';

import { ProgressRing } from '../common/progress-ring';
import { ReadState, StatusTag } from '../common/ui';
import { createListingApi } from './api/listing-api';
import { ProjectStatusTag } from './components/parts';
import { ListingListStore } from './stores/listing-stores';
import type { ListingProject } from './types';

import '../i18n';
import '../earn.css';

export default observer(function ListingPage() {
  const { t } = useTranslation('earn');
  const [store] = useState(() => new ListingListStore(createListingApi()));
  useEffect(() => store.start(), [store]);
  const list = store.index.data?.list ?? [];

  return (
    <div className="earn-page" data-testid="listing-page">
      <div className="earn-head">
        <div>
          <h1>{t('listing.title')}</h1>
          <p className="muted">{t('listing.intro')}</p>
        </div>
        <div className="earn-head-actions">
          <span className="muted">
            {t('listing.applications')} <strong className="num" data-testid="listing-count">{store.index.data?.nums ?? 0}</strong>
          </span>
          <Link className="button" to={paths.listingOrder} data-testid="listing-go-orders">
            {t('listing.records.title')}
          </Link>
        </div>
      </div>
      <ReadState resource={store.index} empty={!list.length} />
      <div className="earn-grid two">
        {list.map((p) => (
          <ProjectCard key={p.id} project={p} />
        ))}
      </div>
    </div>
  );
});

function ProjectCard({ project }: { project: ListingProject }) {
  const { t } = useTranslation('earn');
  return (
    <Link className="panel earn-card earn-link earn-ring-card" to={`${paths.listingInfo}?id=${project.id}`}
      data-testid="listing-card" data-id={project.id}>
      <div className="earn-ring-card-body">
        <div className="earn-card-head">
          <h3 data-testid="listing-title">{project.title}</h3>
          <ProjectStatusTag status={project.status} />
          <StatusTag tone="soon" testId="listing-lock">{t('listing.lock', { days: project.lock_days || 7 })}</StatusTag>
        </div>
        <dl className="earn-facts">
          <div>
            <dt className="muted">{t('listing.currency')}</dt>
            <dd className="pair-base" data-testid="listing-currency">{project.bizhong}</dd>
          </div>
          <div>
            <dt className="muted">{t('listing.issued')}</dt>
            <dd className="num" data-testid="listing-issued">{formatPrice(project.total)}</dd>
          </div>
          <div>
            <dt className="muted">{t('listing.remaining')}</dt>
            <dd className="num" data-testid="listing-remaining">{formatPrice(project.shengyu)}</dd>
          </div>
        </dl>
      </div>
      <ProgressRing value={project.radio} testId="listing-progress" />
    </Link>
  );
}
