import { type FormEvent, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';

import { FormError } from '@/components/form/form-error';
import { PhoneField, type PhoneValue } from '@/components/form/phone-field';
import { SendCodeButton } from '@/components/form/send-code-button';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { type AccountKind, checkAccount, INPUT_LIMITS, validateReset } from '@/lib/validation';

import { CODE_PURPOSE, resetPassword, sendCode } from './api/auth-api';
import { AuthTabs } from './components/auth-tabs';
import './auth.css';

/** Forgotten password (trading spec §5): account, a type-2 code, a new password twice. */
export default function ForgetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [kind, setKind] = useState<AccountKind>('email');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState<PhoneValue>({ areaId: null, areaCode: '', mobile: '' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [rePassword, setRePassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const account = kind === 'email' ? email : phone.mobile;
  const onPhone = useCallback((value: PhoneValue) => setPhone(value), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validateReset({ kind, account, code, password, rePassword });
    setError(problem ? t(`validation.${problem}`) : null);
    if (problem || busy) return;
    setBusy(true);
    try {
      await resetPassword({ kind, account, code, password, rePassword, countryCode: phone.areaCode });
      await navigate(paths.login);
    } catch (e) {
      if (!isApiError(e)) throw e;
    } finally {
      setBusy(false);
    }
  };

  const sendResetCode = async () => {
    const problem = checkAccount(kind, account);
    setError(problem ? t(`validation.${problem}`) : null);
    if (problem) return false;
    try {
      await sendCode({ kind, to: account, purpose: CODE_PURPOSE.forgotPassword, areaId: phone.areaId });
      return true;
    } catch {
      return false;
    }
  };

  return (
    <div className="auth-page">
      <form className="auth-card" onSubmit={(e) => void submit(e)} noValidate data-testid="forget-form">
        <h1>{t('auth.forgotTitle')}</h1>
        <p className="muted">{t('auth.forgotText')}</p>
        <AuthTabs kind={kind} onChange={(k) => { setKind(k); setError(null); }} />
        {kind === 'email' ? (
          <label className="field">
            <span>{t('auth.email')}</span>
            <input className="input" type="email" autoComplete="username" value={email}
              maxLength={INPUT_LIMITS.email} placeholder={t('auth.emailPlaceholder')} data-testid="account"
              onChange={(e) => setEmail(e.target.value)} />
          </label>
        ) : (
          <div className="field">
            <span>{t('auth.phone')}</span>
            <PhoneField value={phone} onChange={onPhone} />
          </div>
        )}
        <label className="field">
          <span>{t('auth.code')}</span>
          <div className="input-group">
            <input className="input" inputMode="numeric" autoComplete="one-time-code" value={code}
              maxLength={INPUT_LIMITS.code} placeholder={t('auth.codePlaceholder')} data-testid="code"
              onChange={(e) => setCode(e.target.value)} />
            <SendCodeButton onSend={sendResetCode} />
          </div>
        </label>
        <label className="field">
          <span>{t('auth.newPassword')}</span>
          <input className="input" type="password" autoComplete="new-password" value={password}
            maxLength={INPUT_LIMITS.password} placeholder={t('auth.passwordRule')} data-testid="password"
            onChange={(e) => setPassword(e.target.value)} />
        </label>
        <label className="field">
          <span>{t('auth.rePassword')}</span>
          <input className="input" type="password" autoComplete="new-password" value={rePassword}
            maxLength={INPUT_LIMITS.password} placeholder={t('auth.rePasswordPlaceholder')} data-testid="re-password"
            onChange={(e) => setRePassword(e.target.value)} />
        </label>
        <FormError message={error} />
        <button type="submit" className="button block large" disabled={busy} data-testid="submit">
          {t('auth.resetSubmit')}
        </button>
        <p className="auth-switch muted">
          <Link to={paths.login} className="link-accent">
            {t('auth.backToLogin')}
          </Link>
        </p>
      </form>
    </div>
  );
}
