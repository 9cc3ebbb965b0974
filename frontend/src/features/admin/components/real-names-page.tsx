import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { RealNameReview } from '../api/types';
import { useAdmin } from '../stores/admin-store';
import { Images, Loaded } from './shared';

const Review = observer(function Review({ review }: { review: RealNameReview }) {
  const { t } = useTranslation('admin');
  const { realNames } = useAdmin();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const decide = async (approve: boolean) => {
    setBusy(true);
    await realNames.decide(review.user_id, approve, reason.trim());
    setBusy(false);
  };
  return (
    <article className="adm-card" data-testid={`realname-${review.user_id}`}>
      <dl className="adm-facts">
        <dt>{t('realNames.account')}</dt>
        <dd>{review.account} (#{review.user_id})</dd>
        <dt>{t('realNames.name')}</dt>
        <dd>{review.name}</dd>
        <dt>{t('realNames.cardId')}</dt>
        <dd>{review.card_id}</dd>
      </dl>
      <Images urls={review.images} alt={[t('realNames.front'), t('realNames.back'), t('realNames.hand')]} />
      <div className="adm-decide">
        <input name="reason" placeholder={t('common.reason')} value={reason} onChange={(e) => setReason(e.target.value)} />
        <button type="button" className="adm-primary" disabled={busy} onClick={() => decide(true)}>
          {t('common.approve')}
        </button>
        <button type="button" className="adm-danger" disabled={busy || !reason.trim()} title={t('common.reasonRequired')}
          onClick={() => decide(false)}>
          {t('common.reject')}
        </button>
      </div>
    </article>
  );
});

/** Support's queue: the three images side by side, approve, or reject with a reason. */
export const RealNamesPage = observer(function RealNamesPage() {
  const { realNames } = useAdmin();
  useEffect(() => void realNames.queue.load(), [realNames]);
  return (
    <>
      {realNames.error && <p className="adm-error" role="alert">{realNames.error}</p>}
      <Loaded resource={realNames.queue} empty={(d) => d.list.length === 0}>
        {(d) => d.list.map((r) => <Review key={r.user_id} review={r} />)}
      </Loaded>
    </>
  );
});
