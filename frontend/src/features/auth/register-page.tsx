import { observer } from 'mobx-react-lite';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';

import { noticePath, paths } from '@/config/paths';
import { checkAccount, validateRegister } from '@/lib/validation';
import { PRIVACY_NOTICE } from '@/stores/content-store';
import { useStores } from '@/stores/root-store';

import { CODE_PURPOSE, trySendCode } from './api/auth-api';
import { AuthCard } from './components/auth-card';
import { AccountFields, CodeField, NewPasswordFields } from './components/auth-fields';
import type { RegisteredState } from './login-page';
import { useAccountInput } from './lib/use-account-input';
import { useAuthForm } from './lib/use-auth-form';
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

  const input = useAccountInput();
  const { kind, phone, account } = input;
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [rePassword, setRePassword] = useState('');
  const [inviteCode, setInviteCode] = useState(extensionCode);
  const [agreed, setAgreed] = useState(true);
  const form = useAuthForm();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void form.run(validateRegister({ kind, account, code, password, rePassword, agreed }), async () => {
      await session.register({ kind, account, password, rePassword, code, inviteCode, areaId: phone.areaId });
      const registered = { kind, account: account.trim(), areaId: kind === 'mobile' ? phone.areaId : null };
      const state: RegisteredState = { registered };
      await navigate(paths.login, { state });
    });
  };

  const sendRegisterCode = async () =>
    form.check(checkAccount(kind, account)) &&
    trySendCode({ kind, to: account, purpose: CODE_PURPOSE.register, areaId: phone.areaId });

  return (
    <AuthCard title={t('auth.registerTitle')} testId="register-form" onSubmit={submit} error={form.error} busy={form.busy}
      submitLabel={t('auth.register')}
      footer={
        <>
          {t('auth.haveAccount')}{' '}
          <Link to={paths.login} className="link-accent">
            {t('auth.login')}
          </Link>
        </>
      }>
      <AccountFields input={input} onSwitch={form.clear} emailAutoComplete="email" />
      <CodeField value={code} onChange={setCode} onSend={sendRegisterCode} />
      <NewPasswordFields label={t('auth.password')} password={password} onPassword={setPassword} rePassword={rePassword}
        onRePassword={setRePassword} />
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
    </AuthCard>
  );
});

export default RegisterPage;
