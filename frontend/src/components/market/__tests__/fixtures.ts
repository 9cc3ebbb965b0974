/** Builders and a fake MarketApi for the market store tests (the trade and lever tests build on them). */
import { vi } from 'vitest';

import type { MarketApi } from '../market-api';
import type { Deal, KlineBar, Pair, QuoteGroup } from '../types';

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

export function bar(time: number, close = '100'): KlineBar {
  return { time, open: close, high: close, low: close, close, volume: '1' };
}

export type FakeMarketApi = { [K in keyof MarketApi]: ReturnType<typeof vi.fn<MarketApi[K]>> };

export function fakeMarketApi(groups: QuoteGroup[] = []): FakeMarketApi {
  return {
    currencyMatches: vi.fn<MarketApi['currencyMatches']>().mockResolvedValue(groups),
    deal: vi.fn<MarketApi['deal']>().mockResolvedValue(deal(1)),
    kline: vi.fn<MarketApi['kline']>().mockResolvedValue([]),
  };
}

/** Let pending promise callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}
