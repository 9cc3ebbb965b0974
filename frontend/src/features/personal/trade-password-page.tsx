/** /tradePassword: set or change the deal password with a type-3 code (60 s resend). */
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

import { FormError } from '@/components/form/form-error';
import { SendCodeButton } from '@/components/form/send-code-button';
import { paths } from '@/config/paths';
import { CODE_RESEND_SECONDS } from '@/lib/countdown';
import { INPUT_LIMITS } from '@/lib/validation';
import { useStores } from '@/stores/root-store';

import { PersonalForm, PersonalFormPage } from './components/personal-layout';
import { TextField } from './components/text-field';
import { PayPasswordStore } from './stores/security-stores';
import { usePersonalStore } from './stores/use-personal-store';

export default observer(function TradePasswordPage() {
  const { t } = useTranslation('personal');
  const navigate = useNavigate();
  const { session } = useStores();
  const user = session.user;
  const store = usePersonalStore((api) => new PayPasswordStore(api));
  const canEmail = Boolean(user?.email);
  const canPhone = Boolean(user?.mobile);
  useEffect(() => {
    if (!session.user) void session.loadUser();
  }, [session]);
  useEffect(() => {
    // The code goes to the e-mail when one is bound, else to the phone.
    store.setVia(!canEmail && canPhone ? 'mobile' : 'email');
  }, [store, canEmail, canPhone]);

  const submit = async () => {
    if (await store.submit()) {
      void session.loadUser();
      await navigate(paths.personal.accountSettings);
    }
  };
  return (
    <PersonalFormPage title={t('payPassword.title')} testId="trade-password">
      <PersonalForm testId="trade-password-form" onSubmit={submit}>
        {canEmail && canPhone && (
          <label className="field">
            <span>{t('payPassword.via')}</span>
            <select className="input" value={store.via} data-testid="code-via"
              onChange={(e) => store.setVia(e.target.value === 'mobile' ? 'mobile' : 'email')}>
              <option value="email">{user?.email}</option>
              <option value="mobile">{user?.mobile}</option>
            </select>
          </label>
        )}
        <TextField label={t('payPassword.password')} type="password" autoComplete="new-password" value={store.password}
          placeholder={t('password.rule')} maxLength={INPUT_LIMITS.password} onChange={(v) => store.set('password', v)}
          testId="pay-password" />
        <TextField label={t('payPassword.confirm')} type="password" autoComplete="new-password" value={store.confirm}
          maxLength={INPUT_LIMITS.password} onChange={(v) => store.set('confirm', v)} testId="pay-password-confirm" />
        <TextField label={t('common.code')} value={store.code} maxLength={INPUT_LIMITS.code}
          onChange={(v) => store.set('code', v)} testId="code"
          after={<SendCodeButton seconds={CODE_RESEND_SECONDS} onSend={() => store.sendCode()} />} />
        <TextField label={t('common.loginPassword')} type="password" autoComplete="current-password"
          value={store.loginPassword} maxLength={INPUT_LIMITS.password} onChange={(v) => store.set('loginPassword', v)}
          testId="login-password" />
        <p className="muted" data-testid="security-note">{t('common.securityNote')}</p>
        <FormError message={store.problem ? t(`problems.${store.problem}`) : null} />
        <button type="submit" className="button" disabled={store.busy} data-testid="submit">
          {t('common.confirm')}
        </button>
      </PersonalForm>
    </PersonalFormPage>
  );
});
