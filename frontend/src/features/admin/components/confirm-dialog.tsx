import { useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  message: string;
  /** Ask for a text (a reason or a note) sent with the confirmation; required when `required`. */
  withText?: string;
  required?: boolean;
  onConfirm: (text: string) => void;
  onCancel: () => void;
}

/** A modal asking to confirm an action that cannot be taken back, with an optional reason. */
export function ConfirmDialog({ message, withText, required, onConfirm, onCancel }: Props) {
  const { t } = useTranslation('admin');
  const [text, setText] = useState('');
  const blocked = Boolean(required && !text.trim());
  return (
    <div className="adm-overlay" role="dialog" aria-modal="true">
      <div className="adm-dialog">
        <p>{message}</p>
        {withText && (
          <label className="adm-field">
            <span>{withText}</span>
            <textarea value={text} onChange={(e) => setText(e.target.value)} rows={3} name="dialog-text" />
          </label>
        )}
        <div className="adm-actions">
          <button type="button" onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <button type="button" className="adm-primary" disabled={blocked} onClick={() => onConfirm(text.trim())}>
            {t('common.confirm')}
          </button>
        </div>
      </div>
    </div>
  );
}
