import type { TFunction } from 'i18next';
import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';

import { apiClient, type ApiTransport } from '@/lib/api-client';
import { RootStore } from '@/stores/root-store';
import { MemoryStorage } from '@/test/memory-storage';

import { connectApiFeedback, type FeedbackDeps } from '../api-feedback';

const fetchMock = vi.fn<typeof fetch>();
const texts: Record<string, string> = {
  'errors.system': 'Erreur système, veuillez réessayer plus tard.',
  'errors.loginTimeout': 'Session expirée, veuillez vous reconnecter.',
};
const t = ((key: string) => texts[key] ?? key) as unknown as TFunction;

let storage: MemoryStorage;
let stores: RootStore;
let navigate: Mock<FeedbackDeps['navigate']>;
let path: string;
let disconnect: () => void;

function respond(body: unknown, status = 200) {
  fetchMock.mockResolvedValueOnce(
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
}

beforeEach(() => {
  vi.useFakeTimers();
  storage = new MemoryStorage();
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('fetch', fetchMock);
  stores = new RootStore({ get: vi.fn(), post: vi.fn() } as unknown as ApiTransport);
  navigate = vi.fn<FeedbackDeps['navigate']>();
  path = '/assets/transfer?currency_id=3';
  disconnect = connectApiFeedback({ stores, t, currentPath: () => path, navigate });
});

afterEach(() => {
  disconnect();
  fetchMock.mockReset();
  vi.useRealTimers();
});

describe('connectApiFeedback (spec §7/§8)', () => {
  it('on 999 drops the token, says the login timed out, and goes to login with the page', async () => {
    storage.setItem('token', 'expired');
    storage.setItem('uid', '7');
    stores.session.token = 'expired';
    respond({ code: 999, msg: 'Please log in', data: null }, 401);

    await apiClient.get('account/list').catch(() => undefined);

    expect(storage.getItem('token')).toBeNull();
    expect(storage.getItem('uid')).toBeNull();
    expect(stores.session.isLoggedIn).toBe(false);
    expect(stores.ui.toasts.map((x) => x.text)).toEqual([texts['errors.loginTimeout']]);
    expect(navigate).toHaveBeenCalledWith('/login?page=%2Fassets%2Ftransfer%3Fcurrency_id%3D3', { reason: 'timeout' });
  });

  it('on 999 without a token goes to login without the message', async () => {
    respond({ code: 999, data: null }, 401);
    await apiClient.get('account/list').catch(() => undefined);
    expect(stores.ui.toasts).toEqual([]);
    expect(navigate).toHaveBeenCalledOnce();
  });

  it('does not leave the login page on 999', async () => {
    path = '/login?page=%2Flever';
    respond({ code: 999, data: null }, 401);
    await apiClient.get('user/info').catch(() => undefined);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('shows the server msg of code 0 as an error', async () => {
    respond({ code: 0, msg: 'Wrong account or password', data: null }, 400);
    await apiClient.post('user/login', {}).catch(() => undefined);
    expect(stores.ui.toasts).toMatchObject([{ kind: 'error', text: 'Wrong account or password' }]);
  });

  it('shows the translated system error on a network failure', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await apiClient.get('news/list').catch(() => undefined);
    expect(stores.ui.toasts).toMatchObject([{ kind: 'error', text: texts['errors.system'] }]);
  });

  it('shows a success msg for 1 second', async () => {
    respond({ code: 1, msg: 'Logged in successfully', data: {} });
    await apiClient.post('user/login', {}, { showMsg: true });
    expect(stores.ui.toasts).toMatchObject([{ kind: 'success', text: 'Logged in successfully' }]);
    vi.advanceTimersByTime(999);
    expect(stores.ui.toasts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(stores.ui.toasts).toHaveLength(0);
  });

  it('holds the overlay while a loading call runs', async () => {
    let finish!: (r: Response) => void;
    fetchMock.mockReturnValueOnce(new Promise((resolve) => (finish = resolve)));
    const call = apiClient.post('user/register', {}, { loading: true });
    expect(stores.ui.loading).toBe(true);
    finish(new Response(JSON.stringify({ code: 1, data: null })));
    await call;
    expect(stores.ui.loading).toBe(false);
  });
});
