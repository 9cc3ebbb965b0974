import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { MemoryStorage } from '@/test/memory-storage';

import { saveTradeInfo } from '../saved-pair';
import { PairMarketStore, PAIR_CHANGE_REFETCH_MS, RECENT_TRADES_LIMIT } from '../stores/pair-market-store';
import type { CompletedTrade, DepthPush, Pair } from '../types';
import { deal, fakeMarketApi, flush, group, pair } from './fixtures';

const btc = pair(1, 'BTC', 'USDT');
const eth = pair(2, 'ETH', 'USDT');
const ethBtc = pair(20, 'ETH', 'BTC');
const groups = () => [group(10, 'USDT', [{ ...btc }, { ...eth }]), group(11, 'BTC', [{ ...ethBtc }])];

const depthPush = (seq: number, bid = '99', symbol = 'BTC/USDT'): DepthPush => ({
  type: 'market_depth',
  symbol,
  currency_match_id: 1,
  depth: { seq, in: [{ price: bid, amount: '1' }], out: [{ price: '101', amount: '1' }] },
});

const trade = (id: number, time = id * 1000): CompletedTrade => ({
  id,
  price: '100',
  amount: '1',
  way: 1,
  timestamp: Math.floor(time / 1000),
  time,
});

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('localStorage', new MemoryStorage());
});
afterEach(() => {
  vi.useRealTimers();
});

async function loaded(dealSeq = 10) {
  const api = fakeMarketApi(groups());
  api.deal.mockResolvedValue(deal(dealSeq));
  const market = new PairMarketStore(api);
  await market.load();
  await flush();
  return { api, market };
}

describe('PairMarketStore', () => {
  it('opens the first pair of the first group and loads its deal', async () => {
    const { api, market } = await loaded();
    expect(market.pair?.symbol).toBe('BTC/USDT');
    expect(api.deal).toHaveBeenCalledWith(1, {});
    expect(market.bestBid).toBe('99');
    expect(market.bestAsk).toBe('101');
    expect(market.depthSeq).toBe(10);
    expect(market.quoteGroup?.code).toBe('USDT');
  });

  it('opens the saved pair and switches the quote tab to its group', async () => {
    saveTradeInfo(ethBtc);
    const { market } = await loaded();
    expect(market.pairId).toBe(20);
    expect(market.quoteGroup?.code).toBe('BTC');
  });

  it('remembers the chosen pair and refetches its deal 5 s after the change', async () => {
    const { api, market } = await loaded();
    market.selectPair(2);
    expect(JSON.parse(localStorage.getItem('tradeinfo')!).mathid).toBe(2);
    await flush();
    expect(api.deal).toHaveBeenLastCalledWith(2, {});
    api.deal.mockClear();
    await vi.advanceTimersByTimeAsync(PAIR_CHANGE_REFETCH_MS);
    expect(api.deal).toHaveBeenCalledExactlyOnceWith(2, { quiet: true });
  });

  it('applies depth pushes in sequence without refetching', async () => {
    const { api, market } = await loaded(10);
    api.deal.mockClear();
    market.onDepth(depthPush(11, '98'));
    market.onDepth(depthPush(12, '97'));
    expect(market.bestBid).toBe('97');
    expect(market.depthSeq).toBe(12);
    expect(api.deal).not.toHaveBeenCalled();
  });

  it('refetches market/deal on a sequence gap', async () => {
    const { api, market } = await loaded(10);
    api.deal.mockClear();
    api.deal.mockResolvedValue(deal(15));
    market.onDepth(depthPush(14, '96')); // 11…13 were missed
    expect(market.bestBid).toBe('96'); // a full snapshot: shown at once
    expect(api.deal).toHaveBeenCalledExactlyOnceWith(1, { quiet: true });
    expect(market.gapRefetches).toBe(1);
    await flush();
    expect(market.depthSeq).toBe(15);
    market.onDepth(depthPush(16));
    expect(api.deal).toHaveBeenCalledTimes(1);
  });

  it('ignores stale or repeated depth and another pair’s depth', async () => {
    const { api, market } = await loaded(10);
    api.deal.mockClear();
    market.onDepth(depthPush(9, '50'));
    market.onDepth(depthPush(10, '50'));
    market.onDepth(depthPush(11, '50', 'ETH/USDT'));
    expect(market.bestBid).toBe('99');
    expect(api.deal).not.toHaveBeenCalled();
  });

  it('keeps a newer pushed book when an older deal answer arrives', async () => {
    const { api, market } = await loaded(10);
    let answer!: (d: ReturnType<typeof deal>) => void;
    api.deal.mockImplementation(() => new Promise((r) => (answer = r)));
    market.onDepth(depthPush(13, '95')); // gap → refetch in flight
    market.onDepth(depthPush(14, '94'));
    answer(deal(12));
    await flush();
    expect(market.bestBid).toBe('94');
    expect(market.depthSeq).toBe(14);
  });

  it('keeps the last 30 trades, newest first, without duplicates', async () => {
    const { market } = await loaded();
    market.onTrades({ type: 'global_tx', symbol: 'BTC/USDT', currency_match_id: 1, completes: [trade(2), trade(1)] });
    market.onTrades({ type: 'global_tx', symbol: 'BTC/USDT', currency_match_id: 1, completes: [trade(2)] });
    expect(market.trades.map((t) => t.id)).toEqual([2, 1]);
    const many = Array.from({ length: 40 }, (_, i) => trade(100 + i)).reverse();
    market.onTrades({ type: 'global_tx', symbol: 'BTC/USDT', currency_match_id: 1, completes: many });
    expect(market.trades).toHaveLength(RECENT_TRADES_LIMIT);
    expect(market.trades[0]!.id).toBe(139);
    market.onTrades({ type: 'global_tx', symbol: 'ETH/USDT', currency_match_id: 2, completes: [trade(999)] });
    expect(market.trades[0]!.id).toBe(139);
  });

  it('updates tickers from DAY_MARKET: the list and the current header', async () => {
    const { market } = await loaded();
    const q = { close: '120', change: '-2', high: '121', low: '80', volume: '9' };
    market.onDayMarket({ type: 'daymarket', currency_match_id: 2, symbol: 'ETH/USDT', quotation: q });
    expect(market.pairs.find((p) => p.id === 2)?.currency_quotation?.close).toBe('120');
    expect(market.quotation?.close).toBe('100');
    market.onDayMarket({ type: 'daymarket', currency_match_id: 1, symbol: 'BTC/USDT', quotation: q });
    expect(market.quotation?.close).toBe('120');
    expect(market.lastMove).toBe('up');
  });

  it("carries the quotation's live USD price, and knows the current pair's quote group", async () => {
    const { market } = await loaded();
    expect(market.pairGroup?.code).toBe('USDT');
    const q = { close: '120', change: '-2', high: '121', low: '80', volume: '9', usd_price: '120', cny_price: '816' };
    market.onDayMarket({ type: 'daymarket', currency_match_id: 1, symbol: 'BTC/USDT', quotation: q });
    expect(market.quotation).toMatchObject({ usd_price: '120', cny_price: '816' });
    const moved = { close: '121', change: '-1', high: '121', low: '80', volume: '10' };
    market.onDayMarket({ type: 'daymarket', currency_match_id: 1, symbol: 'BTC/USDT', quotation: moved });
    expect(market.quotation?.usd_price).toBeUndefined(); // it priced 120: the header prices 121 from the group
    expect(market.pairs.find((p) => p.id === 1)?.currency_quotation?.usd_price).toBeUndefined();
  });

  it('drops a deal answer for a pair that is no longer shown', async () => {
    const { api, market } = await loaded();
    const answers: ((d: ReturnType<typeof deal>) => void)[] = [];
    api.deal.mockImplementation(() => new Promise((r) => answers.push(r)));
    market.selectPair(2);
    market.selectPair(1);
    answers[0]!(deal(50, { depth: { seq: 50, in: [{ price: '1', amount: '1' }], out: [] } }));
    answers[1]!(deal(60, { depth: { seq: 60, in: [{ price: '98', amount: '1' }], out: [] } }));
    await flush();
    expect(market.pairId).toBe(1);
    expect(market.bestBid).toBe('98');
  });

  it('refetches the deal after a socket reconnect', async () => {
    const { api, market } = await loaded();
    api.deal.mockClear();
    market.onReconnected();
    expect(api.deal).toHaveBeenCalledExactlyOnceWith(1, { quiet: true });
  });

  it('reports an unreachable pair list', async () => {
    const api = fakeMarketApi();
    api.currencyMatches.mockRejectedValue(new Error('down'));
    const market = new PairMarketStore(api);
    await market.load();
    expect(market.status).toBe('error');
    expect(market.pair).toBeNull();
  });

  it('lists only the pairs a screen offers, and remembers its choice under its own key', async () => {
    const lever = (p: Pair) => p.open_lever === 1;
    const api = fakeMarketApi([
      group(11, 'BTC', [{ ...ethBtc }]),
      group(10, 'USDT', [{ ...btc, open_lever: 0 }, { ...eth, open_lever: 1 }]),
    ]);
    saveTradeInfo(btc); // the spot page's choice is not the lever screen's
    const market = new PairMarketStore(api, { listed: lever, pairKey: 'levertradeinfo' });
    await market.load();
    expect(market.tabs.map((g) => g.code)).toEqual(['USDT']);
    expect(market.quotePairs.map((p) => p.symbol)).toEqual(['ETH/USDT']);
    expect(market.pairId).toBe(2);
    market.selectPair(1); // not offered: nothing happens
    expect(market.pairId).toBe(2);
    expect(JSON.parse(localStorage.getItem('levertradeinfo')!).mathid).toBe(2);
    expect(JSON.parse(localStorage.getItem('tradeinfo')!).mathid).toBe(1);
  });
});
