import { observer } from 'mobx-react-lite';
import { type FormEvent, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';

import { FormError } from '@/components/form/form-error';
import { PhoneField, type PhoneValue } from '@/components/form/phone-field';
import { SendCodeButton } from '@/components/form/send-code-button';
import { noticePath, paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { type AccountKind, checkAccount, INPUT_LIMITS, validateRegister } from '@/lib/validation';
import { PRIVACY_NOTICE } from '@/stores/content-store';
import { useStores } from '@/stores/root-store';

import { CODE_PURPOSE, sendCode } from './api/auth-api';
import { AuthTabs } from './components/auth-tabs';
import type { RegisteredState } from './login-page';
import './auth.css';

/**
 * Register (spec §2, §5): e-mail and phone tabs, privacy ticked by default, an invitation code
 * prefilled and locked when the link carried `?extension_code=`. Success leads to login.
 */
const RegisterPage = observer(function RegisterPage() {
  const { t } = useTranslation();
  const { session } = useStores();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const extensionCode = (params.get('extension_code') ?? '').trim();

  const [kind, setKind] = useState<AccountKind>('email');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState<PhoneValue>({ areaId: null, areaCode: '', mobile: '' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [rePassword, setRePassword] = useState('');
  const [inviteCode, setInviteCode] = useState(extensionCode);
  const [agreed, setAgreed] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const account = kind === 'email' ? email : phone.mobile;
  const onPhone = useCallback((value: PhoneValue) => setPhone(value), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validateRegister({ kind, account, code, password, rePassword, agreed });
    setError(problem ? t(`validation.${problem}`) : null);
    if (problem || busy) return;
    setBusy(true);
    try {
      await session.register({ kind, account, password, rePassword, code, inviteCode, areaId: phone.areaId });
      const registered = { kind, account: account.trim(), areaId: kind === 'mobile' ? phone.areaId : null };
      const state: RegisteredState = { registered };
      await navigate(paths.login, { state });
    } catch (e) {
      if (!isApiError(e)) throw e;
    } finally {
      setBusy(false);
    }
  };

  const sendRegisterCode = async () => {
    const problem = checkAccount(kind, account);
    setError(problem ? t(`validation.${problem}`) : null);
    if (problem) return false;
    try {
      await sendCode({ kind, to: account, purpose: CODE_PURPOSE.register, areaId: phone.areaId });
      return true;
    } catch {
      return false;
    }
  };

  return (
    <div className="auth-page">
      <form className="auth-card" onSubmit={(e) => void submit(e)} noValidate data-testid="register-form">
        <h1>{t('auth.registerTitle')}</h1>
        <AuthTabs kind={kind} onChange={(k) => { setKind(k); setError(null); }} />
        {kind === 'email' ? (
          <label className="field">
            <span>{t('auth.email')}</span>
            <input className="input" type="email" autoComplete="email" name="email" value={email}
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
            <SendCodeButton onSend={sendRegisterCode} />
          </div>
        </label>
        <label className="field">
          <span>{t('auth.password')}</span>
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
        <label className="field">
          <span>
            {t('auth.inviteCode')} {!extensionCode && <small className="muted">({t('auth.optional')})</small>}
          </span>
          <input className="input" value={inviteCode} readOnly={Boolean(extensionCode)} maxLength={16}
            data-testid="invite-code" onChange={(e) => setInviteCode(e.target.value.toUpperCase())} />
        </label>
        <label className="check">
          <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)}
            data-testid="privacy" />
          <span>
            {t('auth.agreePrefix')}{' '}
            <Link to={noticePath(PRIVACY_NOTICE.id, PRIVACY_NOTICE.categoryId)} target="_blank"
              className="link-accent">
              {t('auth.privacy')}
            </Link>
          </span>
        </label>
        <FormError message={error} />
        <button type="submit" className="button block large" disabled={busy} data-testid="submit">
          {t('auth.register')}
        </button>
        <p className="auth-switch muted">
          {t('auth.haveAccount')}{' '}
          <Link to={paths.login} className="link-accent">
            {t('auth.login')}
          </Link>
        </p>
      </form>
    </div>
  );
});

export default RegisterPage;
