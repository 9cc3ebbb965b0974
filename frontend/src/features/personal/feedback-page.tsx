/** /personal/feedback: a message of at least 10 characters for the operators. */
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';

import { FormError } from '@/components/form/form-error';

import { PersonalForm, PersonalFormPage } from './components/personal-layout';
import { FEEDBACK_MIN_LENGTH } from './lib/rules';
import { FeedbackStore } from './stores/profile-stores';
import { usePersonalStore } from './stores/use-personal-store';

export default observer(function FeedbackPage() {
  const { t } = useTranslation('personal');
  const store = usePersonalStore((api) => new FeedbackStore(api));
  return (
    <PersonalFormPage title={t('feedback.title')} testId="feedback">
      <PersonalForm testId="feedback-form" onSubmit={() => store.submit()}>
        <label className="field">
          <span>{t('feedback.content')}</span>
          <textarea className="input textarea" rows={6} maxLength={1000} value={store.content}
            placeholder={t('feedback.placeholder', { min: FEEDBACK_MIN_LENGTH })}
            onChange={(e) => store.setContent(e.target.value)} data-testid="feedback-content" />
        </label>
        <FormError message={store.problem ? t(`problems.${store.problem}`, { min: FEEDBACK_MIN_LENGTH }) : null} />
        {store.sent && <p className="notice-box ok" data-testid="feedback-sent">{t('feedback.sent')}</p>}
        <button type="submit" className="button" data-testid="submit">
          {t('common.submit')}
        </button>
      </PersonalForm>
    </PersonalFormPage>
  );
});
