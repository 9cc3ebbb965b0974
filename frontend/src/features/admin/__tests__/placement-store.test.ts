import { beforeEach, describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';

import { PlacementStore, slug } from '../stores/placement-store';
import { fakeAdmin } from './fake-admin';

let fake: ReturnType<typeof fakeAdmin>;

const pair = (symbol: string, pair_id: number, node: string, extra: object = {}) => ({
  symbol, pair_id, node, pin: null, open_orders: 4, state: 'up', ...extra,
}); // prettier-ignore

beforeEach(() => {
  fake = fakeAdmin();
  fake.answer('placement', {
    nodes: [
      { name: 'node-1', id: 'a1b2', ip: '10.0.0.1', pair_slots: 4, pairs: ['BTC/USDT'] },
      { name: 'node-2', id: 'c3d4', ip: '10.0.0.2', pair_slots: 4, pairs: ['ETH/USDT', 'LTC/USDT'] },
      { name: 'node-3', id: 'e5f6', ip: '10.0.0.3', pair_slots: 2, pairs: [] },
    ],
    pairs: [pair('BTC/USDT', 1, 'node-1'), pair('ETH/USDT', 2, 'node-2', { pin: 'node-2' }), pair('LTC/USDT', 3, 'node-2')],
  });
});

async function loaded(): Promise<PlacementStore> {
  const store = new PlacementStore(fake.api);
  await store.view.load();
  return store;
}

describe('PlacementStore', () => {
  it('reads the nodes and the pairs; a pair moves to any node but its own', async () => {
    const store = await loaded();
    expect(fake.get).toHaveBeenCalledWith('placement');
    expect(store.view.data?.nodes.map((n) => n.name)).toEqual(['node-1', 'node-2', 'node-3']);
    expect(store.targetsFor(store.view.data!.pairs[1]!)).toEqual(['node-1', 'node-3']);
    expect(slug('ETH/USDT')).toBe('ETH-USDT');
  });

  it('moves a pair with exactly the symbol, node and reason, keeps the report and reads the view again', async () => {
    const report = { symbol: 'ETH/USDT', moved: true, from: 'node-2', to: 'node-1', pause_ms: 840, drain_ms: 120,
      open_orders_after: 4, matches_database: true }; // prettier-ignore
    fake.answer('placement/move', report);
    const store = await loaded();
    const sent = store.move('ETH/USDT', 'node-1', 'node-2 maintenance');
    expect(store.stateOf('ETH/USDT')).toBe('sending');
    expect(await sent).toBe(true);
    expect(fake.post).toHaveBeenCalledWith('placement/move', { symbol: 'ETH/USDT', node: 'node-1', reason: 'node-2 maintenance' });
    expect(store.stateOf('ETH/USDT')).toBe('moved');
    expect(store.reports.get('ETH/USDT')).toEqual(report);
    expect(store.stateOf('BTC/USDT')).toBe('idle');
    expect(fake.get).toHaveBeenCalledTimes(2);
  });

  it("keeps the server's message when the move fails, and still reads the view again", async () => {
    fake.answer('placement/move', new ApiError('The pair could not be moved: node-3 has no free pair slot', 'business', { code: 0 }));
    const store = await loaded();
    expect(await store.move('BTC/USDT', 'node-3', 'spread the load')).toBe(false);
    expect(store.stateOf('BTC/USDT')).toBe('failed');
    expect(store.errors.get('BTC/USDT')).toBe('The pair could not be moved: node-3 has no free pair slot');
    expect(store.reports.has('BTC/USDT')).toBe(false);
    expect(fake.get).toHaveBeenCalledTimes(2);
  });
});
