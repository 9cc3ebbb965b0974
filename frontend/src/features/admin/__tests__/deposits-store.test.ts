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
}

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

  it('credits a manual deposit with exactly the account, currency, amount and reason, then reads the list again', async () => {
    const done = { user_id: 5, currency: 'USDT', amount: '250.5', account: 'change', ref: 'manual:1f2e' };
    fake.answer('deposits/credit', done);
    const store = new DepositsStore(fake.api);
    expect(store.ready).toBe(false);
    filled(store);
    expect(store.ready).toBe(true);
    const sent = store.credit();
    expect(store.creditState).toBe('sending');
    expect(await sent).toBe(true);
    expect(fake.post).toHaveBeenCalledWith('deposits/credit', {
      account: 'alice@ex.com', currency: 'USDT', amount: '250.5', reason: 'transfer with a wrong memo',
    }); // prettier-ignore
    expect(store.creditState).toBe('done');
    expect(store.credited?.ref).toBe('manual:1f2e');
    expect(store.creditedTo).toBe('alice@ex.com');
    expect(store.draft).toEqual({ account: '', currency: 'usdt', amount: '', reason: '' });
    expect(fake.get).toHaveBeenCalledWith('deposits', { status: null, page: 1 });
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
