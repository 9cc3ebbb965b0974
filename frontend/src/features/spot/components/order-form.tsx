/**
 * Buy and sell forms with limit / market tabs, 25 % sliders and the totals. Visitors see login
 * and register links instead of the buttons (spec §6).
 */
import { observer } from 'mobx-react-lite';
import { type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { UnitField } from '@/components/market/unit-field';
import { EMPTY, truncate } from '@/lib/format';

import { SLIDER_STEP, SLIDER_STOPS } from '../lib/money';
import type { OrderMode } from '../lib/order-rules';
import { useSpotPage } from '../stores/spot-page-store';
import { BUY, SELL, type Way } from '../types';

/** Where visitors are sent (the shell's routes); after logging in they come back here. */
export const LOGIN_PATH = `/login?page=${encodeURIComponent('/trade')}`;
export const REGISTER_PATH = '/register';

const MODES: OrderMode[] = ['limit', 'market'];

const SideForm = observer(function SideForm({ way }: { way: Way }) {
  const { t } = useTranslation('spot');
  const { market, spot } = useSpotPage();
  const form = spot.form(way);
  const pair = market.pair;
  const side = way === BUY ? 'buy' : 'sell';
  const base = pair?.base_currency_code ?? '';
  const quote = pair?.quote_currency_code ?? '';
  const balance = spot.balanceFor(way);
  const best = spot.bestPrice(way);
  const total = spot.total(way);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void spot.submit(way);
  };

  return (
    <form className={`tp-side ${side}`} onSubmit={onSubmit} noValidate data-testid={`${side}-form`}>
      {spot.loggedIn && (
        <div className="tp-available">
          <span className="muted">{t('form.available')}</span>
          <span className="num" data-testid={`${side}-available`}>
            {balance === null ? EMPTY : `${truncate(balance, 6)} ${way === BUY ? quote : base}`}
          </span>
        </div>
      )}
      <label className="tp-field">
        <span className="tp-field-label">{t('form.price')}</span>
        {spot.mode === 'limit' ? (
          <input
            className="tp-input num"
            inputMode="decimal"
            autoComplete="off"
            placeholder={truncate(market.quotation?.close, market.priceDecimals)}
            value={form.price}
            onChange={(e) => spot.setPrice(way, e.target.value)}
            data-testid={`${side}-price`}
          />
        ) : (
          <input
            className="tp-input num"
            disabled
            value={best ? `${t('form.marketPrice')} ≈ ${truncate(best, market.priceDecimals)}` : t('form.marketPrice')}
            data-testid={`${side}-price`}
          />
        )}
        <span className="tp-unit">{quote}</span>
      </label>
      <UnitField
        label={t('form.amount')}
        unit={base}
        value={form.amount}
        onChange={(text) => spot.setAmount(way, text)}
        testId={`${side}-amount`}
      />
      <div className="tp-slider">
        <input
          type="range"
          min={0}
          max={100}
          step={SLIDER_STEP}
          value={form.percent}
          aria-label={`${t('form.amount')} %`}
          onChange={(e) => spot.setPercent(way, Number(e.target.value))}
          data-testid={`${side}-slider`}
        />
        <div className="tp-stops">
          {SLIDER_STOPS.map((p) => (
            <button
              key={p}
              type="button"
              className={form.percent >= p && p > 0 ? 'tp-stop on' : 'tp-stop'}
              onClick={() => spot.setPercent(way, p)}
              data-testid={`${side}-percent-${p}`}
            >
              {p}%
            </button>
          ))}
        </div>
      </div>
      <div className="tp-total">
        <span className="muted">{t('form.total')}</span>
        <span className="num" data-testid={`${side}-total`}>
          {total ?? EMPTY} {quote}
        </span>
      </div>
      <p className="tp-error" role="alert" data-testid={`${side}-error`}>
        {form.error ? t(form.error) : ''}
      </p>
      {spot.loggedIn ? (
        <button
          type="submit"
          className={`tp-button ${side}`}
          disabled={form.submitting || !pair}
          data-testid={`${side}-submit`}
        >
          {form.submitting ? t('form.submitting') : t(way === BUY ? 'form.buy' : 'form.sell', { coin: base })}
        </button>
      ) : (
        <p className="tp-visitor" data-testid={`${side}-login`}>
          <Link to={LOGIN_PATH} className="tp-link">
            {t('form.login')}
          </Link>{' '}
          {t('form.or')}{' '}
          <Link to={REGISTER_PATH} className="tp-link">
            {t('form.register')}
          </Link>{' '}
          {t('form.toTrade')}
        </p>
      )}
    </form>
  );
});

export const OrderForm = observer(function OrderForm() {
  const { t } = useTranslation('spot');
  const { spot } = useSpotPage();
  return (
    <section className="tp-panel tp-form" data-testid="order-form">
      <div className="tp-tabs" role="tablist">
        {MODES.map((mode) => (
          <button
            key={mode}
            type="button"
            role="tab"
            aria-selected={spot.mode === mode}
            className={spot.mode === mode ? 'tp-tab active' : 'tp-tab'}
            onClick={() => spot.setMode(mode)}
            data-testid={`mode-${mode}`}
          >
            {t(mode === 'limit' ? 'form.limit' : 'form.market')}
          </button>
        ))}
      </div>
      <div className="tp-sides">
        <SideForm way={BUY} />
        <SideForm way={SELL} />
      </div>
    </section>
  );
});
