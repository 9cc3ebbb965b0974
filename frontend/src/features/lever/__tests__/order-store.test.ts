import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { PairMarketStore } from '@/components/market/stores/pair-market-store';
import { MemoryStorage } from '@/test/memory-storage';

import { offersLever } from '../stores/lever-page-store';
import { DEAL_RELOAD_DELAY_MS, LeverOrderStore } from '../stores/order-store';
import { LONG, SHORT } from '../types';
import { fakeLeverApi, flush, leverDeal } from './fixtures';

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('localStorage', new MemoryStorage());
});
afterEach(() => {
  vi.useRealTimers();
});

async function setup() {
  const api = fakeLeverApi();
  const market = new PairMarketStore(api, { listed: offersLever, pairKey: 'lever_tradeinfo' });
  const opened = vi.fn();
  const order = new LeverOrderStore(api, market, opened);
  await market.load();
  order.onPairChanged();
  await flush();
  return { api, market, order, opened };
}

describe('LeverOrderStore', () => {
  it('takes the balance, the offer and the mark from lever/deal, with the spec defaults (200×, 1 hand)', async () => {
    const { api, order } = await setup();
    expect(api.leverDeal).toHaveBeenCalledWith(1, {});
    expect(order.balance).toBe('1000');
    expect(order.multiples).toEqual([5, 10, 20, 50, 100, 200]);
    expect(order.handPresets.map((p) => p.value)).toEqual([1, 2, 5, 10, 20, 50]);
    expect(order.multiple).toBe(200);
    expect(order.hands).toBe('1');
    expect(order.mark).toBe('60000');
  });

  it('defaults to the first multiple offered when 200 is not, and keeps a choice across reloads', async () => {
    const { api, order } = await setup();
    order.setMultiple(10);
    order.scheduleReload(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(order.multiple).toBe(10);
    api.leverDeal.mockResolvedValue(leverDeal({ multiple: { muit: [2, 3], share: [] } }));
    await order.loadDeal();
    expect(order.multiple).toBe(2);
  });

  it('previews a market order at the mark plus the spread for a long, minus for a short', async () => {
    const { order } = await setup();
    // BTC: 0.01 a hand, 0.1 % fee, 0.05 % spread; mark 60000 → long 60030, short 59970
    expect(order.unitPrice).toBe('60030');
    expect(order.preview).toMatchObject({ margin: '3.0015', fee: '0.6003' });
    order.setSide(SHORT);
    expect(order.unitPrice).toBe('59970');
    order.setHands('10');
    order.setMultiple(20);
    expect(order.preview).toMatchObject({ value: '5997', margin: '299.85', fee: '5.997' });
  });

  it('follows the mark pushes live', async () => {
    const { order } = await setup();
    order.onMark('50000');
    expect(order.unitPrice).toBe('50025');
    expect(order.preview?.margin).toBe('2.50125');
  });

  it('previews a fixed price at the typed price, cut to 4 decimals', async () => {
    const { order } = await setup();
    order.setMode('fixed');
    expect(order.preview).toBeNull();
    order.setPrice('59000.123456');
    expect(order.price).toBe('59000.1234');
    expect(order.preview).toMatchObject({ price: '59000.1234', margin: '2.950007', fee: '0.590002' });
  });

  it('a click on the book switches to a fixed price at that level', async () => {
    const { order } = await setup();
    order.fillPrice('59999.5');
    expect(order.mode).toBe('fixed');
    expect(order.price).toBe('59999.5');
  });

  it('validates in the spec order before the confirm dialog opens', async () => {
    const { order } = await setup();
    order.setMode('fixed');
    order.setMultiple(null);
    order.setHands('');
    expect(order.openReview()).toBe(false);
    expect(order.error).toBe('p_delprice');
    order.setPrice('59000');
    expect(order.error).toBeNull();
    expect(order.openReview()).toBe(false);
    expect(order.error).toBe('p_times');
    order.setMultiple(10);
    expect(order.openReview()).toBe(false);
    expect(order.error).toBe('p_hands');
    order.setHands('3');
    expect(order.openReview(SHORT)).toBe(true);
    expect(order.review).toMatchObject({ side: SHORT, mode: 'fixed', hands: 3, multiple: 10, margin: '177', fee: '1.77' });
  });

  it('sends the reviewed order on confirm, hands the position on and reloads the balance', async () => {
    const { api, order, opened } = await setup();
    expect(order.openReview(LONG)).toBe(true);
    expect(order.review).toMatchObject({ hands: 1, multiple: 200, margin: '3.0015', fee: '0.6003', total: '3.6018' });
    api.leverDeal.mockClear();
    expect(await order.confirm()).toBe(true);
    expect(api.submit).toHaveBeenCalledWith({
      currency_match_id: 1,
      type: LONG,
      status: 1,
      share: 1,
      multiple: 200,
      target_price: null,
    });
    expect(order.review).toBeNull();
    expect(opened).toHaveBeenCalledWith(expect.objectContaining({ id: 900 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(api.leverDeal).toHaveBeenCalledWith(1, { quiet: true });
  });

  it('keeps the dialog open when the server refuses', async () => {
    const { api, order, opened } = await setup();
    api.submit.mockRejectedValue(new Error('Insufficient balance'));
    order.openReview();
    expect(await order.confirm()).toBe(false);
    expect(order.review).not.toBeNull();
    expect(order.submitting).toBe(false);
    expect(opened).not.toHaveBeenCalled();
  });

  it('debounces the balance reloads that pushes ask for', async () => {
    const { api, order } = await setup();
    api.leverDeal.mockClear();
    order.scheduleReload();
    order.scheduleReload();
    await vi.advanceTimersByTimeAsync(DEAL_RELOAD_DELAY_MS);
    expect(api.leverDeal).toHaveBeenCalledTimes(1);
  });

  it('a new pair starts clean and drops a late answer for the old one', async () => {
    const { api, market, order } = await setup();
    order.setMode('fixed');
    order.setPrice('1');
    order.setHands('7');
    let answer!: (d: ReturnType<typeof leverDeal>) => void;
    api.leverDeal.mockImplementationOnce(() => new Promise((r) => (answer = r)));
    void order.loadDeal();
    market.selectPair(2);
    order.onPairChanged();
    await flush();
    answer(leverDeal({ user_lever: '1', mark: '1' }));
    await flush();
    expect(order.price).toBe('');
    expect(order.hands).toBe('1');
    expect(order.balance).toBe('1000');
    expect(order.mark).toBe('60000');
  });
});
