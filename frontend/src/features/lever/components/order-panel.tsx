/**
 * The lever order panel: market-price / fixed-price tabs, long or short, multiple and hands, the
 * fixed price, the free lever balance and a live preview of margin and fee; the confirm dialog
 * shows hands, multiple, fee and margin before anything is sent (spec "Leveraged-contract screen").
 */
import { observer } from 'mobx-react-lite';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { TabBar } from '@/components/market/tab-bar';
import { ConfirmDialog, type SummaryRow } from '@/components/ui/confirm-dialog';
import { paths } from '@/config/paths';
import { EMPTY, formatPrice, truncate } from '@/lib/format';

import type { LeverMode } from '../lib/rules';
import { useLeverPage } from '../stores/lever-page-store';
import { LONG, SHORT, type Side } from '../types';

const MODES: LeverMode[] = ['market', 'fixed'];
const SIDES: Side[] = [LONG, SHORT];
const sideName = (side: Side) => (side === LONG ? 'long' : 'short');

/** The transfer page, opened on moving the quote currency (USDT) into the lever account. */
const transferToLever = (currencyId: number | undefined) =>
  `${paths.assets.transfer}?currency_id=${currencyId ?? ''}&to=lever_account`;

export const LeverOrderPanel = observer(function LeverOrderPanel() {
  const { t } = useTranslation('lever');
  const { market, order } = useLeverPage();
  const pair = market.pair;
  const base = pair?.base_currency_code ?? '';
  const quote = pair?.quote_currency_code ?? 'USDT';
  const preview = order.preview;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    order.openReview();
  };

  return (
    <section className="tp-panel lv-form" data-testid="lever-order-panel">
      <TabBar
        tabs={MODES.map((mode) => ({ key: mode, label: t(`form.${mode}`), testId: `lever-mode-${mode}` }))}
        active={order.mode}
        onSelect={(mode) => order.setMode(mode)}
      />

      <form className="lv-fields" onSubmit={onSubmit} noValidate data-testid="lever-form">
        <div className="lv-sides" role="radiogroup" aria-label={t('confirm.side')}>
          {SIDES.map((side) => (
            <button
              key={side}
              type="button"
              role="radio"
              aria-checked={order.side === side}
              className={`lv-side ${sideName(side)}${order.side === side ? ' active' : ''}`}
              onClick={() => order.setSide(side)}
              data-testid={`lever-side-${sideName(side)}`}
            >
              {t(`form.${sideName(side)}`)}
            </button>
          ))}
        </div>

        <div className="tp-available">
          <span className="muted">{t('form.available')}</span>
          <span>
            <span className="num" data-testid="lever-available">
              {order.balance === null ? EMPTY : `${truncate(order.balance, 4)} ${quote}`}
            </span>{' '}
            <Link className="tp-link" to={transferToLever(pair?.quote_currency_id)} data-testid="lever-transfer">
              {t('form.transfer')}
            </Link>
          </span>
        </div>

        <label className="tp-field">
          <span className="tp-field-label">{t('form.price')}</span>
          {order.mode === 'fixed' ? (
            <input
              className="tp-input num"
              inputMode="decimal"
              autoComplete="off"
              placeholder={truncate(order.mark ?? market.quotation?.close, 4)}
              value={order.price}
              onChange={(e) => order.setPrice(e.target.value)}
              data-testid="lever-price"
            />
          ) : (
            <input
              className="tp-input num"
              disabled
              value={order.unitPrice ? `≈ ${order.unitPrice}` : t('form.marketPrice')}
              data-testid="lever-price"
            />
          )}
          <span className="tp-unit">{quote}</span>
        </label>

        <label className="tp-field">
          <span className="tp-field-label">{t('form.multiple')}</span>
          <select
            className="tp-input num"
            value={order.multiple ?? ''}
            onChange={(e) => order.setMultiple(e.target.value ? Number(e.target.value) : null)}
            data-testid="lever-multiple"
          >
            <option value="">{EMPTY}</option>
            {order.multiples.map((m) => (
              <option key={m} value={m}>
                {m}×
              </option>
            ))}
          </select>
        </label>

        <label className="tp-field">
          <span className="tp-field-label">{t('form.hands')}</span>
          <input
            className="tp-input num"
            inputMode="numeric"
            autoComplete="off"
            value={order.hands}
            onChange={(e) => order.setHands(e.target.value)}
            data-testid="lever-hands"
          />
        </label>
        <div className="lv-presets">
          {order.handPresets.map((p) => (
            <button
              key={p.value}
              type="button"
              className={order.hands === String(p.value) ? 'tp-stop on' : 'tp-stop'}
              onClick={() => order.setHands(String(p.value))}
              data-testid={`lever-hands-${p.value}`}
            >
              {p.label}
            </button>
          ))}
        </div>
        {pair?.lever_share_num && (
          <p className="muted lv-hint" data-testid="lever-hand-size">
            {t('form.handSize', { amount: formatPrice(pair.lever_share_num), base })}
          </p>
        )}

        <dl className="lv-preview">
          <div>
            <dt className="muted">{t('form.margin')}</dt>
            <dd className="num" data-testid="lever-margin">
              {preview ? `${preview.margin} ${quote}` : EMPTY}
            </dd>
          </div>
          <div>
            <dt className="muted">{t('form.fee')}</dt>
            <dd className="num" data-testid="lever-fee">
              {preview ? `${preview.fee} ${quote}` : EMPTY}
            </dd>
          </div>
        </dl>

        <p className="tp-error" role="alert" data-testid="lever-error">
          {order.error ? t(order.error) : ''}
        </p>
        <button
          type="submit"
          className={`tp-button ${order.side === LONG ? 'buy' : 'sell'}`}
          disabled={!pair || order.submitting}
          data-testid="lever-submit"
        >
          {t(order.side === LONG ? 'form.openLong' : 'form.openShort')}
        </button>
      </form>
      {order.review && <OrderConfirm />}
    </section>
  );
});

/** Spec: "confirm order (hands, multiple, fee, margin)". */
const OrderConfirm = observer(function OrderConfirm() {
  const { t } = useTranslation('lever');
  const { market, order } = useLeverPage();
  const review = order.review;
  if (!review) return null;
  const quote = market.pair?.quote_currency_code ?? 'USDT';
  const rows: SummaryRow[] = [
    { key: 'pair', label: t('confirm.pair'), value: market.symbol ?? EMPTY },
    { key: 'side', label: t('confirm.side'), value: t(`types.${review.side}`), className: review.side === LONG ? 'up' : 'down' },
    {
      key: 'price',
      label: t('confirm.price'),
      value: review.mode === 'market' ? t('confirm.marketPrice', { price: review.price }) : `${review.price} ${quote}`,
    },
    { key: 'hands', label: t('confirm.hands'), value: String(review.hands) },
    { key: 'multiple', label: t('confirm.multiple'), value: `${review.multiple}×` },
    { key: 'fee', label: t('confirm.fee'), value: `${review.fee} ${quote}` },
    { key: 'margin', label: t('confirm.margin'), value: `${review.margin} ${quote}` },
    { key: 'total', label: t('confirm.total'), value: `${review.total} ${quote}` },
  ];
  return (
    <ConfirmDialog
      title={t('confirm.title')}
      testId="lever-confirm"
      rows={rows}
      tone={review.side === LONG ? 'buy' : 'sell'}
      busy={order.submitting}
      labels={{ ok: t('confirm.ok'), cancel: t('confirm.cancel'), busy: t('form.submitting') }}
      onConfirm={() => void order.confirm()}
      onCancel={() => order.closeReview()}
    >
      <p className="muted lv-hint">{t(review.mode === 'market' ? 'confirm.marketNote' : 'confirm.fixedNote')}</p>
    </ConfirmDialog>
  );
});
