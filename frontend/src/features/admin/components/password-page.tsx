import { observer } from 'mobx-react-lite';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';

import { QrCode } from '@/components/ui/qr-code';

import { useAdmin } from '../stores/admin-store';

const MIN_PASSWORD = 10;

/** After a one-time password: the operator sets their own; the answer's token replaces the stored one. */
export const PasswordPage = observer(function PasswordPage() {
  const { t } = useTranslation('admin');
  const { session } = useAdmin();
  const navigate = useNavigate();
  const typed = (useLocation().state as { password?: string } | null)?.password ?? '';
  const [old, setOld] = useState(typed);
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [local, setLocal] = useState('');
  const [uri, setUri] = useState('');

  useEffect(() => {
    if (session.state === 'must_change_password') void session.enrolment().then(setUri);
  }, [session, session.state]);

  if (session.state === 'anonymous') return <Navigate to="/admin/login" replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (next.length < MIN_PASSWORD) return setLocal(t('password.tooShort'));
    if (next !== repeat) return setLocal(t('password.mismatch'));
    setLocal('');
    if ((await session.changePassword(old, next)) === 'ready') navigate('/admin', { replace: true });
  };

  return (
    <div className="adm-center">
      <form className="adm-card adm-form" onSubmit={submit}>
        <h1>{t('password.title')}</h1>
        <p className="adm-muted">{t('password.intro')}</p>
        {uri && (
          <div className="adm-enrolment">
            <QrCode text={uri} size={160} label={t('password.qr')} testId="admin-enrolment-qr" />
            <p className="adm-muted">{t('password.qrHint')}</p>
          </div>
        )}
        <label className="adm-field">
          <span>{t('password.old')}</span>
          <input name="old_password" type="password" autoComplete="current-password" value={old} onChange={(e) => setOld(e.target.value)} required />
        </label>
        <label className="adm-field">
          <span>{t('password.new')}</span>
          <input name="new_password" type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} required />
        </label>
        <label className="adm-field">
          <span>{t('password.repeat')}</span>
          <input name="repeat_password" type="password" autoComplete="new-password" value={repeat} onChange={(e) => setRepeat(e.target.value)} required />
        </label>
        {(local || session.error) && <p className="adm-error" role="alert">{local || session.error}</p>}
        <button type="submit" className="adm-primary" disabled={session.busy}>
          {t('password.submit')}
        </button>
      </form>
    </div>
  );
});
