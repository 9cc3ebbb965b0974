/** /resetPassword: change the login password (old, new of at least 6, confirmation). */
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';

import { FormError } from '@/components/form/form-error';
import { paths } from '@/config/paths';
import { INPUT_LIMITS } from '@/lib/validation';

import { PersonalForm, PersonalFormPage } from './components/personal-layout';
import { TextField } from './components/text-field';
import { ChangePasswordStore } from './stores/security-stores';
import { usePersonalStore } from './stores/use-personal-store';

export default observer(function ResetPasswordPage() {
  const { t } = useTranslation('personal');
  const navigate = useNavigate();
  const store = usePersonalStore((api) => new ChangePasswordStore(api));
  const submit = async () => {
    if (await store.submit()) await navigate(paths.personal.accountSettings);
  };
  return (
    <PersonalFormPage title={t('password.title')} testId="reset-password">
      <PersonalForm testId="reset-password-form" onSubmit={submit}>
        <TextField label={t('password.old')} type="password" autoComplete="current-password" value={store.old}
          maxLength={INPUT_LIMITS.password} onChange={(v) => store.set('old', v)} testId="old-password" />
        <TextField label={t('password.new')} type="password" autoComplete="new-password" value={store.next}
          placeholder={t('password.rule')} maxLength={INPUT_LIMITS.password} onChange={(v) => store.set('next', v)}
          testId="password" />
        <TextField label={t('password.confirm')} type="password" autoComplete="new-password" value={store.confirm}
          maxLength={INPUT_LIMITS.password} onChange={(v) => store.set('confirm', v)} testId="re-password" />
        <FormError message={store.problem ? t(`problems.${store.problem}`) : null} />
        <button type="submit" className="button" disabled={store.busy} data-testid="submit">
          {t('common.confirm')}
        </button>
        <Link className="link-accent" to={paths.forgetPassword}>
          {t('password.forgot')}
        </Link>
      </PersonalForm>
    </PersonalFormPage>
  );
});
