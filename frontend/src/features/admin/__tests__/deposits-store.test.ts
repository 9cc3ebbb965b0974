import { beforeEach, describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';

import { DepositsStore } from '../stores/deposits-store';
import { fakeAdmin } from './fake-admin';

let fake: ReturnType<typeof fakeAdmin>;

const deposit = (id: number, extra: object = {}) => ({
  id, user_id: 5, account: 'alice@ex.com', currency: 'USDT', protocol: 'TRC20', tx_hash: `0x${id}`, address: 'T' + 'a'.repeat(33),
  memo: '', amount: '250', confirmations: 3, status: 0, status_name: 'confirming', created_at: '2026-11-25T00:00:00+00:00', ...extra,
}); // prettier-ignore

const page = (rows: object[], extra: object = {}) => ({ data: rows, total: rows.length, per_page: 20, current_page: 1, last_page: 1, ...extra });

beforeEach(() => {
  fake = fakeAdmin();
  fake.answer('deposits', page([deposit(9), deposit(8, { status: 1, status_name: 'credited' })], { total: 45, last_page: 3 }));
});

function filled(store: DepositsStore): void {
  store.change('account', ' alice@ex.com ');
  store.change('currency', 'usdt');
  store.change('amount', '250.5');
  store.change('reason', ' transfer with a wrong memo ');
  store.change('ref', ' WIRE-4411 ');
}

const credit = (id: number, extra: object = {}) => ({
  id, ref: `WIRE-${id}`, user_id: 5, account: 'alice@ex.com', currency: 'USDT', account_type: 'change', amount: '250.5',
  usd: '250.5', status: 2, status_name: 'credited', reason: 'transfer with a wrong memo', requested_by: 'fin-a@ex.com',
  decided_by: 'fin-a@ex.com', decision_reason: '', created_ms: 1, decided_ms: 1, waiting_for_second_approval: false, ...extra,
}); // prettier-ignore

describe('DepositsStore', () => {
  it('reads every state, page by page', async () => {
    const store = new DepositsStore(fake.api);
    await store.list.load();
    expect(fake.get).toHaveBeenCalledWith('deposits', { status: null, page: 1 });
    expect(store.list.data?.data.map((d) => d.id)).toEqual([9, 8]);
    expect(store.lastPage).toBe(3);
    store.setPage(2);
    expect(fake.get).toHaveBeenLastCalledWith('deposits', { status: null, page: 2 });
    store.setPage(7);
    expect(store.page).toBe(3);
  });

  it('filters by state from the first page, and back to all', async () => {
    const store = new DepositsStore(fake.api);
    await store.list.load();
    store.setPage(2);
    store.setStatus(2);
    expect(store.page).toBe(1);
    expect(fake.get).toHaveBeenLastCalledWith('deposits', { status: 2, page: 1 });
    store.setStatus(null);
    expect(fake.get).toHaveBeenLastCalledWith('deposits', { status: null, page: 1 });
  });

  it('credits a manual deposit with exactly the account, currency, amount, reason and reference, then reads the lists again', async () => {
    fake.answer('deposits/credit', credit(3, { ref: 'WIRE-4411' }));
    fake.answer('deposits/credits', { list: [], page: 1, total: 0, limit: 20, credit_second_approval_usd: '1000' });
    const store = new DepositsStore(fake.api);
    expect(store.ready).toBe(false);
    filled(store);
    expect(store.ready).toBe(true);
    const sent = store.credit();
    expect(store.creditState).toBe('sending');
    expect(await sent).toBe(true);
    expect(fake.post).toHaveBeenCalledWith('deposits/credit', {
      account: 'alice@ex.com', currency: 'USDT', amount: '250.5', reason: 'transfer with a wrong memo', ref: 'WIRE-4411',
    }); // prettier-ignore
    expect(store.creditState).toBe('done');
    expect(store.credited?.ref).toBe('WIRE-4411');
    expect(store.creditedTo).toBe('alice@ex.com');
    expect(store.draft).toEqual({ account: '', currency: 'usdt', amount: '', reason: '', ref: '' });
    expect(fake.get).toHaveBeenCalledWith('deposits', { status: null, page: 1 });
    expect(fake.get).toHaveBeenCalledWith('deposits/credits', { status: 1, page: 1 });
    expect(store.threshold).toBe('1000');
  });

  it('sends nothing without a reference of three characters', async () => {
    const store = new DepositsStore(fake.api);
    filled(store);
    store.change('ref', ' 12 ');
    expect(store.ready).toBe(false);
    expect(await store.credit()).toBe(false);
    expect(fake.post).not.toHaveBeenCalled();
  });

  it('keeps an answer that waits for a second operator, and lists what waits', async () => {
    const waiting = credit(4, { amount: '1000000', usd: '1000000', status: 1, status_name: 'pending', decided_by: '',
      decided_ms: null, waiting_for_second_approval: true }); // prettier-ignore
    fake.answer('deposits/credit', waiting);
    fake.answer('deposits/credits', { list: [waiting], page: 1, total: 1, limit: 20, credit_second_approval_usd: '1000' });
    const store = new DepositsStore(fake.api);
    filled(store);
    expect(await store.credit()).toBe(true);
    expect(store.credited?.waiting_for_second_approval).toBe(true);
    expect(store.pending.data?.list.map((c) => c.id)).toEqual([4]);
  });

  it('approves or rejects a pending credit, and keeps a refusal beside its row', async () => {
    fake.answer('deposits/credits', { list: [], page: 1, total: 0, limit: 20, credit_second_approval_usd: '1000' });
    fake.answer('deposits/credits/decide', (body: unknown) => {
      const { id, approve } = body as { id: number; approve: boolean };
      return credit(id, { status: approve ? 2 : 3, status_name: approve ? 'credited' : 'rejected' });
    });
    const store = new DepositsStore(fake.api);
    const approving = store.decide(4, true, '');
    expect(store.decisionOf(4)).toBe('sending');
    expect(await approving).toBe('credited');
    expect(fake.post).toHaveBeenCalledWith('deposits/credits/decide', { id: 4, approve: true, reason: '' });
    expect(await store.decide(5, false, 'no such wire')).toBe('rejected');
    expect(fake.get).toHaveBeenCalledWith('deposits/credits', { status: 1, page: 1 });
    fake.answer('deposits/credits/decide', new ApiError('Another finance operator must approve this: you requested it', 'business', { code: 0 }));
    expect(await store.decide(6, true, '')).toBe('failed');
    expect(store.decisionErrors.get(6)).toBe('Another finance operator must approve this: you requested it');
  });

  it('sends nothing without a reason of three characters', async () => {
    const store = new DepositsStore(fake.api);
    filled(store);
    store.change('reason', ' ab ');
    expect(store.ready).toBe(false);
    expect(await store.credit()).toBe(false);
    expect(fake.post).not.toHaveBeenCalled();
  });

  it("keeps the server's refusal and the form as typed", async () => {
    fake.answer('deposits/credit', new ApiError('The record does not exist', 'business', { code: 0 }));
    const store = new DepositsStore(fake.api);
    filled(store);
    expect(await store.credit()).toBe(false);
    expect(store.creditState).toBe('failed');
    expect(store.creditError).toBe('The record does not exist');
    expect(store.credited).toBeNull();
    expect(store.draft.amount).toBe('250.5');
    expect(fake.get).not.toHaveBeenCalled();
  });
});
