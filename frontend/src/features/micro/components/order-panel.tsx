/**
 * The second-contract order panel: payable-currency tabs, the micro balance (with a transfer link),
 * the stake (typed, or one of the presets), the durations with their profit percent, the settlement
 * price, the payout a win would bring and the buy-up and buy-down buttons; the confirm dialog shows
 * pair, direction, stake, duration, percent and payout before anything is sent.
 */
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { TabBar } from '@/components/market/tab-bar';
import { UnitField } from '@/components/market/unit-field';
import { ConfirmDialog, type SummaryRow } from '@/components/ui/confirm-dialog';
import { paths } from '@/config/paths';
import { EMPTY, formatPrice, truncate } from '@/lib/format';

import { useMicroPage } from '../stores/micro-page-store';
import { DOWN, type Direction, PRESET, UP } from '../types';

const DIRECTIONS: Direction[] = [UP, DOWN];
const directionName = (type: Direction) => (type === UP ? 'up' : 'down');

/** The transfer page, opened on moving the stake currency into the micro account. */
const transferToMicro = (currencyId: number | undefined) =>
  `${paths.assets.transfer}?currency_id=${currencyId ?? ''}&to=micro_account`;

export const MicroOrderPanel = observer(function MicroOrderPanel() {
  const { t } = useTranslation('micro');
  const { t: tSpot } = useTranslation('spot');
  const { market, order } = useMicroPage();
  const currency = order.currency;
  const code = currency?.code ?? '';

  return (
    <section className="tp-panel sc-form" data-testid="second-order-panel">
      {order.unavailable && (
        <p className="tp-note" role="alert" data-testid="second-unavailable">
          {order.unavailable}
        </p>
      )}
      <div className="sc-row">
        <span className="muted">{t('form.currency')}</span>
        <TabBar
          tabs={order.currencies.map((c) => ({ key: c.id, label: c.code, testId: `second-currency-${c.code}` }))}
          active={order.currencyId}
          onSelect={(id) => order.setCurrency(id)}
        />
      </div>
      {order.currencies.length === 0 && !order.unavailable && <p className="tp-note">{t('form.noCurrencies')}</p>}

      <div className="tp-available">
        <span className="muted">{t('form.available')}</span>
        <span>
          <span className="num" data-testid="second-available">
            {order.balance === null ? EMPTY : `${truncate(order.balance, 4)} ${code}`}
          </span>{' '}
          <Link className="tp-link" to={transferToMicro(currency?.id)} data-testid="second-transfer">
            {t('form.transfer')}
          </Link>
        </span>
      </div>

      <UnitField
        label={t('form.stake')}
        unit={code}
        value={order.stake}
        onChange={(text) => order.setStake(text)}
        testId="second-stake"
      />
      <div className="sc-presets">
        {order.presets.map((number) => (
          <button
            key={number}
            type="button"
            className={order.kind === PRESET && order.stake === number ? 'sc-chip on' : 'sc-chip'}
            aria-pressed={order.kind === PRESET && order.stake === number}
            onClick={() => order.pickPreset(number)}
            data-testid={`second-preset-${number}`}
          >
            {formatPrice(number)}
          </button>
        ))}
      </div>
      {currency?.min_number && currency.max_number && (
        <p className="muted sc-hint" data-testid="second-range">
          {t('form.range', { min: formatPrice(currency.min_number), max: formatPrice(currency.max_number), code })}
        </p>
      )}

      <span className="muted">{t('form.duration')}</span>
      <div className="sc-durations" role="radiogroup" aria-label={t('form.duration')}>
        {order.options.map((o) => (
          <button
            key={o.seconds}
            type="button"
            role="radio"
            aria-checked={order.seconds === o.seconds}
            className={order.seconds === o.seconds ? 'sc-duration on' : 'sc-duration'}
            onClick={() => order.setSeconds(o.seconds)}
            data-testid={`second-seconds-${o.seconds}`}
          >
            <strong>{t('form.seconds', { seconds: o.seconds })}</strong>
            <span className="up">{t('form.percent', { percent: formatPrice(o.profit_ratio) })}</span>
          </button>
        ))}
      </div>
      {market.pair && order.options.length === 0 && <p className="tp-note">{t('form.noDurations')}</p>}

      <dl className="sc-preview">
        <div>
          <dt className="muted">{t('form.mark')}</dt>
          <dd className="num" data-testid="second-mark">
            {truncate(order.mark ?? market.quotation?.close, market.priceDecimals)}
          </dd>
        </div>
        <div>
          <dt className="muted">{t('form.payout')}</dt>
          <dd className="num" data-testid="second-payout">
            {order.payout ? `${formatPrice(order.payout)} ${code}` : EMPTY}
          </dd>
        </div>
      </dl>

      <p className="tp-error" role="alert" data-testid="second-error">
        {order.error ? tSpot(order.error) : ''}
      </p>
      <div className="sc-buttons">
        {DIRECTIONS.map((type) => (
          <button
            key={type}
            type="button"
            className={`tp-button ${type === UP ? 'buy' : 'sell'}`}
            disabled={!order.ready || order.submitting}
            onClick={() => order.openReview(type)}
            data-testid={`second-${directionName(type)}`}
          >
            {t(`form.${directionName(type)}`)}
          </button>
        ))}
      </div>
      <p className="muted sc-hint">{t('form.rule')}</p>
      {order.review && <OrderConfirm />}
    </section>
  );
});

/** Spec: the confirm dialog before an order is sent; a refusal is the server's message, shown here. */
const OrderConfirm = observer(function OrderConfirm() {
  const { t } = useTranslation('micro');
  const { order } = useMicroPage();
  const review = order.review;
  if (!review) return null;
  const rows: SummaryRow[] = [
    { key: 'pair', label: t('confirm.pair'), value: review.symbol },
    { key: 'direction', label: t('confirm.direction'), value: t(`types.${review.type}`), className: directionName(review.type) },
    { key: 'stake', label: t('confirm.stake'), value: `${formatPrice(review.stake)} ${review.currency}` },
    { key: 'duration', label: t('confirm.duration'), value: t('form.seconds', { seconds: review.seconds }) },
    { key: 'percent', label: t('confirm.percent'), value: t('form.percent', { percent: formatPrice(review.percent) }) },
    {
      key: 'payout',
      label: t('confirm.payout'),
      value: review.payout ? `${formatPrice(review.payout)} ${review.currency}` : EMPTY,
    },
  ];
  return (
    <ConfirmDialog
      title={t('confirm.title')}
      testId="second-confirm"
      rows={rows}
      tone={review.type === UP ? 'buy' : 'sell'}
      busy={order.submitting}
      labels={{ ok: t('confirm.ok'), cancel: t('confirm.cancel'), busy: t('confirm.submitting') }}
      onConfirm={() => void order.confirm()}
      onCancel={() => order.closeReview()}
    >
      <p className="muted sc-hint">{t('confirm.note')}</p>
      {order.refusal && (
        <p className="tp-error" role="alert" data-testid="second-confirm-error">
          {order.refusal}
        </p>
      )}
    </ConfirmDialog>
  );
});
