/** /personal/collectionSettings: alipay, wxpay (name, account, QR image) and bank (name, bank, branch, number). */
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';

import { FormError } from '@/components/form/form-error';

import { ImageUpload } from './components/image-upload';
import { PersonalForm, PersonalFormPage } from './components/personal-layout';
import { TextField } from './components/text-field';
import { PAY_FIELDS } from './lib/rules';
import { PayMethodStore } from './stores/profile-stores';
import type { PayMethodCode } from './types';
import { useLoadedPersonalStore } from './stores/use-personal-store';

export default observer(function CollectionSettingsPage() {
  const { t } = useTranslation('personal');
  const store = useLoadedPersonalStore((api) => new PayMethodStore(api));
  const code = store.code;
  const codes: PayMethodCode[] = store.types.length ? store.types.map((ty) => ty.code) : ['alipay', 'wxpay', 'bank'];
  return (
    <PersonalFormPage title={t('collection.title')} testId="collection-settings" loader={store}>
      <div className="tabs" role="tablist">
        {codes.map((c) => (
          <button key={c} type="button" role="tab" aria-selected={c === code} className={`tab${c === code ? ' active' : ''}`}
            onClick={() => void store.select(c)} data-testid={`pay-${c}`}>
            {t(`collection.${c}`)}
          </button>
        ))}
      </div>
      <PersonalForm testId="pay-method-form" onSubmit={() => store.save()}>
        {PAY_FIELDS[code].map((field) =>
          field === 'qrcode' ? (
            <ImageUpload key={field} label={t('collection.qrcode')} url={store.raw.qrcode} testId="pay-qrcode"
              onFile={(f) => void store.upload(f)} />
          ) : (
            <TextField key={field} label={t(`collection.fields.${code}.${field}` as 'collection.fields.bank.real_name')}
              value={store.raw[field] ?? ''} maxLength={64} onChange={(v) => store.set(field, v)} testId={`pay-${field}`} />
          ),
        )}
        <FormError message={store.problem ? t(`collection.problems.${code}.${store.problem}` as 'collection.problems.bank.real_name') : null} />
        <button type="submit" className="button" data-testid="submit">
          {t('common.save')}
        </button>
      </PersonalForm>
    </PersonalFormPage>
  );
});
