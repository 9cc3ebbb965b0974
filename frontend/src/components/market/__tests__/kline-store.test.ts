import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { MemoryStorage } from '@/test/memory-storage';

import { CONTRACT_CHART_PERIODS, HISTORY_BARS, KLINE_REFRESH_MS } from '../chart/periods';
import { KlineStore, mergeBars } from '../stores/kline-store';
import { PairMarketStore } from '../stores/pair-market-store';
import type { KlinePush } from '../types';
import { bar, fakeMarketApi, flush, group, pair } from './fixtures';

const NOW = 1_700_000_000_000;
const MIN = 60_000;

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('localStorage', new MemoryStorage());
});
afterEach(() => {
  vi.useRealTimers();
});

async function setup() {
  const api = fakeMarketApi([group(10, 'USDT', [pair(1, 'BTC', 'USDT')])]);
  api.kline.mockResolvedValue([bar(NOW - 2 * MIN), bar(NOW - MIN)]);
  const market = new PairMarketStore(api);
  await market.load();
  const kline = new KlineStore(api, market, { now: () => NOW });
  await kline.load();
  return { api, market, kline };
}

const push = (time: number, close: string, period = '1min', symbol = 'BTC/USDT'): KlinePush => ({
  type: 'kline',
  symbol,
  period,
  ...bar(time, close),
});

describe('KlineStore', () => {
  it('loads the 1min history window by default (times in seconds)', async () => {
    const { api, kline } = await setup();
    expect(kline.periodKey).toBe('1min');
    expect(api.kline).toHaveBeenCalledWith({
      pairId: 1,
      symbol: 'BTC/USDT',
      period: '1min',
      from: (NOW - HISTORY_BARS * MIN) / 1000,
      to: NOW / 1000,
    });
    expect(kline.bars).toHaveLength(2);
  });

  it('applies live KLINE pushes of the shown pair and period only', async () => {
    const { kline } = await setup();
    kline.onKline(push(NOW - MIN, '105')); // the open bar changes
    kline.onKline(push(NOW, '106')); // a new bar
    kline.onKline(push(NOW, '999', '5min'));
    kline.onKline(push(NOW, '999', '1min', 'ETH/USDT'));
    expect(kline.bars.map((b) => b.close)).toEqual(['100', '105', '106']);
  });

  it('asks the API for 60min when the 1hour button is chosen, and remembers the period', async () => {
    const { api, kline } = await setup();
    kline.setPeriod('1hour');
    expect(api.kline).toHaveBeenLastCalledWith(expect.objectContaining({ period: '60min' }));
    expect(localStorage.getItem('chart_period')).toBe('1hour');
    await flush();
    kline.onKline(push(NOW, '1', '60min'));
    expect(kline.bars.at(-1)?.close).toBe('1');
  });

  it('the Time view uses 1-minute bars drawn as a line', async () => {
    const { api, kline } = await setup();
    kline.setPeriod('time');
    expect(kline.period.line).toBe(true);
    expect(api.kline).toHaveBeenLastCalledWith(expect.objectContaining({ period: '1min' }));
  });

  it('refreshes every 10 s from the bar before the last and merges', async () => {
    const { api, kline } = await setup();
    api.kline.mockClear();
    api.kline.mockResolvedValue([bar(NOW - 2 * MIN), bar(NOW - MIN, '107'), bar(NOW, '108')]);
    kline.start();
    await vi.advanceTimersByTimeAsync(KLINE_REFRESH_MS);
    expect(api.kline).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ from: (NOW - 2 * MIN) / 1000, to: NOW / 1000 }),
      { quiet: true },
    );
    expect(kline.bars.map((b) => b.close)).toEqual(['100', '107', '108']);
    expect(kline.short).toBe(false);
    kline.stop();
  });

  it('takes a refresh of fewer than 2 bars as an error and reloads the whole window on the next tick', async () => {
    const { api, kline } = await setup();
    api.kline.mockClear();
    api.kline.mockResolvedValue([bar(NOW - MIN, '107')]); // the bar before the last is missing
    await kline.refresh();
    expect(kline.short).toBe(true);
    expect(kline.bars.map((b) => b.close)).toEqual(['100', '100']); // nothing merged from the short answer
    api.kline.mockResolvedValue([bar(NOW - 2 * MIN), bar(NOW - MIN, '107'), bar(NOW, '108')]);
    await kline.refresh();
    expect(api.kline).toHaveBeenLastCalledWith(
      expect.objectContaining({ from: Math.floor((NOW - HISTORY_BARS * MIN) / 1000) }),
    );
    expect(kline.short).toBe(false);
    expect(kline.bars.map((b) => b.close)).toEqual(['100', '107', '108']);
  });

  it('takes any refresh while it holds fewer than 2 bars (a pair that just started trading)', async () => {
    const { api, kline } = await setup();
    api.kline.mockResolvedValue([bar(NOW - MIN)]);
    kline.setPeriod('5min');
    await flush();
    api.kline.mockResolvedValue([bar(NOW - MIN, '101')]);
    await kline.refresh();
    expect(api.kline).toHaveBeenLastCalledWith(expect.objectContaining({ from: (NOW - MIN) / 1000 }), { quiet: true });
    expect(kline.short).toBe(false);
    expect(kline.bars.map((b) => b.close)).toEqual(['101']);
  });

  it('mergeBars sorts by time and lets newer data win', () => {
    expect(mergeBars([bar(2, 'a'), bar(1, 'b')], [bar(2, 'c'), bar(3, 'd')]).map((b) => b.close)).toEqual([
      'b',
      'c',
      'd',
    ]);
  });

  it('offers a screen its own periods, remembered under its own key (lever: spec §9 resolutions)', async () => {
    const api = fakeMarketApi([group(10, 'USDT', [pair(1, 'BTC', 'USDT')])]);
    const market = new PairMarketStore(api);
    await market.load();
    localStorage.setItem('chart_period', 'time');
    const options = { periods: CONTRACT_CHART_PERIODS, periodKey: 'lever_period', now: () => NOW };
    const kline = new KlineStore(api, market, options);
    expect(kline.periods.map((p) => p.api)).toEqual([
      '1min', '3min', '5min', '15min', '30min', '60min', '120min', '240min', '360min', '720min',
      '1day', '3day', '1week', '1mon',
    ]);
    expect(kline.periodKey).toBe('1min'); // the spot page's "time" is not one of these
    kline.setPeriod('4hour');
    await flush();
    expect(api.kline).toHaveBeenLastCalledWith(expect.objectContaining({ period: '240min' }));
    expect(localStorage.getItem('lever_period')).toBe('4hour');
    expect(localStorage.getItem('chart_period')).toBe('time');
    kline.setPeriod('time'); // not offered here: falls back to the default
    expect(kline.periodKey).toBe('1min');
    kline.onKline(push(NOW, '120', '240min'));
    expect(kline.bars.at(-1)?.close).not.toBe('120');
  });
});
