/**
 * A listing project (/listing/info?id, public; spec shell §2, §5): title, description, currency,
 * tokens issued and remaining, start, end, online date and the savings account's USDT; the form
 * takes a USDT amount (All fills the balance) and confirms. An amount of 0 or less shows the
 * no-funds message, more than the balance insufficient balance. The USDT applied stays locked for
 * 7 days; at the end what wins is allocated, the rest returns, and the tokens come on the online date.
 */
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { paths } from '@/config/paths';
import { formatDate, formatDateTime, formatPrice } from '@/lib/format';
import { useStores } from '@/stores/root-store';

import { ProductDetail, ProductDetailRoute, ProductForm } from '../common/product-detail';
import { AmountField, Facts } from '../common/ui';
import { createListingApi } from './api/listing-api';
import { ProjectStatusTag } from './components/parts';
import { ListingInfoStore } from './stores/listing-stores';
import { type ListingProject, PROJECT_STATUS } from './types';

import '../i18n';
import '../earn.css';

export default function ListingInfoPage() {
  return <ProductDetailRoute list={paths.listing}>{(id) => <ListingInfo key={id} id={id} />}</ProductDetailRoute>;
}

const ListingInfo = observer(function ListingInfo({ id }: { id: number }) {
  const { t } = useTranslation('earn');
  const [store] = useState(() => new ListingInfoStore(createListingApi(), id));
  useEffect(() => store.start(), [store]);
  const project = store.project.data;

  return (
    <ProductDetail testId="listing-info" list={paths.listing} listTitle={t('listing.title')} resource={store.project}
      product={project && {
        title: project.title,
        titleTestId: 'listing-title',
        status: <ProjectStatusTag status={project.status} />,
        ring: { description: project.desc, descriptionTestId: 'listing-desc', value: project.radio, testId: 'listing-progress' },
        side: <ApplyForm store={store} project={project} />,
        body: (
          <Facts testIdPrefix="listing"
            facts={[
              { key: 'currency', label: t('listing.currency'), value: project.bizhong },
              { key: 'price', label: t('listing.price'), value: `${formatPrice(project.price)} USDT` },
              { key: 'issued', label: t('listing.issued'), value: formatPrice(project.total) },
              { key: 'remaining', label: t('listing.remaining'), value: formatPrice(project.shengyu) },
              { key: 'start', label: t('common.start'), value: formatDateTime(project.btime) },
              { key: 'end', label: t('common.end'), value: formatDateTime(project.etime) },
              { key: 'online', label: t('listing.online'), value: formatDate(project.online) },
              { key: 'lock', label: t('listing.lockLabel'), value: t('common.days', { days: project.lock_days || 7 }) },
            ]} />
        ),
      }} />
  );
});

const ApplyForm = observer(function ApplyForm({ store, project }: { store: ListingInfoStore; project: ListingProject }) {
  const { t } = useTranslation('earn');
  const { session } = useStores();
  const running = project.status === PROJECT_STATUS.running;
  return (
    <ProductForm testId="listing-form" title={t('listing.apply')} loggedIn={session.isLoggedIn} onSubmit={() => void store.submit()}>
      <p className="muted">
        {t('listing.balance')} <strong className="num" data-testid="listing-balance">{formatPrice(project.money)}</strong> USDT
      </p>
      <AmountField label={t('listing.amount')} value={store.amount} unit="USDT" testId="listing-amount"
        placeholder={t('listing.amountPlaceholder')} onChange={(v) => store.setAmount(v)} onAll={() => store.fillAll()} />
      {store.problem && (
        <p className="form-error" role="alert" data-testid="listing-problem">
          {t(store.problem === 'noFunds' ? 'listing.problems.noFunds' : 'common.insufficient')}
        </p>
      )}
      <p className="muted earn-note">{t('listing.rule', { days: project.lock_days || 7 })}</p>
      <button type="submit" className="button block large" disabled={store.busy || (session.isLoggedIn && !running)}
        data-testid="listing-submit">
        {!session.isLoggedIn
          ? t('common.loginToBuy')
          : running
            ? t('common.confirm')
            : t(project.status === PROJECT_STATUS.upcoming ? 'listing.status.upcoming' : 'listing.status.ended')}
      </button>
    </ProductForm>
  );
});
