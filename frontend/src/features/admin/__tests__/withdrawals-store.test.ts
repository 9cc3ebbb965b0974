import { beforeEach, describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';

import { WithdrawalsStore } from '../stores/withdrawals-store';
import { fakeAdmin } from './fake-admin';

let fake: ReturnType<typeof fakeAdmin>;

const pending = (id: number, extra: object = {}) => ({
  id, account: 'a@ex.com', user_id: 5, currency: 'BTC', amount: '1', fee: '0.001', address: 'bc1q', memo: '',
  usd: '60000.00', usd_24h: '60000.00', second_approval_usd: '10000', needs_two: true, first_approval: null,
  withdraw_frozen: false, status: 1, created_at: '2026-11-25T00:00:00Z', ...extra,
}); // prettier-ignore

beforeEach(() => {
  fake = fakeAdmin();
  fake.answer('withdrawals', { list: [pending(7), pending(8, { needs_two: false, usd: '50.00' })], page: 1, total: 2, limit: 20 });
});

describe('WithdrawalsStore', () => {
  it('reads the pending queue', async () => {
    const store = new WithdrawalsStore(fake.api);
    await store.queue.load();
    expect(fake.get).toHaveBeenCalledWith('withdrawals', { status: 1, page: 1 });
    expect(store.queue.data?.list.map((w) => w.needs_two)).toEqual([true, false]);
  });

  it('says a large one waits for a second operator after the first approval', async () => {
    fake.answer('withdrawals/decide', { id: 7, status: 1, waiting_for_second_approval: true });
    const store = new WithdrawalsStore(fake.api);
    const decision = store.decide(7, true, '');
    expect(store.stateOf(7)).toBe('sending');
    expect(await decision).toBe('waiting_second');
    expect(fake.post).toHaveBeenCalledWith('withdrawals/decide', { id: 7, approve: true, reason: '' });
    expect(store.stateOf(7)).toBe('waiting_second');
    expect(fake.get).toHaveBeenCalledTimes(1); // the queue is read again
  });

  it('settles a small one, rejects with a reason', async () => {
    fake.answer('withdrawals/decide', (body: unknown) => {
      const { id, approve } = body as { id: number; approve: boolean };
      return { id, status: approve ? 2 : 3, waiting_for_second_approval: false };
    });
    const store = new WithdrawalsStore(fake.api);
    expect(await store.decide(8, true, '')).toBe('approved');
    expect(await store.decide(7, false, 'address on a sanctions list')).toBe('rejected');
    expect(fake.post).toHaveBeenLastCalledWith('withdrawals/decide', { id: 7, approve: false, reason: 'address on a sanctions list' });
    expect(store.stateOf(8)).toBe('approved');
    expect(store.stateOf(9)).toBe('idle');
  });

  it('keeps the refusal beside the row', async () => {
    fake.answer('withdrawals/decide', new ApiError('This withdrawal is no longer pending', 'business', { code: 0 }));
    const store = new WithdrawalsStore(fake.api);
    expect(await store.decide(7, true, '')).toBe('failed');
    expect(store.errors.get(7)).toBe('This withdrawal is no longer pending');
    expect(fake.get).not.toHaveBeenCalled();
  });
});
