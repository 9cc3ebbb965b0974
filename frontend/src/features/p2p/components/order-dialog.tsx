/**
 * The order dialog of an ad: the taker types either the fiat to pay (or receive) or the coins, the
 * other is computed (coins rounded down, the total half up to cents), picks one of the ad's methods
 * and opens the order. A refusal of the server (no approved real name, the daily cancellation
 * limit, an ad that changed) shows here in its words.
 */
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';

import { FormError } from '@/components/form/form-error';
import { Dialog } from '@/components/ui/dialog';
import { EMPTY, formatPrice } from '@/lib/format';

import { plain } from '../lib/money';
import type { OrderFormStore } from '../stores/ad-market-store';
import { useMethodName } from './ui';

import '../i18n';

export const OrderDialog = observer(function OrderDialog({
  form,
  onClose,
  onOpened,
}: {
  form: OrderFormStore;
  onClose: () => void;
  /** The order opened: its id (the page goes to its detail). */
  onOpened: (id: number) => void;
}) {
  const { t } = useTranslation('p2p');
  const methodName = useMethodName();
  const ad = form.ad;
  const buying = ad.taker_side === 'buy';
  const { amount, total } = form.figures;
  const submit = async () => {
    const order = await form.submit();
    if (order) onOpened(order.id);
  };
  const problem = form.problem;
  const problemText = !problem
    ? null
    : problem.kind === 'amount'
      ? t('order.problems.amount')
      : problem.kind === 'method'
        ? t('order.problems.method')
        : problem.kind === 'stock'
          ? t('order.problems.stock', { limit: plain(problem.limit), code: ad.currency })
          : t(`order.problems.${problem.kind}`, { limit: formatPrice(problem.limit, 2), fiat: ad.fiat });

  return (
    <Dialog title={t(buying ? 'order.buyTitle' : 'order.sellTitle', { code: ad.currency })} onClose={onClose}
      testId="p2p-order-dialog"
      actions={
        <>
          <button type="button" className="button ghost" onClick={onClose} data-testid="p2p-order-dialog-cancel">
            {t('common.cancel')}
          </button>
          <button type="button" className={`button p2p-act ${buying ? 'buy' : 'sell'}`} disabled={form.busy}
            onClick={() => void submit()} data-testid="p2p-order-dialog-ok">
            {form.busy ? t('common.sending') : t(buying ? 'order.submitBuy' : 'order.submitSell')}
          </button>
        </>
      }>
      <dl className="dialog-summary">
        <div>
          <dt className="muted">{t('order.merchant')}</dt>
          <dd data-testid="p2p-order-merchant">{ad.merchant.nickname}</dd>
        </div>
        <div>
          <dt className="muted">{t('order.price')}</dt>
          <dd className="num" data-testid="p2p-order-price">
            {formatPrice(ad.price, 2)} {ad.fiat}
          </dd>
        </div>
        <div>
          <dt className="muted">{t('order.limits')}</dt>
          <dd className="num">
            {formatPrice(ad.min_fiat, 2)} – {formatPrice(ad.max_now, 2)} {ad.fiat}
          </dd>
        </div>
        <div>
          <dt className="muted">{t('order.available')}</dt>
          <dd className="num">
            {plain(ad.stock) ?? EMPTY} {ad.currency}
          </dd>
        </div>
      </dl>
      <label className="field">
        <span>{t(buying ? 'order.fiatBuy' : 'order.fiatSell')}</span>
        <span className="p2p-amount-row">
          <input className="input" inputMode="decimal" value={form.fiatText} placeholder={t('order.fiatPlaceholder')}
            onChange={(e) => form.setFiat(e.target.value)} data-testid="p2p-order-fiat" />
          <span className="muted p2p-unit">{ad.fiat}</span>
          <button type="button" className="button ghost small" onClick={() => form.fillMax()} data-testid="p2p-order-max">
            {t('order.max')}
          </button>
        </span>
      </label>
      <label className="field">
        <span>{t(buying ? 'order.coinBuy' : 'order.coinSell')}</span>
        <span className="p2p-amount-row">
          <input className="input" inputMode="decimal" value={form.coinText} placeholder={t('order.coinPlaceholder')}
            onChange={(e) => form.setCoin(e.target.value)} data-testid="p2p-order-coin" />
          <span className="muted p2p-unit">{ad.currency}</span>
        </span>
      </label>
      <fieldset className="p2p-choices">
        <legend className="muted">{t('order.method')}</legend>
        {ad.methods.map((m) => (
          <label key={m} className={`p2p-choice${form.method === m ? ' active' : ''}`}>
            <input type="radio" name="p2p-method" value={m} checked={form.method === m}
              onChange={() => form.setMethod(m)} data-testid={`p2p-order-method-${m}`} />
            <span className={`p2p-method ${m}`}>{methodName(m)}</span>
          </label>
        ))}
      </fieldset>
      <dl className="dialog-summary p2p-order-summary">
        <div>
          <dt className="muted">{t('order.amount')}</dt>
          <dd className="num" data-testid="p2p-order-amount">
            {amount ? `${plain(amount)} ${ad.currency}` : EMPTY}
          </dd>
        </div>
        <div>
          <dt className="muted">{t('order.total')}</dt>
          <dd className="num p2p-strong" data-testid="p2p-order-total">
            {total ? `${total} ${ad.fiat}` : EMPTY}
          </dd>
        </div>
      </dl>
      <p className="muted p2p-small">
        {t('order.window', { minutes: ad.window_min })} {t(buying ? 'order.buyNote' : 'order.sellNote')}
      </p>
      {ad.remarks && (
        <p className="p2p-remarks" data-testid="p2p-order-remarks">
          <span className="muted">{t('order.remarks')}</span> {ad.remarks}
        </p>
      )}
      <FormError message={problemText} />
      {form.refusal && (
        <p className="form-error" role="alert" data-testid="p2p-order-refusal">
          {form.refusal}
        </p>
      )}
    </Dialog>
  );
});
