import { useTranslation } from 'react-i18next';

import { PhoneField } from '@/components/form/phone-field';
import { SendCodeButton } from '@/components/form/send-code-button';
import { INPUT_LIMITS } from '@/lib/validation';

import type { AccountInput } from '../lib/use-account-input';
import { AuthTabs } from './auth-tabs';

/**
 * The account of the access forms: e-mail / phone tabs, then the e-mail or the phone with its
 * country. `emailAutoComplete` is `username` where an existing account is typed, `email` for a new one.
 */
export function AccountFields({
  input,
  onSwitch,
  emailAutoComplete = 'username',
}: {
  input: AccountInput;
  /** Called when the user picks the other tab. */
  onSwitch: () => void;
  emailAutoComplete?: 'username' | 'email';
}) {
  const { t } = useTranslation();
  return (
    <>
      <AuthTabs kind={input.kind} onChange={(k) => { input.setKind(k); onSwitch(); }} />
      {input.kind === 'email' ? (
        <label className="field">
          <span>{t('auth.email')}</span>
          <input className="input" type="email" autoComplete={emailAutoComplete} name="email" value={input.email}
            maxLength={INPUT_LIMITS.email} placeholder={t('auth.emailPlaceholder')} data-testid="account"
            onChange={(e) => input.setEmail(e.target.value)} />
        </label>
      ) : (
        <div className="field">
          <span>{t('auth.phone')}</span>
          <PhoneField value={input.phone} onChange={input.setPhone} />
        </div>
      )}
    </>
  );
}

/** The verification code with its "send code" button, which counts down once a code went out. */
export function CodeField({
  value,
  onChange,
  onSend,
}: {
  value: string;
  onChange: (code: string) => void;
  /** Resolves true when a code was sent (see SendCodeButton). */
  onSend: () => Promise<boolean>;
}) {
  const { t } = useTranslation();
  return (
    <label className="field">
      <span>{t('auth.code')}</span>
      <div className="input-group">
        <input className="input" inputMode="numeric" autoComplete="one-time-code" value={value}
          maxLength={INPUT_LIMITS.code} placeholder={t('auth.codePlaceholder')} data-testid="code"
          onChange={(e) => onChange(e.target.value)} />
        <SendCodeButton onSend={onSend} />
      </div>
    </label>
  );
}

/** A new password and its confirmation (register, forgotten password). */
export function NewPasswordFields({
  label,
  password,
  onPassword,
  rePassword,
  onRePassword,
}: {
  label: string;
  password: string;
  onPassword: (password: string) => void;
  rePassword: string;
  onRePassword: (rePassword: string) => void;
}) {
  const { t } = useTranslation();
  const fields = [
    { label, value: password, onChange: onPassword, placeholder: t('auth.passwordRule'), testId: 'password' },
    {
      label: t('auth.rePassword'),
      value: rePassword,
      onChange: onRePassword,
      placeholder: t('auth.rePasswordPlaceholder'),
      testId: 're-password',
    },
  ];
  return (
    <>
      {fields.map((f) => (
        <label key={f.testId} className="field">
          <span>{f.label}</span>
          <input className="input" type="password" autoComplete="new-password" value={f.value}
            maxLength={INPUT_LIMITS.password} placeholder={f.placeholder} data-testid={f.testId}
            onChange={(e) => f.onChange(e.target.value)} />
        </label>
      ))}
    </>
  );
}
