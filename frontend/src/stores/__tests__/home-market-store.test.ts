import { describe, expect, it, vi } from 'vitest';

import type { DayMarketFeed } from '@/lib/day-market-feed';
import { fakeTransport } from '@/test/fake-transport';
import type { CurrencyMatch, QuoteGroup } from '@/types/api';

import { HOME_PAIR_IDS, HomeMarketStore } from '../home-market-store';

function pair(id: number, change: string, open_change = 1): CurrencyMatch {
  return {
    id,
    name: `C${id}`,
    symbol: `C${id}/USDT`,
    base_currency_id: 100 + id,
    quote_currency_id: 1,
    base_currency_code: `C${id}`,
    quote_currency_code: 'USDT',
    open_change,
    open_lever: 0,
    open_microtrade: 0,
    added: 0,
    currency_quotation: { close: '10', change, high: '11', low: '9', volume: '100' },
  };
}

function groups(): QuoteGroup[] {
  const ids = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 64, 65, 20];
  return [
    {
      id: 1,
      code: 'USDT',
      name: 'USDT',
      usd_price: '1',
      matches: ids.map((id) => pair(id, String((id * 7) % 11 - 5), id === 2 ? 0 : 1)),
    },
  ];
}

function loaded() {
  const transport = fakeTransport();
  transport.answer('market/currency_matches', groups());
  const market = new HomeMarketStore(transport.api);
  return { market, transport };
}

describe('HomeMarketStore', () => {
  it('loads the quote groups', async () => {
    const { market } = loaded();
    await market.load();
    expect(market.status).toBe('ready');
    expect(market.matches).toHaveLength(16);
  });

  it('keeps the last list and its status when a reload fails', async () => {
    const { market, transport } = loaded();
    await market.load();
    transport.answer('market/currency_matches', new Error('offline'));
    await market.load();
    expect(market.status).toBe('ready');
    expect(new HomeMarketStore(transport.api).status).toBe('idle');
    const fresh = new HomeMarketStore(transport.api);
    await fresh.load();
    expect(fresh.status).toBe('error');
  });

  it('shows 6 top tickers, tradable pairs only', async () => {
    const { market } = loaded();
    await market.load();
    expect(market.topTickers.map((m) => m.id)).toEqual([1, 3, 4, 5, 6, 7]);
  });

  it('lists the fixed 14 home pairs by change, biggest first', async () => {
    const { market } = loaded();
    await market.load();
    const rows = market.homeRows;
    expect(rows.map((m) => m.id).sort((a, b) => a - b)).toEqual([...HOME_PAIR_IDS]);
    const changes = rows.map((m) => Number(m.currency_quotation!.change));
    expect(changes).toEqual([...changes].sort((a, b) => b - a));
  });

  it('merges a DAY_MARKET update and remembers the direction of the move', async () => {
    const { market } = loaded();
    await market.load();
    market.applyUpdate({ currency_match_id: 3, quotation: { close: '10.5', change: '4.2', volume: '120' } });
    expect(market.matchById(3)!.currency_quotation).toEqual({
      close: '10.5',
      change: '4.2',
      high: '11',
      low: '9',
      volume: '120',
    });
    expect(market.ticks.get(3)).toBe('up');
    market.applyUpdate({ currency_match_id: 3, quotation: { close: '10.4' } });
    expect(market.ticks.get(3)).toBe('down');
    market.applyUpdate({ currency_match_id: 999, quotation: { close: '1' } }); // unknown: ignored
  });

  it("keeps a pair's live USD and CNY prices, and forgets those of an old close", async () => {
    const { market } = loaded();
    await market.load();
    market.applyUpdate({ currency_match_id: 3, quotation: { close: '10.5', usd_price: '10.5', cny_price: '71.4' } });
    expect(market.matchById(3)!.currency_quotation).toMatchObject({
      close: '10.5',
      usd_price: '10.5',
      cny_price: '71.4',
    });
    market.applyUpdate({ currency_match_id: 3, quotation: { change: '1', usd_price: '' } }); // empty: ignored
    expect(market.matchById(3)!.currency_quotation?.usd_price).toBe('10.5');
    market.applyUpdate({ currency_match_id: 3, quotation: { close: '11' } }); // no prices of its own
    const q = market.matchById(3)!.currency_quotation!;
    expect([q.close, q.usd_price, q.cny_price]).toEqual(['11', undefined, undefined]);
  });

  it('runs one feed however many pages watch, and stops it when the last leaves', () => {
    const { market } = loaded();
    const stop = vi.fn();
    const feed: DayMarketFeed = { start: vi.fn(() => stop) };
    const leaveHome = market.watch(feed);
    const leaveMarkets = market.watch(feed);
    expect(feed.start).toHaveBeenCalledOnce();
    leaveHome();
    leaveHome(); // twice is harmless
    expect(stop).not.toHaveBeenCalled();
    leaveMarkets();
    expect(stop).toHaveBeenCalledOnce();
  });
});
