/** /bindAccount (e-mail) and /bindPhone: the account, a type-6 code (60 s resend), bind. */
import { observer } from 'mobx-react-lite';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';

import { FormError } from '@/components/form/form-error';
import { PhoneField, type PhoneValue } from '@/components/form/phone-field';
import { SendCodeButton } from '@/components/form/send-code-button';
import { paths } from '@/config/paths';
import { INPUT_LIMITS } from '@/lib/validation';
import { useStores } from '@/stores/root-store';

import { PersonalForm, PersonalFormPage } from './components/personal-layout';
import { TextField } from './components/text-field';
import { BIND_PROBLEMS } from './lib/rules';
import { BindStore } from './stores/security-stores';
import { usePersonalStore } from './stores/use-personal-store';

export default observer(function BindPage() {
  const { t } = useTranslation('personal');
  const navigate = useNavigate();
  const { session } = useStores();
  const kind = useLocation().pathname === paths.bindPhone ? 'mobile' : 'email';
  const store = usePersonalStore((api) => new BindStore(api, kind));
  const [phone, setPhone] = useState<PhoneValue>({ areaId: null, areaCode: '', mobile: '' });
  const onPhone = useCallback(
    (value: PhoneValue) => {
      setPhone(value);
      store.setPhone(value.mobile, value.areaId);
    },
    [store],
  );
  const problem = store.problem
    ? (BIND_PROBLEMS as readonly string[]).includes(store.problem)
      ? t(`problems.${store.problem}` as 'problems.codeEmpty')
      : t(`validation.${store.problem}` as 'validation.emailEmpty', { ns: 'translation' })
    : null;

  const submit = async () => {
    if (await store.submit()) {
      void session.loadUser();
      await navigate(paths.personal.accountSettings);
    }
  };
  const title = kind === 'mobile' ? t('bind.phoneTitle') : t('bind.emailTitle');
  return (
    <PersonalFormPage title={title} testId={kind === 'mobile' ? 'bind-phone' : 'bind-email'}>
      <PersonalForm testId="bind-form" onSubmit={submit}>
        {kind === 'mobile' ? (
          <div className="field">
            <span>{t('bind.phone')}</span>
            <PhoneField value={phone} onChange={onPhone} />
          </div>
        ) : (
          <TextField label={t('bind.email')} type="email" value={store.account} maxLength={INPUT_LIMITS.email}
            onChange={(v) => store.set('account', v)} testId="account" />
        )}
        <TextField label={t('common.code')} value={store.code} maxLength={INPUT_LIMITS.code}
          onChange={(v) => store.set('code', v)} testId="code"
          after={<SendCodeButton onSend={() => store.sendCode()} />} />
        <TextField label={t('common.loginPassword')} type="password" autoComplete="current-password"
          value={store.loginPassword} maxLength={INPUT_LIMITS.password} onChange={(v) => store.set('loginPassword', v)}
          testId="login-password" />
        <p className="muted" data-testid="security-note">{t('common.securityNote')}</p>
        <FormError message={problem} />
        <button type="submit" className="button" disabled={store.busy} data-testid="submit">
          {t('bind.submit')}
        </button>
      </PersonalForm>
    </PersonalFormPage>
  );
});
