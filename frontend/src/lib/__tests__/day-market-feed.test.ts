import { afterEach, describe, expect, it, vi } from 'vitest';

import type { QuoteGroup } from '@/types/api';

import {
  DAY_MARKET_POLL_MS,
  type DayMarketFeed,
  type DayMarketSocket,
  isDayMarketMessage,
  pollingDayMarketFeed,
  socketDayMarketFeed,
} from '../day-market-feed';

afterEach(() => {
  vi.useRealTimers();
});

const GROUPS: QuoteGroup[] = [
  {
    id: 1,
    code: 'USDT',
    name: 'USDT',
    matches: [
      {
        id: 1,
        name: 'BTC',
        symbol: 'BTC/USDT',
        base_currency_id: 2,
        quote_currency_id: 1,
        base_currency_code: 'BTC',
        quote_currency_code: 'USDT',
        open_change: 1,
        open_lever: 1,
        open_microtrade: 1,
        added: 0,
        currency_quotation: { close: '68000', change: '1.2', high: '69000', low: '66000', volume: '10' },
      },
    ],
  },
];

describe('polling feed', () => {
  it('reads the pairs every 10 s and stops when asked', async () => {
    vi.useFakeTimers();
    const fetchGroups = vi.fn(async () => GROUPS);
    const onUpdate = vi.fn();
    const stop = pollingDayMarketFeed(fetchGroups).start(onUpdate);
    expect(DAY_MARKET_POLL_MS).toBe(10_000);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(fetchGroups).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(onUpdate).toHaveBeenCalledWith({
      currency_match_id: 1,
      symbol: 'BTC/USDT',
      quotation: GROUPS[0]!.matches[0]!.currency_quotation,
    });
    stop();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetchGroups).toHaveBeenCalledOnce();
  });

  it('survives a failed poll', async () => {
    vi.useFakeTimers();
    const fetchGroups = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(GROUPS);
    const onUpdate = vi.fn();
    pollingDayMarketFeed(fetchGroups, 1000).start(onUpdate);
    await vi.advanceTimersByTimeAsync(2000);
    expect(onUpdate).toHaveBeenCalledOnce();
  });
});

function fakeSocket(status: string) {
  let listener: ((m: { type: string }) => void) | undefined;
  let statusListener: ((c: { status: string }) => void) | undefined;
  const unsubscribe = vi.fn();
  const socket: DayMarketSocket = {
    status,
    subscribe: vi.fn((_channel, l) => {
      listener = l;
      return unsubscribe;
    }),
    onStatus: (l) => {
      statusListener = l;
      return () => undefined;
    },
  };
  return {
    socket,
    unsubscribe,
    push: (m: unknown) => listener?.(m as { type: string }),
    setStatus: (s: string) => statusListener?.({ status: s }),
  };
}

describe('socket feed', () => {
  it('subscribes to DAY_MARKET and passes on daymarket messages', () => {
    const s = fakeSocket('open');
    const onUpdate = vi.fn();
    const stop = socketDayMarketFeed(s.socket).start(onUpdate);
    expect(s.socket.subscribe).toHaveBeenCalledWith('DAY_MARKET', expect.any(Function));
    const message = { type: 'daymarket', currency_match_id: 1, symbol: 'BTC/USDT', quotation: { close: '1' } };
    s.push(message);
    s.push({ type: 'kline', currency_match_id: 1 });
    expect(onUpdate).toHaveBeenCalledExactlyOnceWith(message);
    stop();
    expect(s.unsubscribe).toHaveBeenCalledOnce();
  });

  it('polls while the socket is down, and stops polling once it is open', () => {
    const s = fakeSocket('connecting');
    const stopPoll = vi.fn();
    const poll: DayMarketFeed = { start: vi.fn(() => stopPoll) };
    const stop = socketDayMarketFeed(s.socket, poll).start(vi.fn());
    expect(poll.start).toHaveBeenCalledOnce();
    s.setStatus('open');
    expect(stopPoll).toHaveBeenCalledOnce();
    s.setStatus('closed');
    expect(poll.start).toHaveBeenCalledTimes(2);
    stop();
    expect(stopPoll).toHaveBeenCalledTimes(2);
  });

  it('recognises daymarket messages only', () => {
    expect(isDayMarketMessage({ type: 'daymarket', currency_match_id: 1, quotation: {} })).toBe(true);
    expect(isDayMarketMessage({ type: 'daymarket', currency_match_id: '1', quotation: {} })).toBe(false);
    expect(isDayMarketMessage({ type: 'market_depth', currency_match_id: 1, quotation: {} })).toBe(false);
    expect(isDayMarketMessage(null)).toBe(false);
  });
});
