import { describe, expect, it, vi } from 'vitest';

import { setupScreenTests } from '@/test/screen-tests';

import { CLOSED_ROW_LINGER_MS, HistoryStore, PUSH_GRACE_MS } from '../stores/history-store';
import { fakeMicroApi, flush, microOrder, page } from './fixtures';

setupScreenTests();

async function setup(rows = [microOrder(1, { remain_milli_seconds: 5_000 }), microOrder(2, { remain_milli_seconds: 20_000, match_id: 2 })]) {
  const api = fakeMicroApi();
  api.lists.mockResolvedValue(page(rows));
  let pairId: number | null = 1;
  const history = new HistoryStore(api, () => pairId);
  history.start();
  await flush();
  return { api, history, setPair: (id: number) => (pairId = id) };
}

const closed = (id: number, over = {}) =>
  microOrder(id, { status: 3, outcome: 'win', end_price: '60100', fact_profits: '20', payout: '45', remain_milli_seconds: 0, ...over });

describe('HistoryStore', () => {
  it('reads the in-progress orders of every pair, 10 a page', async () => {
    const { api, history } = await setup();
    expect(api.lists).toHaveBeenCalledWith(1, 1, null, {});
    expect(history.rows.map((r) => r.id)).toEqual([1, 2]);
  });

  it('counts each row down once a second from the remain_milli_seconds it was read with', async () => {
    const { history } = await setup();
    const [first, second] = history.rows;
    expect(history.secondsLeft(first!)).toBe(5);
    expect(history.secondsLeft(second!)).toBe(20);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(history.secondsLeft(first!)).toBe(4);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(history.secondsLeft(first!)).toBe(0);
    expect(history.secondsLeft(second!)).toBe(15);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(history.secondsLeft(first!)).toBe(0); // never below 0
  });

  it('closes a row on MICRO_CLOSED: it shows its outcome, then leaves "in progress"', async () => {
    const { api, history } = await setup();
    await vi.advanceTimersByTimeAsync(5_000);
    api.lists.mockClear();
    history.onClosed(closed(1));
    expect(history.rows[0]).toMatchObject({ id: 1, status: 3, outcome: 'win' });
    expect(history.secondsLeft(history.rows[0]!)).toBe(0);
    await vi.advanceTimersByTimeAsync(CLOSED_ROW_LINGER_MS);
    expect(history.rows.map((r) => r.id)).toEqual([2]);
    expect(history.total).toBe(1);
    expect(api.lists).not.toHaveBeenCalled(); // nothing after it to fill the page with
  });

  it('reads the list again when a countdown ended and no push came within the grace', async () => {
    const { api, history } = await setup();
    api.lists.mockClear();
    api.lists.mockResolvedValue(page([microOrder(2, { remain_milli_seconds: 14_000, match_id: 2 })], 1));
    await vi.advanceTimersByTimeAsync(5_000 + PUSH_GRACE_MS - 1_000);
    expect(api.lists).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(api.lists).toHaveBeenCalledWith(1, 1, null, { quiet: true });
    expect(history.rows.map((r) => r.id)).toEqual([2]);
    await vi.advanceTimersByTimeAsync(PUSH_GRACE_MS * 2);
    expect(api.lists).toHaveBeenCalledTimes(1); // the other countdown has not ended yet
  });

  it('does not reopen an order a push closed when an older list answer arrives', async () => {
    const { api, history } = await setup();
    history.onClosed(closed(1));
    api.lists.mockResolvedValue(page([microOrder(1, { remain_milli_seconds: 0 }), microOrder(2, { match_id: 2 })]));
    await history.load();
    expect(history.rows.map((r) => r.id)).toEqual([2]);
    expect(history.total).toBe(1);
  });

  it('starts a placed order at its whole duration however long the clock stood still before', async () => {
    const { history } = await setup([]);
    await vi.advanceTimersByTimeAsync(7_000); // no row counted down meanwhile: the clock stood still
    history.onPlaced(microOrder(1, { remain_milli_seconds: 30_000 }));
    expect(history.secondsLeft(history.rows[0]!)).toBe(30);
  });

  it('shows a placed order at the top of "in progress", counting down', async () => {
    const { history } = await setup();
    history.onPlaced(microOrder(3, { remain_milli_seconds: 30_000 }));
    expect(history.rows.map((r) => r.id)).toEqual([3, 1, 2]);
    expect(history.total).toBe(3);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(history.secondsLeft(history.rows[0]!)).toBe(28);
  });

  it('reads the list again while a row waits for its entry tick, then shows its open price and end', async () => {
    const { api, history } = await setup([]);
    const placed = microOrder(3, { open_price: null, entry_at: null, end_at: null, remain_milli_seconds: 30_000 });
    history.onPlaced(placed);
    api.lists.mockClear();
    api.lists.mockResolvedValue(page([{ ...placed, open_price: '60000', remain_milli_seconds: 29_900 }]));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(api.lists).toHaveBeenCalledWith(1, 1, null, { quiet: true });
    expect(history.rows[0]?.open_price).toBe('60000');
    expect(history.secondsLeft(history.rows[0]!)).toBe(30);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.lists).toHaveBeenCalledTimes(1); // it has its entry: nothing more to wait for
  });

  it('adds a closed order at the top of the closed tab', async () => {
    const { api, history } = await setup();
    api.lists.mockResolvedValue(page([closed(5)]));
    history.setTab('closed');
    await flush();
    expect(api.lists).toHaveBeenLastCalledWith(3, 1, null, {});
    history.onClosed(closed(1, { outcome: 'loss', fact_profits: '-25', payout: '0' }));
    expect(history.rows.map((r) => r.id)).toEqual([1, 5]);
    expect(history.total).toBe(2);
    history.onClosed(closed(1, { outcome: 'loss', fact_profits: '-25', payout: '0' }));
    expect(history.rows).toHaveLength(2); // a repeated push changes nothing
  });

  it('shows only the shown pair when asked, and follows pair changes then', async () => {
    const { api, history, setPair } = await setup();
    history.setPairOnly(true);
    await flush();
    expect(api.lists).toHaveBeenLastCalledWith(1, 1, 1, {});
    history.onPlaced(microOrder(4, { match_id: 2 }));
    expect(history.rows.some((r) => r.id === 4)).toBe(false);
    setPair(2);
    history.onPairChanged();
    await flush();
    expect(api.lists).toHaveBeenLastCalledWith(1, 1, 2, {});
  });

  it('pages by 10', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => microOrder(i + 1));
    const api = fakeMicroApi();
    api.lists.mockResolvedValue(page(rows, 23));
    const history = new HistoryStore(api, () => 1);
    history.start();
    await flush();
    expect(history.lastPage).toBe(3);
    history.setPage(3);
    expect(api.lists).toHaveBeenLastCalledWith(1, 3, null, {});
    history.setPage(9);
    expect(history.page).toBe(3);
  });

  it('stops the clock when left', async () => {
    const { history } = await setup();
    const before = history.now;
    history.dispose();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(history.now).toBe(before);
  });
});
