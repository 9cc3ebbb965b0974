import { describe, expect, it, vi } from 'vitest';

import { PairMarketStore } from '@/components/market/stores/pair-market-store';
import { ApiError } from '@/lib/api-client';
import { setupScreenTests } from '@/test/screen-tests';

import { checkMicroOrder, winPayout } from '../lib/rules';
import { BALANCE_RELOAD_DELAY_MS, MicroOrderStore } from '../stores/order-store';
import { offersSeconds } from '../stores/micro-page-store';
import { CUSTOM, DOWN, PRESET, UP } from '../types';
import { fakeMicroApi, flush, payable } from './fixtures';

setupScreenTests();

async function setup() {
  const api = fakeMicroApi();
  const market = new PairMarketStore(api, { listed: offersSeconds, pairKey: 'second_tradeinfo' });
  const placed = vi.fn();
  const order = new MicroOrderStore(api, market, placed);
  await market.load();
  await order.loadCurrencies();
  order.onPairChanged();
  await flush();
  return { api, market, order, placed };
}

describe('the order rules (spec §5)', () => {
  it('refuses a stake that is not greater than 0 with p_num', () => {
    const draft = { pairId: 1, currencyId: 1, type: UP, kind: CUSTOM, seconds: 30 } as const;
    for (const stake of ['', '0', '0.000', '.', 'abc']) expect(checkMicroOrder({ ...draft, stake })).toEqual({ ok: false, error: 'p_num' });
    expect(checkMicroOrder({ ...draft, stake: '25.50' })).toEqual({
      ok: true,
      body: { match_id: 1, currency_id: 1, type: UP, lx: CUSTOM, seconds: 30, number: '25.5' },
    });
  });

  it('pays stake + stake × percent / 100 on a win', () => {
    expect(winPayout('25', '80')).toBe('45');
    expect(winPayout('10', '85')).toBe('18.5');
    expect(winPayout('10', '0')).toBe('10');
    expect(winPayout('0', '80')).toBeNull();
    expect(winPayout('10', undefined)).toBeNull();
  });
});

describe('MicroOrderStore', () => {
  it('lists the USDT pairs with open_microtrade only', async () => {
    const { market } = await setup();
    expect(market.tabs.map((g) => g.code)).toEqual(['USDT']);
    expect(market.quotePairs.map((p) => p.symbol)).toEqual(['BTC/USDT', 'ETH/USDT']);
    expect(market.symbol).toBe('BTC/USDT');
  });

  it('chooses the first stake currency, its first preset and the first duration of the pair', async () => {
    const { api, order } = await setup();
    expect(api.seconds).toHaveBeenCalledWith(1, { quiet: true });
    expect(order.currency?.code).toBe('USDT');
    expect(order.balance).toBe('100.00000000');
    expect(order.presets).toEqual(['10', '50', '100', '500']);
    expect(order.stake).toBe('10');
    expect(order.kind).toBe(PRESET);
    expect(order.seconds).toBe(30);
    expect(order.option?.profit_ratio).toBe('80');
    expect(order.payout).toBe('18');
    expect(order.ready).toBe(true);
  });

  it('sends a preset as lx 2 and a typed stake as lx 1', async () => {
    const { order } = await setup();
    order.pickPreset('50');
    order.openReview(UP);
    expect(order.review?.body).toEqual({ match_id: 1, currency_id: 1, type: UP, lx: PRESET, seconds: 30, number: '50' });
    order.closeReview();
    order.setStake('25.1234567');
    expect(order.stake).toBe('25.123456'); // 6 places
    order.setSeconds(60);
    order.openReview(DOWN);
    expect(order.review?.body).toEqual({ match_id: 1, currency_id: 1, type: DOWN, lx: CUSTOM, seconds: 60, number: '25.123456' });
  });

  it('refuses a typed 0 with the p_num message and opens no dialog', async () => {
    const { order, api } = await setup();
    order.setStake('0');
    expect(order.openReview(UP)).toBe(false);
    expect(order.error).toBe('p_num');
    expect(order.review).toBeNull();
    order.setStake('5');
    expect(order.error).toBeNull();
    expect(api.submit).not.toHaveBeenCalled();
  });

  it('shows pair, direction, stake, duration, percent and the payout of a win in the dialog', async () => {
    const { order } = await setup();
    order.setStake('25');
    order.setSeconds(120);
    order.openReview(UP);
    expect(order.review).toMatchObject({ symbol: 'BTC/USDT', type: UP, stake: '25', currency: 'USDT', seconds: 120, percent: '90', payout: '47.5' });
  });

  it('sends the reviewed order, hands it to the history and reloads the balance', async () => {
    const { api, order, placed } = await setup();
    order.setStake('25');
    order.openReview(UP);
    api.payableCurrencies.mockResolvedValue([payable({ micro_account: { balance: '75' } })]);
    expect(await order.confirm()).toBe(true);
    expect(api.submit).toHaveBeenCalledWith({ match_id: 1, currency_id: 1, type: UP, lx: CUSTOM, seconds: 30, number: '25' });
    expect(placed).toHaveBeenCalledWith(expect.objectContaining({ id: 900, number: '25' }));
    expect(order.review).toBeNull();
    await vi.advanceTimersByTimeAsync(0);
    expect(order.balance).toBe('75');
  });

  it('shows the server refusal in the dialog (e.g. the product switched off) and keeps it open', async () => {
    const { api, order, placed } = await setup();
    api.submit.mockRejectedValue(new ApiError('Second contracts are not offered here', 'business', { code: 0 }));
    order.openReview(UP);
    expect(await order.confirm()).toBe(false);
    expect(order.refusal).toBe('Second contracts are not offered here');
    expect(order.review).not.toBeNull();
    expect(placed).not.toHaveBeenCalled();
    order.closeReview();
    expect(order.refusal).toBeNull();
  });

  it('says why when the stake currencies cannot be read', async () => {
    const { api, order } = await setup();
    api.payableCurrencies.mockRejectedValue(new ApiError('Second contracts are not offered here', 'business', { code: 0 }));
    await order.loadCurrencies();
    expect(order.unavailable).toBe('Second contracts are not offered here');
    api.payableCurrencies.mockResolvedValue([payable()]);
    await order.loadCurrencies();
    expect(order.unavailable).toBeNull();
  });

  it('keeps the chosen duration on another pair while it is offered', async () => {
    const { api, market, order } = await setup();
    order.setSeconds(60);
    market.selectPair(2);
    order.onPairChanged();
    await flush();
    expect(api.seconds).toHaveBeenLastCalledWith(2, { quiet: true });
    expect(order.seconds).toBe(60);
    api.seconds.mockResolvedValue([{ seconds: 300, profit_ratio: '90' }]);
    market.selectPair(1);
    order.onPairChanged();
    await flush();
    expect(order.seconds).toBe(300);
  });

  it('keeps a typed stake across currencies; a preset follows the currency', async () => {
    const { api, order } = await setup();
    api.payableCurrencies.mockResolvedValue([payable(), payable({ id: 2, code: 'BTC', micro_numbers: [{ number: '0.01' }] })]);
    await order.loadCurrencies();
    order.setCurrency(2);
    expect(order.stake).toBe('0.01');
    order.setStake('0.5');
    order.setCurrency(1);
    expect(order.stake).toBe('0.5');
  });

  it('reloads the balance once after a burst of settlements', async () => {
    const { api, order } = await setup();
    api.payableCurrencies.mockClear();
    order.scheduleReload();
    order.scheduleReload();
    await vi.advanceTimersByTimeAsync(BALANCE_RELOAD_DELAY_MS);
    expect(api.payableCurrencies).toHaveBeenCalledTimes(1);
    expect(api.payableCurrencies).toHaveBeenCalledWith({ quiet: true });
  });
});
