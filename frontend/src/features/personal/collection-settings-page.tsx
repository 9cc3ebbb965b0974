/** /personal/collectionSettings: alipay, wxpay (name, account, QR image) and bank (name, bank, branch, number). */
import { observer } from 'mobx-react-lite';
import { type FormEvent, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { FormError } from '@/components/form/form-error';

import { ImageUpload } from './components/image-upload';
import { FormCard, PersonalLayout } from './components/personal-layout';
import { TextField } from './components/text-field';
import { PAY_FIELDS } from './lib/rules';
import { PayMethodStore } from './stores/profile-stores';
import type { PayMethodCode } from './types';
import { usePersonalStore } from './use-personal';

export default observer(function CollectionSettingsPage() {
  const { t } = useTranslation('personal');
  const store = usePersonalStore((api) => new PayMethodStore(api));
  useEffect(() => {
    void store.load();
  }, [store]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await store.save();
  };
  const code = store.code;
  const codes: PayMethodCode[] = store.types.length ? store.types.map((ty) => ty.code) : ['alipay', 'wxpay', 'bank'];
  return (
    <PersonalLayout>
      <FormCard title={t('collection.title')} testId="collection-settings">
        {store.status === 'error' && (
          <div className="empty" role="alert">
            <p>{t('common.loadFailed')}</p>
            <button type="button" className="button small" onClick={() => void store.load()}>
              {t('common.retry')}
            </button>
          </div>
        )}
        <div className="tabs" role="tablist">
          {codes.map((c) => (
            <button key={c} type="button" role="tab" aria-selected={c === code} className={`tab${c === code ? ' active' : ''}`}
              onClick={() => void store.select(c)} data-testid={`pay-${c}`}>
              {t(`collection.${c}`)}
            </button>
          ))}
        </div>
        <form className="personal-form" onSubmit={(e) => void submit(e)} noValidate data-testid="pay-method-form">
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
        </form>
      </FormCard>
    </PersonalLayout>
  );
});
