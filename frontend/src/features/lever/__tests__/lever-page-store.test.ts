import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { MemoryStorage } from '@/test/memory-storage';

import { LEVER_STORAGE_KEYS, LeverPageStore } from '../stores/lever-page-store';
import { fakeLeverApi, flush, page, position } from './fixtures';

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('localStorage', new MemoryStorage());
});
afterEach(() => {
  vi.useRealTimers();
});

async function opened() {
  const api = fakeLeverApi();
  api.dealAll.mockResolvedValue({ order: page([position(1)]), hazard_rate: '900', profits_all: '0' });
  const store = new LeverPageStore(api);
  store.start();
  await flush();
  await flush();
  return { api, store };
}

describe('LeverPageStore', () => {
  it('lists the open-lever pairs only and opens the first, with its deal, lever deal, candles and positions', async () => {
    const { api, store } = await opened();
    expect(store.market.quotePairs.map((p) => p.symbol)).toEqual(['BTC/USDT', 'ETH/USDT']);
    expect(store.market.pairId).toBe(1);
    expect(api.deal).toHaveBeenCalledWith(1, {});
    expect(api.leverDeal).toHaveBeenCalledWith(1, {});
    expect(api.kline).toHaveBeenCalledWith(expect.objectContaining({ pairId: 1, period: '1min' }));
    expect(api.dealAll).toHaveBeenCalledWith(1, 1, {});
    expect(JSON.parse(localStorage.getItem(LEVER_STORAGE_KEYS.pair)!).mathid).toBe(1);
    expect(localStorage.getItem('tradeinfo')).toBeNull(); // the spot page's choice is its own
    store.dispose();
  });

  it('offers the lever chart resolutions (spec §9)', async () => {
    const { store } = await opened();
    expect(store.kline.periods.map((p) => p.api)).toEqual([
      '1min', '3min', '5min', '15min', '30min', '60min', '120min', '240min', '360min', '720min',
      '1day', '3day', '1week', '1mon',
    ]);
    store.dispose();
  });

  it('a MARK push moves the order preview and the open rows of its pair', async () => {
    const { store } = await opened();
    store.onMark({ type: 'mark', symbol: 'BTC/USDT', currency_match_id: 1, id: 5, seq: 5, time: 0, price: '61000' });
    expect(store.order.mark).toBe('61000');
    expect(store.positions.liveProfit(store.positions.rows[0]!)).toBe('10');
    store.onMark({ type: 'mark', symbol: 'ETH/USDT', currency_match_id: 2, id: 6, seq: 1, time: 0, price: '3000' });
    expect(store.order.mark).toBe('61000');
    store.dispose();
  });

  it('a pair change reloads the order panel and the current-pair positions', async () => {
    const { api, store } = await opened();
    api.leverDeal.mockClear();
    api.dealAll.mockClear();
    store.market.selectPair(2);
    await flush();
    expect(api.leverDeal).toHaveBeenCalledWith(2, {});
    expect(api.dealAll).toHaveBeenCalledWith(2, 1, {});
    store.dispose();
  });

  it('a closed position reloads the free balance', async () => {
    const { api, store } = await opened();
    api.leverDeal.mockClear();
    store.positions.onClosed(position(1, { status: 3 }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(api.leverDeal).toHaveBeenCalledWith(1, { quiet: true });
    store.dispose();
  });
});
