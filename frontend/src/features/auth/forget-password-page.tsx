import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';

import { paths } from '@/config/paths';
import { checkAccount, validateReset } from '@/lib/validation';

import { CODE_PURPOSE, resetPassword, trySendCode } from './api/auth-api';
import { AuthCard } from './components/auth-card';
import { AccountFields, CodeField, NewPasswordFields } from './components/auth-fields';
import { useAccountInput } from './lib/use-account-input';
import { useAuthForm } from './lib/use-auth-form';
import './auth.css';

/** Forgotten password (trading spec §5): account, a type-2 code, a new password twice. */
export default function ForgetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const input = useAccountInput();
  const { kind, phone, account } = input;
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [rePassword, setRePassword] = useState('');
  const form = useAuthForm();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void form.run(validateReset({ kind, account, code, password, rePassword }), async () => {
      await resetPassword({ kind, account, code, password, rePassword, countryCode: phone.areaCode });
      await navigate(paths.login);
    });
  };

  const sendResetCode = async () =>
    form.check(checkAccount(kind, account)) &&
    trySendCode({ kind, to: account, purpose: CODE_PURPOSE.forgotPassword, areaId: phone.areaId });

  return (
    <AuthCard title={t('auth.forgotTitle')} testId="forget-form" onSubmit={submit} error={form.error} busy={form.busy}
      submitLabel={t('auth.resetSubmit')}
      footer={
        <Link to={paths.login} className="link-accent">
          {t('auth.backToLogin')}
        </Link>
      }>
      <p className="muted">{t('auth.forgotText')}</p>
      <AccountFields input={input} onSwitch={form.clear} />
      <CodeField value={code} onChange={setCode} onSend={sendResetCode} />
      <NewPasswordFields label={t('auth.newPassword')} password={password} onPassword={setPassword} rePassword={rePassword}
        onRePassword={setRePassword} />
    </AuthCard>
  );
}
