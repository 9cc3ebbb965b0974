/**
 * /personal/authentication: real-name review status (0 the form, 1 under review, 2 approved) and
 * the form: name, ID number, front, back and hand-held images, all required.
 */
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';

import { FormError } from '@/components/form/form-error';

import { ImageUpload } from './components/image-upload';
import { PersonalForm, PersonalFormPage } from './components/personal-layout';
import { TextField } from './components/text-field';
import { RealNameStore } from './stores/profile-stores';
import { useLoadedPersonalStore } from './stores/use-personal-store';

export default observer(function AuthenticationPage() {
  const { t } = useTranslation('personal');
  const store = useLoadedPersonalStore((api) => new RealNameStore(api));
  const status = store.reviewStatus;
  return (
    <PersonalFormPage title={t('realName.title')} testId="authentication" loader={store}>
      {status === 1 && <p className="notice-box" data-testid="kyc-review">{t('realName.underReview')}</p>}
      {status === 2 && <p className="notice-box ok" data-testid="kyc-approved">{t('realName.approved')}</p>}
      {status !== null && status !== 1 && status !== 2 && (
        <PersonalForm testId="kyc-form" onSubmit={() => store.submit()}>
          {store.rejectReason && (
            <p className="notice-box" data-testid="kyc-rejected">
              {t('realName.refused')} {store.rejectReason}
            </p>
          )}
          <TextField label={t('realName.name')} value={store.form.name} maxLength={50}
            onChange={(v) => store.set('name', v)} testId="kyc-name" />
          <TextField label={t('realName.cardId')} value={store.form.card_id} maxLength={30}
            onChange={(v) => store.set('card_id', v)} testId="kyc-card" />
          <div className="upload-row">
            <ImageUpload label={t('realName.front')} url={store.form.front_pic} testId="kyc-front"
              onFile={(f) => void store.upload('front_pic', f)} />
            <ImageUpload label={t('realName.back')} url={store.form.reverse_pic} testId="kyc-back"
              onFile={(f) => void store.upload('reverse_pic', f)} />
            <ImageUpload label={t('realName.hand')} url={store.form.hand_pic} testId="kyc-hand"
              onFile={(f) => void store.upload('hand_pic', f)} />
          </div>
          <FormError message={store.problem ? t(`realName.problems.${store.problem}`) : null} />
          <button type="submit" className="button" data-testid="submit">
            {t('common.submit')}
          </button>
        </PersonalForm>
      )}
    </PersonalFormPage>
  );
});
