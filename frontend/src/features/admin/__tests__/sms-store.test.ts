import { beforeEach, describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';

import { SmsStore, smsQuery } from '../stores/sms-store';
import { fakeAdmin } from './fake-admin';

let fake: ReturnType<typeof fakeAdmin>;

const message = (id: number, state: string, extra: object = {}) => ({
  id, to: '+8613800138000', region: 'CN', purpose: 1, state, provider: 'smpp', provider_ref: `r${id}`, parts: 1,
  rounds: 1, error: '', text: 'Your code is ******', created_at: 1_790_000_000, sent_at: null, done_at: null, ...extra,
}); // prettier-ignore

beforeEach(() => {
  fake = fakeAdmin();
  fake.answer('sms/messages', { list: [message(2, 'failed', { error: 'no route' }), message(1, 'delivered')], page: 1,
    total: 120, limit: 50 }); // prettier-ignore
  fake.answer('sms/ceilings', { default: 30, list: [{ region: 'NG', per_minute: 0, used: 0 }] });
});

describe('SmsStore', () => {
  it('reads the newest messages, then one state and one number, from page 1 each time', async () => {
    const store = new SmsStore(fake.api);
    await store.messages.load();
    expect(fake.get).toHaveBeenLastCalledWith('sms/messages', { page: 1 });
    expect(store.messages.data?.list.map((m) => m.state)).toEqual(['failed', 'delivered']);
    expect(store.lastPage).toBe(3);
    store.setPage(3);
    expect(fake.get).toHaveBeenLastCalledWith('sms/messages', { page: 3 });
    store.setState('failed');
    expect(fake.get).toHaveBeenLastCalledWith('sms/messages', { page: 1, state: 'failed' });
    store.setToDraft(' +86 138-0013-8000 ');
    expect(fake.get).toHaveBeenCalledTimes(3); // typing asks nothing
    store.applyTo();
    expect(fake.get).toHaveBeenLastCalledWith('sms/messages', { page: 1, state: 'failed', to: '8613800138000' });
    expect(smsQuery(null, '  ', 2)).toEqual({ page: 2 });
  });

  it('sets a country ceiling as a whole number, clears one with an empty figure, and reads the ceilings again', async () => {
    fake.answer('sms/ceilings/save', (body: unknown) => body);
    const store = new SmsStore(fake.api);
    store.change('region', 'ng');
    store.change('perMinute', ' 5 ');
    expect(store.ceilingRequest).toEqual({ region: 'NG', per_minute: 5 });
    expect(await store.saveCeiling()).toBe(true);
    expect(fake.post).toHaveBeenLastCalledWith('sms/ceilings/save', { region: 'NG', per_minute: 5 });
    expect(fake.get).toHaveBeenLastCalledWith('sms/ceilings');
    expect(store.ceilingState).toBe('saved');
    expect(store.draft).toEqual({ region: '', perMinute: '' });

    store.edit('NG', 0);
    expect(store.ceilingRequest).toEqual({ region: 'NG', per_minute: 0 });
    store.change('perMinute', '');
    expect(store.ceilingRequest).toEqual({ region: 'NG', per_minute: null }); // back to the default
  });

  it('sends nothing for a country or figure the server would refuse', async () => {
    const store = new SmsStore(fake.api);
    for (const [region, perMinute] of [['CHN', '5'], ['C1', '5'], ['', '5'], ['CN', '-1'], ['CN', '2.5'], ['CN', '1000001']]) {
      store.change('region', region!);
      store.change('perMinute', perMinute!);
      expect(store.ceilingRequest).toBeNull();
      expect(await store.saveCeiling()).toBe(false);
    }
    expect(fake.post).not.toHaveBeenCalled();
  });

  it("keeps the server's message and the form when a change is refused", async () => {
    fake.answer('sms/ceilings/save', new ApiError('Your role does not allow this', 'business', { code: 0 }));
    const store = new SmsStore(fake.api);
    store.change('region', 'CN');
    store.change('perMinute', '10');
    expect(await store.saveCeiling()).toBe(false);
    expect(store.ceilingState).toBe('failed');
    expect(store.ceilingError).toBe('Your role does not allow this');
    expect(store.draft).toEqual({ region: 'CN', perMinute: '10' });
    expect(fake.get).not.toHaveBeenCalled();
  });
});
