import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { PairMarketStore } from '@/components/market/stores/pair-market-store';
import { ApiError } from '@/lib/api-client';
import { MemoryStorage } from '@/test/memory-storage';

import { offersLever } from '../stores/lever-page-store';
import { belongs, PositionsStore, SUMMARY_DELAY_MS, SUMMARY_REFRESH_MS } from '../stores/positions-store';
import { SHORT } from '../types';
import { fakeLeverApi, flush, page, position } from './fixtures';

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('localStorage', new MemoryStorage());
});
afterEach(() => {
  vi.useRealTimers();
});

async function setup(open = [position(1), position(2, { type: SHORT, price: '61000' })]) {
  const api = fakeLeverApi();
  api.dealAll.mockResolvedValue({ order: page(open), hazard_rate: '512.5', profits_all: '-10' });
  const market = new PairMarketStore(api, { listed: offersLever });
  const changed = vi.fn();
  const positions = new PositionsStore(api, market, changed);
  await market.load();
  await positions.load();
  await flush();
  return { api, market, positions, changed };
}

describe('which tab lists a position', () => {
  it('follows the server status: 5 = open on the pair, 1 open, 0 entrusted, 3 closed', () => {
    const open = position(1);
    expect(belongs('current', open, 1)).toBe(true);
    expect(belongs('current', open, 2)).toBe(false);
    expect(belongs('open', open, 2)).toBe(true);
    expect(belongs('entrusted', position(1, { status: 0 }), 1)).toBe(true);
    expect(belongs('closed', position(1, { status: 3 }), 1)).toBe(true);
    expect(belongs('closed', position(1, { status: 4 }), 1)).toBe(false); // a cancelled entrustment
    expect(belongs('open', position(1, { status: 2 }), 1)).toBe(true); // closing: still shown
  });
});

describe('PositionsStore', () => {
  it('shows the pair’s open positions with the risk rate and profit from lever/dealall', async () => {
    const { api, positions } = await setup();
    expect(api.dealAll).toHaveBeenCalledWith(1, 1, {});
    expect(positions.rows.map((r) => r.id)).toEqual([1, 2]);
    expect(positions.hazardRate).toBe('512.5');
    // every open position of the pair is known: the total follows the marks (here: the server's rows)
    expect(positions.totalProfit).toBe('0');
  });

  it('asks lever/my_trade with the tab’s status for the other tabs', async () => {
    const { api, positions } = await setup();
    for (const [tab, status] of [['open', 1], ['entrusted', 0], ['closed', 3]] as const) {
      positions.setTab(tab);
      await flush();
      expect(api.myTrade).toHaveBeenLastCalledWith(status, 1, 1, {});
    }
  });

  it('revalues open rows and the total profit live from the mark', async () => {
    const { positions } = await setup();
    positions.onMark(1, '60500');
    const [long, short] = positions.rows;
    expect(positions.livePrice(long!)).toBe('60500');
    expect(positions.liveProfit(long!)).toBe('5'); // (60500 − 60000) × 0.01
    expect(positions.liveProfit(short!)).toBe('5'); // −(60500 − 61000) × 0.01
    expect(positions.totalProfit).toBe('10');
    positions.onMark(2, '1'); // another pair's mark moves nothing here
    expect(positions.totalProfit).toBe('10');
  });

  it('keeps closed rows at their own figures', async () => {
    const { positions } = await setup();
    positions.onMark(1, '70000');
    const closed = position(7, { status: 3, profits: '-3', update_price: '59700', close_price: '59700' });
    expect(positions.liveProfit(closed)).toBe('-3');
    expect(positions.livePrice(closed)).toBe('59700');
  });

  it('uses the server’s profit when the pair has more open positions than one page', async () => {
    const many = Array.from({ length: 10 }, (_, i) => position(i + 1));
    const api = fakeLeverApi();
    api.dealAll.mockResolvedValue({ order: page(many, 12), hazard_rate: '300', profits_all: '42' });
    const market = new PairMarketStore(api, { listed: offersLever });
    const positions = new PositionsStore(api, market);
    await market.load();
    await positions.load();
    positions.onMark(1, '99999');
    expect(positions.totalProfit).toBe('42');
  });

  it('LEVER_TRADE adds a new position on top and replaces a changed one', async () => {
    const { positions, changed } = await setup();
    positions.onTrade(position(3));
    expect(positions.rows.map((r) => r.id)).toEqual([3, 1, 2]);
    expect(positions.total).toBe(3);
    positions.onTrade(position(1, { target_profit_price: '65000' }));
    expect(positions.rows.find((r) => r.id === 1)?.target_profit_price).toBe('65000');
    expect(positions.rows).toHaveLength(3);
    expect(changed).toHaveBeenCalled();
  });

  it('an entrustment that opens leaves the entrustments and joins the positions', async () => {
    const { api, positions } = await setup([]);
    api.myTrade.mockResolvedValue(page([position(5, { status: 0 })]));
    positions.setTab('entrusted');
    await flush();
    expect(positions.rows.map((r) => r.id)).toEqual([5]);
    positions.onTrade(position(5, { status: 1 }));
    expect(positions.rows).toEqual([]);
    expect(positions.total).toBe(0);
    expect(positions.pairOpen?.map((r) => r.id)).toEqual([5]);
  });

  it('LEVER_CLOSED removes the row from the open lists and adds it to the closed one', async () => {
    const { api, positions } = await setup();
    positions.onClosed(position(1, { status: 3, close_reason: 'take_profit' }));
    expect(positions.rows.map((r) => r.id)).toEqual([2]);
    expect(positions.pairOpen?.map((r) => r.id)).toEqual([2]);
    api.myTrade.mockResolvedValue(page([position(9, { status: 3 })]));
    positions.setTab('closed');
    await flush();
    positions.onClosed(position(2, { status: 3, close_reason: 'stop_loss' }));
    expect(positions.rows.map((r) => [r.id, r.close_reason])).toEqual([
      [2, 'stop_loss'],
      [9, null],
    ]);
  });

  it('a late list answer does not bring back a position a push closed', async () => {
    const { api, positions } = await setup();
    let answer!: (v: Awaited<ReturnType<typeof api.myTrade>>) => void;
    api.myTrade.mockImplementation(() => new Promise((r) => (answer = r)));
    positions.setTab('open');
    positions.onClosed(position(1, { status: 3 }));
    answer(page([position(1), position(2)]));
    await flush();
    expect(positions.rows.map((r) => r.id)).toEqual([2]);
    expect(positions.total).toBe(1);
  });

  it('close and cancel answer the row out of the list and reload the balance', async () => {
    const { api, positions, changed } = await setup();
    changed.mockClear();
    await positions.close(positions.rows[0]!);
    expect(api.close).toHaveBeenCalledWith(1);
    expect(positions.rows.map((r) => r.id)).toEqual([2]);
    expect(changed).toHaveBeenCalled();
    api.myTrade.mockResolvedValue(page([position(5, { status: 0 })]));
    positions.setTab('entrusted');
    await flush();
    await positions.cancel(positions.rows[0]!);
    expect(api.cancel).toHaveBeenCalledWith(5);
    expect(positions.rows).toEqual([]);
  });

  it('setStop saves (empty clears) or hands back the server’s message', async () => {
    const { api, positions } = await setup();
    expect(await positions.setStop(positions.rows[0]!, ' 65000 ', '')).toBeNull();
    expect(api.setStop).toHaveBeenCalledWith(1, '65000', '');
    expect(positions.rows[0]?.target_profit_price).toBe('65000');
    api.setStop.mockRejectedValue(new ApiError('The take-profit must be above the mark', 'business', { code: 0 }));
    expect(await positions.setStop(positions.rows[0]!, '50000', '')).toBe('The take-profit must be above the mark');
  });

  it('batch close: this pair or every pair, one side or both', async () => {
    const { api, positions } = await setup();
    api.batchClose.mockResolvedValue({ closed: 1, data: [position(2, { type: SHORT, status: 3, close_reason: 'batch' })] });
    expect(await positions.batchClose(SHORT, false)).toBe(true);
    expect(api.batchClose).toHaveBeenLastCalledWith(SHORT, 1);
    expect(positions.rows.map((r) => r.id)).toEqual([1]);
    expect(await positions.batchClose(0, true)).toBe(true);
    expect(api.batchClose).toHaveBeenLastCalledWith(0, 0);
  });

  it('refreshes the risk rate after a change and every few seconds', async () => {
    const { api, positions } = await setup();
    positions.start();
    api.dealAll.mockClear();
    positions.onTrade(position(3));
    positions.onTrade(position(4));
    await vi.advanceTimersByTimeAsync(SUMMARY_DELAY_MS);
    expect(api.dealAll).toHaveBeenCalledExactlyOnceWith(1, 1, { quiet: true });
    api.dealAll.mockResolvedValue({ order: page([]), hazard_rate: '88.1', profits_all: '0' });
    await vi.advanceTimersByTimeAsync(SUMMARY_REFRESH_MS);
    expect(positions.hazardRate).toBe('88.1');
    positions.dispose();
    api.dealAll.mockClear();
    await vi.advanceTimersByTimeAsync(SUMMARY_REFRESH_MS * 2);
    expect(api.dealAll).not.toHaveBeenCalled();
  });
});
