/**
 * Posting or editing an ad: side (I sell / I buy), coin, fiat, price, limits per order in fiat,
 * total in coins, methods (on a sell ad only the merchant's own saved collection methods), payment
 * window and remarks. An edit keeps the side, coin and fiat.
 */
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { FormError } from '@/components/form/form-error';
import { Dialog } from '@/components/ui/dialog';
import { paths } from '@/config/paths';

import { fiatTotal } from '../lib/money';
import { REMARKS_MAX } from '../lib/rules';
import type { AdFormStore } from '../stores/shop-store';
import { AD_SIDE, type AdSide } from '../types';
import { useMethodName } from './ui';

import '../i18n';

export const AdFormDialog = observer(function AdFormDialog({
  form,
  onSave,
  onClose,
}: {
  form: AdFormStore;
  onSave: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('p2p');
  const methodName = useMethodName();
  const v = form.values;
  const code = form.config.currencies.find((c) => c.id === v.currency_id)?.code ?? '';
  const windows = form.config.windows.length ? form.config.windows : [v.window_min];
  const choices = form.methodChoices;
  const worth = fiatTotal(v.total, v.price);
  const sides: AdSide[] = [AD_SIDE.sell, AD_SIDE.buy];

  return (
    <Dialog wide title={t(form.editing ? 'adForm.editTitle' : 'adForm.newTitle')} onClose={onClose} testId="p2p-ad-form"
      actions={
        <>
          <button type="button" className="button ghost" onClick={onClose} data-testid="p2p-ad-form-cancel">
            {t('common.cancel')}
          </button>
          <button type="button" className="button" disabled={form.busy} onClick={onSave} data-testid="p2p-ad-form-ok">
            {form.busy ? t('common.sending') : t(form.editing ? 'adForm.save' : 'adForm.post')}
          </button>
        </>
      }>
      <div className="p2p-form-grid">
        <fieldset className="p2p-choices" disabled={form.editing}>
          <legend className="muted">{t('adForm.side')}</legend>
          {sides.map((s) => (
            <label key={s} className={`p2p-choice${v.side === s ? ' active' : ''}`}>
              <input type="radio" name="p2p-ad-side" checked={v.side === s} onChange={() => form.set('side', s)}
                data-testid={`p2p-ad-form-side-${s === AD_SIDE.sell ? 'sell' : 'buy'}`} />
              <span className={s === AD_SIDE.sell ? 'down' : 'up'}>{t(s === AD_SIDE.sell ? 'adForm.sell' : 'adForm.buy')}</span>
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>{t('adForm.currency')}</span>
          <select className="input" value={v.currency_id ?? ''} disabled={form.editing}
            onChange={(e) => form.set('currency_id', Number(e.target.value))} data-testid="p2p-ad-form-currency">
            {form.config.currencies.map((c) => (
              <option key={c.id} value={c.id}>
                {c.code}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('adForm.fiat')}</span>
          <select className="input" value={v.fiat} disabled={form.editing} onChange={(e) => form.set('fiat', e.target.value)}
            data-testid="p2p-ad-form-fiat">
            {form.config.fiats.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
        <AmountInput label={t('adForm.price')} unit={t('adForm.priceUnit', { fiat: v.fiat, code })} value={v.price}
          onChange={(x) => form.setAmount('price', x)} testId="p2p-ad-form-price" />
        <AmountInput label={t('adForm.min')} unit={v.fiat} value={v.min_fiat} onChange={(x) => form.setAmount('min_fiat', x)}
          testId="p2p-ad-form-min" />
        <AmountInput label={t('adForm.max')} unit={v.fiat} value={v.max_fiat} onChange={(x) => form.setAmount('max_fiat', x)}
          testId="p2p-ad-form-max" />
        <AmountInput label={t('adForm.total')} unit={code} value={v.total} onChange={(x) => form.setAmount('total', x)}
          testId="p2p-ad-form-total" />
        <label className="field">
          <span>{t('adForm.window')}</span>
          <select className="input" value={v.window_min} onChange={(e) => form.set('window_min', Number(e.target.value))}
            data-testid="p2p-ad-form-window">
            {windows.map((w) => (
              <option key={w} value={w}>
                {t('adForm.minutes', { minutes: w })}
              </option>
            ))}
          </select>
        </label>
      </div>
      {worth && (
        <p className="muted p2p-small" data-testid="p2p-ad-form-worth">
          {t('adForm.worth', { total: `${worth} ${v.fiat}` })}
        </p>
      )}
      <fieldset className="p2p-choices">
        <legend className="muted">{t('adForm.methods')}</legend>
        {choices.map((m) => (
          <label key={m} className={`p2p-choice${v.methods.includes(m) ? ' active' : ''}`}>
            <input type="checkbox" checked={v.methods.includes(m)} onChange={() => form.toggleMethod(m)}
              data-testid={`p2p-ad-form-method-${m}`} />
            <span className={`p2p-method ${m}`}>{methodName(m)}</span>
          </label>
        ))}
        {!choices.length && (
          <span className="muted p2p-small" data-testid="p2p-ad-form-no-methods">
            {t('adForm.noMethods')}{' '}
            <Link className="link-accent" to={paths.personal.collectionSettings}>
              {t('adForm.collection')}
            </Link>
          </span>
        )}
      </fieldset>
      <label className="field">
        <span>{t('adForm.remarks')}</span>
        <textarea className="input p2p-textarea" maxLength={REMARKS_MAX} value={v.remarks}
          onChange={(e) => form.set('remarks', e.target.value)} data-testid="p2p-ad-form-remarks" />
      </label>
      <p className="muted p2p-small">{t(v.side === AD_SIDE.sell ? 'adForm.sellNote' : 'adForm.buyNote')}</p>
      <FormError message={form.problem ? t(`adForm.problems.${form.problem}`, { decimals: form.decimals }) : null} />
    </Dialog>
  );
});

function AmountInput({
  label,
  unit,
  value,
  onChange,
  testId,
}: {
  label: string;
  unit: string;
  value: string;
  onChange: (text: string) => void;
  testId: string;
}) {
  return (
    <label className="field">
      <span>{label}</span>
      <span className="p2p-amount-row">
        <input className="input" inputMode="decimal" value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId} />
        <span className="muted p2p-unit">{unit}</span>
      </span>
    </label>
  );
}
