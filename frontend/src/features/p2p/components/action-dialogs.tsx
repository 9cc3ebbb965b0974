/**
 * The confirmation of an order's action: "I have paid" (with an optional payment proof), cancel
 * (with the daily limit's warning), release (with the deal password) and appeal (a reason of 10-500
 * characters and up to 3 images).
 */
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { FormError } from '@/components/form/form-error';
import { Dialog } from '@/components/ui/dialog';
import { paths } from '@/config/paths';
import { formatPrice } from '@/lib/format';

import { APPEAL_IMAGES_MAX, APPEAL_MAX } from '../lib/rules';
import type { OrderStore } from '../stores/order-store';
import type { OrderAction, OrderDetail } from '../types';

import '../i18n';

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

export const ActionDialog = observer(function ActionDialog({
  store,
  order,
  action,
}: {
  store: OrderStore;
  order: OrderDetail;
  action: OrderAction;
}) {
  const { t } = useTranslation('p2p');
  const total = `${formatPrice(order.total, 2)} ${order.fiat}`;
  const danger = action === 'cancel';
  const problem = store.problem;
  return (
    <Dialog title={t(`dialogs.${action}.title`)} onClose={() => store.dismiss()} testId={`p2p-${action}-dialog`}
      actions={
        <>
          <button type="button" className="button ghost" onClick={() => store.dismiss()} data-testid={`p2p-${action}-dialog-cancel`}>
            {t('common.back')}
          </button>
          <button type="button" className={danger ? 'button p2p-danger' : 'button'} disabled={store.busy}
            onClick={() => void store.confirm()} data-testid={`p2p-${action}-dialog-ok`}>
            {store.busy ? t('common.sending') : t(`dialogs.${action}.ok`)}
          </button>
        </>
      }>
      <p>{t(`dialogs.${action}.text`, { total, amount: `${order.amount} ${order.currency}` })}</p>
      {action === 'paid' && (
        <ImagePicker label={t('dialogs.paid.proof')} urls={store.proof ? [store.proof] : []}
          onFile={(f) => void store.uploadProof(f)} onRemove={() => store.clearProof()} max={1} testId="p2p-proof-upload" />
      )}
      {action === 'release' && (
        <>
          <label className="field">
            <span>{t('dialogs.release.password')}</span>
            <input className="input" type="password" name="pay_password" autoComplete="off" value={store.password}
              onChange={(e) => store.setPassword(e.target.value)}
              onKeyDown={(e) => e.key === 'Enter' && void store.confirm()} data-testid="p2p-pay-password" />
          </label>
          <Link className="link-accent p2p-small" to={paths.tradePassword}>
            {t('dialogs.release.setPassword')}
          </Link>
        </>
      )}
      {(action === 'appeal' || action === 'reply') && (
        <>
          <label className="field">
            <span>{t('dialogs.appeal.reason')}</span>
            <textarea className="input p2p-textarea" maxLength={APPEAL_MAX} value={store.reason}
              onChange={(e) => store.setReason(e.target.value)} data-testid="p2p-appeal-reason-input" />
            <span className="muted p2p-small p2p-counter">
              {[...store.reason.trim()].length} / {APPEAL_MAX}
            </span>
          </label>
          <ImagePicker label={t('dialogs.appeal.images', { max: APPEAL_IMAGES_MAX })} urls={store.images}
            onFile={(f) => void store.addImage(f)} onRemove={(u) => store.removeImage(u)} max={APPEAL_IMAGES_MAX}
            testId="p2p-appeal-upload" />
        </>
      )}
      <FormError message={problem ? t(`dialogs.problems.${problem}`) : null} />
    </Dialog>
  );
});

/** Uploaded images as thumbnails with a remove button, and a picker while fewer than `max`. */
function ImagePicker({
  label,
  urls,
  onFile,
  onRemove,
  max,
  testId,
}: {
  label: string;
  urls: readonly string[];
  onFile: (file: File) => void;
  onRemove: (url: string) => void;
  max: number;
  testId: string;
}) {
  const { t } = useTranslation('p2p');
  return (
    <div className="field" data-testid={testId}>
      <span>{label}</span>
      <div className="p2p-thumbs">
        {urls.map((url) => (
          <span key={url} className="p2p-thumb">
            <img src={url} alt="" />
            <button type="button" className="p2p-thumb-x" aria-label={t('common.remove')} onClick={() => onRemove(url)}>
              ×
            </button>
          </span>
        ))}
        {urls.length < max && (
          <label className="p2p-thumb p2p-thumb-add">
            <span aria-hidden="true">+</span>
            <span className="p2p-small">{t('common.addImage')}</span>
            <input type="file" accept={ACCEPT} className="p2p-file" data-testid={`${testId}-file`}
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) onFile(file);
                e.target.value = '';
              }} />
          </label>
        )}
      </div>
    </div>
  );
}
