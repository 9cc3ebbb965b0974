import { useTranslation } from 'react-i18next';

import type { ChangeState } from '../stores/settings-form';

/** A settings form's end: the reason (required to save), the server's refusal, cancel and save. */
export function ReasonAndSave({ reason, onReason, error, unchanged, sending, onCancel }: {
  reason: string;
  onReason: (text: string) => void;
  error: string | undefined;
  unchanged: boolean;
  sending: boolean;
  onCancel: () => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <>
      <label className="adm-field">
        <span>{t('common.reason')}</span>
        <input name="reason" value={reason} onChange={(e) => onReason(e.target.value)} maxLength={500} />
      </label>
      {error && <p className="adm-error" role="alert">{error}</p>}
      <div className="adm-actions">
        <button type="button" onClick={onCancel}>{t('common.cancel')}</button>
        <button type="submit" className="adm-primary" title={unchanged ? t('markets.unchanged') : t('common.reasonRequired')}
          disabled={unchanged || !reason.trim() || sending}>
          {t('common.save')}
        </button>
      </div>
    </>
  );
}

/** Under a row's actions: what became of its last change (`saved` the text when it was taken). */
export function RowOutcome({ state, saved, error, testId }: {
  state: ChangeState;
  saved: string;
  error: string | undefined;
  /** `<prefix>-saved-<id>` and `<prefix>-error-<id>` for the tests. */
  testId: (what: 'saved' | 'error') => string;
}) {
  if (state === 'saved' || state === 'saved_later') {
    return <p className="adm-ok" role="status" data-testid={testId('saved')}>{saved}</p>;
  }
  if (state === 'failed') return <p className="adm-error" role="alert" data-testid={testId('error')}>{error}</p>;
  return null;
}
