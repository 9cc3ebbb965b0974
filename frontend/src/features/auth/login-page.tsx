import { observer } from 'mobx-react-lite';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';

import { paths } from '@/config/paths';
import { HOME_PATH, type LoginReason, safeRedirect } from '@/lib/navigation';
import { STORAGE_KEYS, storage } from '@/lib/storage';
import { type AccountKind, validateLogin } from '@/lib/validation';
import { useStores } from '@/stores/root-store';

import { CODE_PURPOSE, trySendCode } from './api/auth-api';
import { AuthCard } from './components/auth-card';
import { AccountFields, CodeField } from './components/auth-fields';
import { useAccountInput } from './lib/use-account-input';
import { useAuthForm } from './lib/use-auth-form';
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
  const initialKind = state.registered?.kind ?? savedKind();
  const initialAccount = state.registered?.account ?? remembered;
  const input = useAccountInput({
    kind: initialKind,
    email: initialKind === 'email' ? initialAccount : '',
    phone: {
      areaId: state.registered?.areaId ?? (Number(storage.get(STORAGE_KEYS.countryId)) || null),
      areaCode: '',
      mobile: initialKind === 'mobile' ? initialAccount : '',
    },
  });
  const { kind, phone, setPhone, account } = input;
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(Boolean(remembered));
  const form = useAuthForm();
  const needsCode = content.loginUseSms;

  useEffect(() => {
    void content.loadSettings(['login_use_sms']);
  }, [content]);

  useEffect(() => {
    if (phone.areaId === null || phone.areaCode) return;
    const area = content.areas.find((a) => a.id === phone.areaId);
    if (area) setPhone((p) => ({ ...p, areaCode: area.global_code }));
  }, [content.areas, phone.areaId, phone.areaCode, setPhone]);

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

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void form.run(validateLogin({ kind, account, password, code }, needsCode), async () => {
      await session.login({ kind, account, password, code, countryCode: phone.areaCode });
      storage.set(STORAGE_KEYS.loginMethod, kind);
      if (kind === 'mobile' && phone.areaId) storage.set(STORAGE_KEYS.countryId, String(phone.areaId));
      if (remember) storage.set(STORAGE_KEYS.rememberedAccount, account.trim());
      else storage.remove(STORAGE_KEYS.rememberedAccount);
      if (session.isLoggedIn) await navigate(safeRedirect(params.get('page'), HOME_PATH), { replace: true });
    });
  };

  // The account as login checks it (no e-mail pattern); the dashes stand in for fields not needed yet.
  const sendLoginCode = async () =>
    form.check(validateLogin({ kind, account, password: '-', code: '-' }, false)) &&
    trySendCode({ kind, to: account, purpose: CODE_PURPOSE.login, areaId: phone.areaId });

  return (
    <AuthCard title={t('auth.loginTitle')} testId="login-form" onSubmit={submit} error={form.error} busy={form.busy}
      submitLabel={t('auth.login')}
      footer={
        <>
          {t('auth.noAccount')}{' '}
          <Link to={paths.register} className="link-accent">
            {t('auth.register')}
          </Link>
        </>
      }>
      {banner && (
        <p className="auth-banner" role="status" data-testid="login-banner">
          {banner}
        </p>
      )}
      <AccountFields input={input} onSwitch={form.clear} />
      <label className="field">
        <span>{t('auth.password')}</span>
        <input className="input" type="password" autoComplete="current-password" name="password" value={password}
          placeholder={t('auth.passwordPlaceholder')} data-testid="password"
          onChange={(e) => setPassword(e.target.value)} />
      </label>
      {needsCode && <CodeField value={code} onChange={setCode} onSend={sendLoginCode} />}
      <div className="auth-row">
        <label className="check">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
          <span>{t('auth.remember')}</span>
        </label>
        <Link to={paths.forgetPassword} className="link-accent">
          {t('auth.forgot')}
        </Link>
      </div>
    </AuthCard>
  );
});

export default LoginPage;
