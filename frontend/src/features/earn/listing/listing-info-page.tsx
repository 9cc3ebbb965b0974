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
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { formatDate, formatDateTime, formatPrice } from '@/lib/format';
import { useStores } from '@/stores/root-store';

import { NoSuchProduct } from '../common/not-found';
import { ProgressRing } from '../common/progress-ring';
import { AmountField, Facts, ReadState } from '../common/ui';
import { useQueryId } from '../common/use-id';
import { useSendToLogin } from '@/hooks/use-send-to-login';
import { createListingApi } from './api/listing-api';
import { ProjectStatusTag } from './components/parts';
import { ListingInfoStore } from './stores/listing-stores';
import { type ListingProject, PROJECT_STATUS } from './types';

import '../i18n';
import '../earn.css';

export default function ListingInfoPage() {
  const id = useQueryId();
  if (id === null) return <NoSuchProduct back={paths.listing} />;
  return <ListingInfo key={id} id={id} />;
}

const ListingInfo = observer(function ListingInfo({ id }: { id: number }) {
  const { t } = useTranslation('earn');
  const [store] = useState(() => new ListingInfoStore(createListingApi(), id));
  useEffect(() => store.start(), [store]);
  const project = store.project.data;

  return (
    <div className="earn-page" data-testid="listing-info">
      <Link className="link-accent" to={paths.listing}>
        ← {t('listing.title')}
      </Link>
      <ReadState resource={store.project} />
      {project && (
        <div className="earn-detail">
          <section className="panel">
            <div className="earn-card-head">
              <h1 data-testid="listing-title">{project.title}</h1>
              <ProjectStatusTag status={project.status} />
            </div>
            <div className="earn-ring-card">
              <p className="earn-desc" data-testid="listing-desc">{project.desc}</p>
              <div className="earn-ring-side">
                <ProgressRing value={project.radio} size={120} testId="listing-progress" />
              </div>
            </div>
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
          </section>
          <ApplyForm store={store} project={project} />
        </div>
      )}
    </div>
  );
});

const ApplyForm = observer(function ApplyForm({ store, project }: { store: ListingInfoStore; project: ListingProject }) {
  const { t } = useTranslation('earn');
  const { session } = useStores();
  const sendToLogin = useSendToLogin();
  const running = project.status === PROJECT_STATUS.running;
  return (
    <section className="panel earn-form" data-testid="listing-form">
      <h2>{t('listing.apply')}</h2>
      <form className="earn-form-body" noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!session.isLoggedIn) sendToLogin();
          else void store.submit();
        }}>
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
      </form>
    </section>
  );
});
