import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { Appeal } from '../api/types';
import { useAdmin } from '../stores/admin-store';
import { ConfirmDialog } from './confirm-dialog';
import { formatMs, Images, Loaded } from './shared';

const AppealCard = observer(function AppealCard({ appeal }: { appeal: Appeal }) {
  const { t } = useTranslation('admin');
  const { appeals } = useAdmin();
  const [to, setTo] = useState<'buyer' | 'seller' | null>(null);
  const side = t(`appeals.${appeal.appeal.by}`);
  return (
    <article className="adm-card" data-testid={`appeal-${appeal.id}`}>
      <h2>{t('appeals.order', { id: appeal.id })}</h2>
      <dl className="adm-facts">
        <dt>{appeal.side}</dt>
        <dd>
          {appeal.amount} {appeal.currency} × {appeal.price} = {appeal.total} {appeal.fiat} ({appeal.pay_method})
        </dd>
        <dt>{t('appeals.buyer')}</dt>
        <dd>#{appeal.buyer_id}</dd>
        <dt>{t('appeals.seller')}</dt>
        <dd>#{appeal.seller_id}</dd>
      </dl>
      <div className="adm-evidence">
        <section>
          <h3>{t('appeals.appealBy', { side })}</h3>
          <p><b>{t('appeals.reason')}:</b> {appeal.appeal.reason}</p>
          <Images urls={appeal.appeal.images} alt={appeal.appeal.images.map(() => t('appeals.images'))} />
        </section>
        <section data-testid={`appeal-reply-${appeal.id}`}>
          <h3>{t('appeals.replyBy', { side: t(`appeals.${appeal.appeal.by === 'buyer' ? 'seller' : 'buyer'}`) })}</h3>
          {appeal.appeal.reply ? (
            <>
              <p><b>{t('appeals.reason')}:</b> {appeal.appeal.reply.reason}</p>
              <Images urls={appeal.appeal.reply.images} alt={appeal.appeal.reply.images.map(() => t('appeals.images'))} />
            </>
          ) : (
            <p className="adm-muted">{t('appeals.noReply')}</p>
          )}
        </section>
        <section>
          <h3>{t('appeals.proof')}</h3>
          {appeal.proof ? <Images urls={[appeal.proof]} alt={[t('appeals.proof')]} /> : <p className="adm-muted">{t('appeals.noProof')}</p>}
        </section>
        <section>
          <h3>{t('appeals.journal')}</h3>
          <ol className="adm-journal">
            {appeal.events.map((e) => (
              <li key={e.seq}>
                {formatMs(e.at_ms)} · {e.by} → {e.to_state}
                {e.note && <> · {e.note}</>}
              </li>
            ))}
          </ol>
        </section>
      </div>
      <div className="adm-actions">
        <button type="button" className="adm-primary" onClick={() => setTo('buyer')}>{t('appeals.toBuyer')}</button>
        <button type="button" className="adm-danger" onClick={() => setTo('seller')}>{t('appeals.toSeller')}</button>
      </div>
      {to && (
        <ConfirmDialog
          message={t(to === 'buyer' ? 'appeals.confirmBuyer' : 'appeals.confirmSeller', { id: appeal.id })}
          withText={t('appeals.note')}
          onCancel={() => setTo(null)}
          onConfirm={(note) => {
            setTo(null);
            void appeals.resolve(appeal.id, to, note);
          }}
        />
      )}
    </article>
  );
});

/** Risk's P2P appeals with both sides' evidence and the journal; resolved after a confirmation. */
export const AppealsPage = observer(function AppealsPage() {
  const { appeals } = useAdmin();
  useEffect(() => void appeals.queue.load(), [appeals]);
  return (
    <>
      {appeals.error && <p className="adm-error" role="alert">{appeals.error}</p>}
      <Loaded resource={appeals.queue} empty={(d) => d.list.length === 0}>
        {(d) => d.list.map((a) => <AppealCard key={a.id} appeal={a} />)}
      </Loaded>
    </>
  );
});
