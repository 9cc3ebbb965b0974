/** Builders and a fake SpotApi for the spot store tests (the market ones are shared). */
import { vi } from 'vitest';

import { fakeMarketApi } from '@/components/market/__tests__/fixtures';

import type { SpotApi } from '../api/spot-api';
import type { QuoteGroup, SpotOrder } from '../types';

export { bar, deal, flush, group, pair } from '@/components/market/__tests__/fixtures';

export function order(id: number, over: Partial<SpotOrder> = {}): SpotOrder {
  return {
    id,
    currency_match_id: 1,
    symbol: 'BTC/USDT',
    way: 1,
    kind: 1,
    price: '100',
    number: '1',
    transacted_amount: '0',
    transacted_volume: '0',
    status: 1,
    ...over,
  };
}

export type FakeApi = { [K in keyof SpotApi]: ReturnType<typeof vi.fn<SpotApi[K]>> };

export function fakeApi(groups: QuoteGroup[] = []): FakeApi {
  return {
    ...fakeMarketApi(groups),
    balance: vi.fn<SpotApi['balance']>().mockImplementation(async (currencyId) => ({
      currency_id: currencyId,
      currency_code: '',
      balance: currencyId === 1 ? '1000' : '2',
      lock_balance: '0',
    })),
    placeOrder: vi.fn<SpotApi['placeOrder']>().mockImplementation(async (way, body) =>
      order(500, { way, price: body.price, number: body.number, currency_match_id: body.currency_match_id }),
    ),
    orders: vi.fn<SpotApi['orders']>().mockResolvedValue({ data: [], total: 0, per_page: 10, last_page: 1 }),
    cancelOrder: vi.fn<SpotApi['cancelOrder']>().mockResolvedValue(null),
  };
}
