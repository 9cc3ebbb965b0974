import { observer } from 'mobx-react-lite';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';

import type { LoginReason } from '@/app/require-auth';
import { FormError } from '@/components/form/form-error';
import { PhoneField, type PhoneValue } from '@/components/form/phone-field';
import { SendCodeButton } from '@/components/form/send-code-button';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { HOME_PATH, safeRedirect } from '@/lib/navigation';
import { STORAGE_KEYS, storage } from '@/lib/storage';
import { type AccountKind, INPUT_LIMITS, validateLogin } from '@/lib/validation';
import { useStores } from '@/stores/root-store';

import { CODE_PURPOSE, sendCode } from './api/auth-api';
import { AuthTabs } from './components/auth-tabs';
import './auth.css';

/** What the register page hands over after a successful sign-up. */
export interface RegisteredState {
  registered?: { kind: AccountKind; account: string; areaId: number | null };
}

function savedKind(): AccountKind {
  return storage.get(STORAGE_KEYS.loginMethod) === 'mobile' ? 'mobile' : 'email';
}

/**
 * Login (spec §2, §5): e-mail and phone tabs, Enter submits, a code when login_use_sms is on.
 * Afterwards the page that sent the user here (`?page=`), or /home.
 */
const LoginPage = observer(function LoginPage() {
  const { t } = useTranslation();
  const { session, content } = useStores();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const state = (location.state ?? {}) as { reason?: LoginReason } & RegisteredState;

  const remembered = storage.get(STORAGE_KEYS.rememberedAccount) ?? '';
  const [kind, setKind] = useState<AccountKind>(state.registered?.kind ?? savedKind());
  const [email, setEmail] = useState(kind === 'email' ? (state.registered?.account ?? remembered) : '');
  const [phone, setPhone] = useState<PhoneValue>({
    areaId: state.registered?.areaId ?? (Number(storage.get(STORAGE_KEYS.countryId)) || null),
    areaCode: '',
    mobile: kind === 'mobile' ? (state.registered?.account ?? remembered) : '',
  });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(Boolean(remembered));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const needsCode = content.loginUseSms;
  const account = kind === 'email' ? email : phone.mobile;

  useEffect(() => {
    void content.loadSettings(['login_use_sms']);
  }, [content]);

  useEffect(() => {
    if (phone.areaId === null || phone.areaCode) return;
    const area = content.areas.find((a) => a.id === phone.areaId);
    if (area) setPhone((p) => ({ ...p, areaCode: area.global_code }));
  }, [content.areas, phone.areaId, phone.areaCode]);

  const onPhone = useCallback((value: PhoneValue) => setPhone(value), []);

  const banner =
    state.reason === 'loginToTrade'
      ? t('auth.loginToTrade')
      : state.reason === 'timeout'
        ? t('errors.loginTimeout')
        : state.registered
          ? t('auth.registeredNotice')
          : params.get('type') === '1'
            ? t('auth.loggedOut')
            : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validateLogin({ kind, account, password, code }, needsCode);
    setError(problem ? t(`validation.${problem}`) : null);
    if (problem || busy) return;
    setBusy(true);
    try {
      await session.login({ kind, account, password, code, countryCode: phone.areaCode });
      storage.set(STORAGE_KEYS.loginMethod, kind);
      if (kind === 'mobile' && phone.areaId) storage.set(STORAGE_KEYS.countryId, String(phone.areaId));
      if (remember) storage.set(STORAGE_KEYS.rememberedAccount, account.trim());
      else storage.remove(STORAGE_KEYS.rememberedAccount);
      if (session.isLoggedIn) await navigate(safeRedirect(params.get('page'), HOME_PATH), { replace: true });
    } catch (e) {
      if (!isApiError(e)) throw e; // API errors are already shown by the request layer
    } finally {
      setBusy(false);
    }
  };

  const sendLoginCode = async () => {
    const problem = validateLogin({ kind, account, password: '-', code: '-' }, false);
    setError(problem ? t(`validation.${problem}`) : null);
    if (problem) return false;
    try {
      await sendCode({ kind, to: account, purpose: CODE_PURPOSE.login, areaId: phone.areaId });
      return true;
    } catch {
      return false;
    }
  };

  return (
    <div className="auth-page">
      <form className="auth-card" onSubmit={(e) => void submit(e)} noValidate data-testid="login-form">
        <h1>{t('auth.loginTitle')}</h1>
        {banner && (
          <p className="auth-banner" role="status" data-testid="login-banner">
            {banner}
          </p>
        )}
        <AuthTabs kind={kind} onChange={(k) => { setKind(k); setError(null); }} />
        {kind === 'email' ? (
          <label className="field">
            <span>{t('auth.email')}</span>
            <input className="input" type="email" autoComplete="username" name="email" value={email}
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
          <span>{t('auth.password')}</span>
          <input className="input" type="password" autoComplete="current-password" name="password" value={password}
            placeholder={t('auth.passwordPlaceholder')} data-testid="password"
            onChange={(e) => setPassword(e.target.value)} />
        </label>
        {needsCode && (
          <label className="field">
            <span>{t('auth.code')}</span>
            <div className="input-group">
              <input className="input" inputMode="numeric" autoComplete="one-time-code" value={code}
                maxLength={INPUT_LIMITS.code} placeholder={t('auth.codePlaceholder')} data-testid="code"
                onChange={(e) => setCode(e.target.value)} />
              <SendCodeButton onSend={sendLoginCode} />
            </div>
          </label>
        )}
        <div className="auth-row">
          <label className="check">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
            <span>{t('auth.remember')}</span>
          </label>
          <Link to={paths.forgetPassword} className="link-accent">
            {t('auth.forgot')}
          </Link>
        </div>
        <FormError message={error} />
        <button type="submit" className="button block large" disabled={busy} data-testid="submit">
          {t('auth.login')}
        </button>
        <p className="auth-switch muted">
          {t('auth.noAccount')}{' '}
          <Link to={paths.register} className="link-accent">
            {t('auth.register')}
          </Link>
        </p>
      </form>
    </div>
  );
});

export default LoginPage;
