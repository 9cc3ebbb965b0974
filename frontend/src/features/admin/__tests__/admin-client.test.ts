import { beforeEach, describe, expect, it, vi } from 'vitest';

import { ADMIN_TOKEN_KEY, createAdminClient } from '../api/admin-client';
import { memoryStorage } from './fake-admin';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  vi.stubGlobal('localStorage', memoryStorage());
  localStorage.setItem('token', 'user-token');
  localStorage.setItem(ADMIN_TOKEN_KEY, 'op_abc');
});

describe('the console transport', () => {
  it("sends the operator's token, never the user's, to /api/admin/", async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => json({ code: 1, msg: '', data: { ok: true } }));
    vi.stubGlobal('fetch', fetch);
    const api = createAdminClient(() => {});
    expect(await api.get('withdrawals', { status: 1, q: '' })).toEqual({ ok: true });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/admin/withdrawals?status=1');
    expect(new Headers(init?.headers).get('Authorization')).toBe('op_abc');
    await api.get('/api/news/categories');
    expect(fetch.mock.calls[1]![0]).toBe('/api/news/categories');
  });

  it("drops only the console token on 999 and says so", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ code: 999, msg: 'Please log in', data: null })));
    const onUnauthorized = vi.fn();
    await expect(createAdminClient(onUnauthorized).get('me')).rejects.toMatchObject({ kind: 'unauthorized' });
    expect(onUnauthorized).toHaveBeenCalledOnce();
    expect(localStorage.getItem(ADMIN_TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem('token')).toBe('user-token');
  });

  it('rejects with the business message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ code: 0, msg: 'Your role does not allow this', data: null })));
    await expect(createAdminClient(() => {}).post('withdrawals/decide', { id: 1 })).rejects.toMatchObject({
      kind: 'business',
      message: 'Your role does not allow this',
    });
  });

  it('reads the CSV as a blob, and an envelope refusal as an error', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('id,at\n', { headers: { 'Content-Type': 'text/csv' } })));
    const blob = await createAdminClient(() => {}).blob('audit', { format: 'csv' });
    expect(await blob.text()).toBe('id,at\n');
    vi.stubGlobal('fetch', vi.fn(async () => json({ code: 0, msg: 'Your role does not allow this', data: null })));
    await expect(createAdminClient(() => {}).blob('audit', { format: 'csv' })).rejects.toThrow('Your role does not allow this');
  });
});
