import { describe, expect, it, vi } from 'vitest';

import { setupScreenTests } from '@/test/screen-tests';

import { BALANCE_RELOAD_DELAY_MS } from '../stores/order-store';
import { offersSeconds, MicroPageStore } from '../stores/micro-page-store';
import { UP } from '../types';
import { btc, ethBtc, fakeMicroApi, flush, ltc, microOrder, page, payable } from './fixtures';

setupScreenTests();

async function setup() {
  const api = fakeMicroApi();
  api.lists.mockResolvedValue(page([microOrder(1)]));
  const store = new MicroPageStore(api);
  store.start();
  await flush();
  await flush();
  return { api, store };
}

describe('MicroPageStore', () => {
  it('offers the pairs with open_microtrade and a USDT quote', () => {
    expect(offersSeconds(btc())).toBe(true);
    expect(offersSeconds(ltc())).toBe(false);
    expect(offersSeconds(ethBtc())).toBe(false);
  });

  it('opens the first pair with its chart, durations, stake currencies and history', async () => {
    const { api, store } = await setup();
    expect(store.market.symbol).toBe('BTC/USDT');
    expect(api.kline).toHaveBeenCalled();
    expect(api.seconds).toHaveBeenCalledWith(1, { quiet: true });
    expect(store.order.currency?.code).toBe('USDT');
    expect(store.history.rows.map((r) => r.id)).toEqual([1]);
    store.dispose();
  });

  it('places an order through the panel into "in progress"', async () => {
    const { store } = await setup();
    store.order.setStake('25');
    store.order.openReview(UP);
    await store.order.confirm();
    expect(store.history.rows[0]).toMatchObject({ id: 900, number: '25', status: 1 });
    store.dispose();
  });

  it('MICRO_CLOSED closes the row and reloads the micro balance', async () => {
    const { api, store } = await setup();
    api.payableCurrencies.mockResolvedValue([payable({ micro_account: { balance: '145' } })]);
    store.onClosed(microOrder(1, { status: 3, outcome: 'win', payout: '45', fact_profits: '20', remain_milli_seconds: 0 }));
    expect(store.history.rows[0]).toMatchObject({ id: 1, status: 3, outcome: 'win' });
    await vi.advanceTimersByTimeAsync(BALANCE_RELOAD_DELAY_MS);
    expect(store.order.balance).toBe('145');
    store.dispose();
  });

  it('shows the mark of the shown pair only', async () => {
    const { store } = await setup();
    const mark = { type: 'mark', symbol: 'BTC/USDT', id: 1, seq: 1, time: 0 } as const;
    store.onMark({ ...mark, currency_match_id: 2, price: '3000' });
    expect(store.order.mark).toBeNull();
    store.onMark({ ...mark, currency_match_id: 1, price: '60001' });
    expect(store.order.mark).toBe('60001');
    store.dispose();
  });

  it('opens and checks a proof, and forgets it when closed', async () => {
    const { api, store } = await setup();
    await store.proof.open(7);
    expect(api.proof).toHaveBeenCalledWith(7);
    expect(store.proof.check).toMatchObject({ chained: true, verified: true });
    // The check's entry and exit are the proof's own ticks (the dialog finds them by identity).
    expect(store.proof.proof?.ticks.indexOf(store.proof.check!.decision.exit!)).toBe(2);
    store.proof.close();
    expect(store.proof.orderId).toBeNull();
    expect(store.proof.proof).toBeNull();
    store.dispose();
  });

  it('says the proof could not be read', async () => {
    const { api, store } = await setup();
    api.proof.mockResolvedValue(undefined);
    await store.proof.open(7);
    expect(store.proof.failed).toBe(true);
    expect(store.proof.check).toBeNull();
    store.dispose();
  });
});
