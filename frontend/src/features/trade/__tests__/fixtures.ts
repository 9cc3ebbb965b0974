/** Builders and a fake TradeApi for the trade store tests. */
import { vi } from 'vitest';

import type { TradeApi } from '../api/trade-api';
import type { Deal, KlineBar, Pair, QuoteGroup, SpotOrder } from '../types';

const codes: Record<string, number> = { USDT: 1, BTC: 2, ETH: 3 };
let nextCurrency = 100;
const currencyId = (code: string) => (codes[code] ??= nextCurrency++);

export function pair(id: number, base: string, quote: string, over: Partial<Pair> = {}): Pair {
  return {
    id,
    symbol: `${base}/${quote}`,
    base_currency_id: currencyId(base),
    quote_currency_id: currencyId(quote),
    base_currency_code: base,
    quote_currency_code: quote,
    open_change: 1,
    price_decimals: 4,
    qty_decimals: 6,
    currency_quotation: { close: '100', change: '1.5', high: '110', low: '90', volume: '1234.5' },
    ...over,
  };
}

export function group(id: number, code: string, matches: Pair[]): QuoteGroup {
  return { id, code, name: code, matches };
}

export function deal(seq: number, over: Partial<Deal> = {}): Deal {
  return {
    quotation: { close: '100', change: '1.5', high: '110', low: '90', volume: '1234.5' },
    depth: {
      seq,
      in: [{ price: '99', amount: '1', index: 0 }],
      out: [{ price: '101', amount: '2', index: 0 }],
    },
    tx_completes: [],
    ...over,
  };
}

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

export function bar(time: number, close = '100'): KlineBar {
  return { time, open: close, high: close, low: close, close, volume: '1' };
}

export type FakeApi = { [K in keyof TradeApi]: ReturnType<typeof vi.fn<TradeApi[K]>> };

export function fakeApi(groups: QuoteGroup[] = []): FakeApi {
  return {
    currencyMatches: vi.fn<TradeApi['currencyMatches']>().mockResolvedValue(groups),
    deal: vi.fn<TradeApi['deal']>().mockResolvedValue(deal(1)),
    kline: vi.fn<TradeApi['kline']>().mockResolvedValue([]),
    balance: vi.fn<TradeApi['balance']>().mockImplementation(async (currencyId) => ({
      currency_id: currencyId,
      currency_code: '',
      balance: currencyId === 1 ? '1000' : '2',
      lock_balance: '0',
    })),
    placeOrder: vi.fn<TradeApi['placeOrder']>().mockImplementation(async (way, body) =>
      order(500, { way, price: body.price, number: body.number, currency_match_id: body.currency_match_id }),
    ),
    orders: vi.fn<TradeApi['orders']>().mockResolvedValue({ data: [], total: 0, per_page: 10, last_page: 1 }),
    cancelOrder: vi.fn<TradeApi['cancelOrder']>().mockResolvedValue(null),
  };
}

/** Let pending promise callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}
