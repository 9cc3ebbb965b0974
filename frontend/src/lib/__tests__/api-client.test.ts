import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { MemoryStorage } from '@/test/memory-storage';

import {
  ApiError,
  apiClient,
  REQUEST_TIMEOUT_MS,
  setUnauthorizedHandler,
  SYSTEM_ERROR_MESSAGE,
} from '../api-client';

const fetchMock = vi.fn<typeof fetch>();

function respond(body: unknown, status = 200) {
  fetchMock.mockResolvedValueOnce(
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
}

function lastRequest() {
  const [url, init] = fetchMock.mock.calls.at(-1)!;
  return { url: String(url), init: init!, headers: new Headers(init!.headers) };
}

let storage: MemoryStorage;

beforeEach(() => {
  storage = new MemoryStorage();
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  fetchMock.mockReset();
  setUnauthorizedHandler(null);
  vi.useRealTimers();
});

describe('apiClient addresses', () => {
  it('calls /api/ by default and another service of the host when asked', async () => {
    respond({ code: 1, data: null });
    await apiClient.get('user/info', { params: { a: 1 } });
    expect(lastRequest().url).toBe('/api/user/info?a=1');
    respond({ code: 1, data: null });
    await apiClient.post('SendVerificationcode', 'user_id=7', { baseUrl: '/walletMiddle/' });
    expect(lastRequest().url).toBe('/walletMiddle/SendVerificationcode');
  });
});

describe('apiClient envelope handling', () => {
  it('code 1 resolves with data', async () => {
    respond({ code: 1, msg: 'ok', data: [{ id: 1 }] });
    await expect(apiClient.get('market/currency_matches')).resolves.toEqual([{ id: 1 }]);
  });

  it('code 0 rejects with an ApiError carrying msg', async () => {
    respond({ code: 0, msg: 'Insufficient balance', data: null });
    const error = await apiClient.post('order', { amount: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Insufficient balance', code: 0, kind: 'business' });
  });

  it('code 999 removes the token and rejects', async () => {
    storage.setItem('token', 'abc');
    storage.setItem('lang', 'fr');
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    respond({ code: 999, msg: 'Please log in', data: null });

    const error = await apiClient.get('user/info').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 999, kind: 'unauthorized' });
    expect(storage.getItem('token')).toBeNull();
    expect(storage.getItem('lang')).toBe('fr');
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('code 996 resolves undefined silently', async () => {
    respond({ code: 996, msg: 'ignored', data: { some: 'thing' } });
    await expect(apiClient.get('anything')).resolves.toBeUndefined();
  });

  it('fetch rejection gives the system error message', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const error = await apiClient.get('market/currency_matches').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: SYSTEM_ERROR_MESSAGE, kind: 'network' });
  });

  it('a non-JSON answer (e.g. proxy error page) gives the system error message', async () => {
    fetchMock.mockResolvedValueOnce(new Response('<html>502 Bad Gateway</html>', { status: 502 }));
    await expect(apiClient.get('x')).rejects.toMatchObject({ message: SYSTEM_ERROR_MESSAGE });
  });

  it('times out after 20 s with the system error message', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementationOnce(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = apiClient.get('slow').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(lastRequest().init.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toMatchObject({ message: SYSTEM_ERROR_MESSAGE, kind: 'network' });
  });
});

describe('apiClient request', () => {
  it('targets /api/, sends lang (default en) and no Authorization without a token', async () => {
    respond({ code: 1, data: null });
    await apiClient.get('/market/currency_matches', { params: { page: 2, q: undefined } });
    const { url, init, headers } = lastRequest();
    expect(url).toBe('/api/market/currency_matches?page=2');
    expect(init.method).toBe('GET');
    expect(headers.get('lang')).toBe('en');
    expect(headers.has('Authorization')).toBe(false);
  });

  it('sends lang and Authorization from localStorage, and JSON bodies', async () => {
    storage.setItem('lang', 'jp');
    storage.setItem('token', 'tok-123');
    respond({ code: 1, data: 'ok' });
    await apiClient.post('user/login', { user: 'a' });
    const { init, headers } = lastRequest();
    expect(headers.get('lang')).toBe('jp');
    expect(headers.get('Authorization')).toBe('tok-123');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init.body).toBe('{"user":"a"}');
  });
});

describe('apiClient idempotency keys', () => {
  const order = { currency_match_id: 1, number: '0.1', price: '60000' };
  const key = () => lastRequest().headers.get('Idempotency-Key');

  it('sends a key with each money-moving POST and none elsewhere', async () => {
    respond({ code: 1, data: null });
    await apiClient.post('tx_in/add', order);
    expect(key()).toMatch(/^[0-9a-f]{32}$/);
    respond({ code: 1, data: null });
    await apiClient.post('tx_in/cancel', { id: 1 });
    expect(key()).toBeNull();
    respond({ code: 1, data: null });
    await apiClient.get('tx_in/list');
    expect(key()).toBeNull();
  });

  it('a double click sends one key; the next submit of the same form is a new action', async () => {
    respond({ code: 1, data: null });
    respond({ code: 1, data: null });
    await Promise.all([apiClient.post('lever/submit', order), apiClient.post('lever/submit', order)]);
    const [first, second] = fetchMock.mock.calls.map(([, init]) => new Headers(init!.headers).get('Idempotency-Key'));
    expect(first).toBe(second);
    respond({ code: 1, data: null });
    await apiClient.post('lever/submit', order);
    expect(key()).not.toBe(first);
    respond({ code: 1, data: null });
    await apiClient.post('lever/submit', { ...order, number: '0.2' });
    expect(key()).not.toBe(first);
  });

  it("the user's retry after a lost answer reuses the key; after a refusal it does not", async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('network down'));
    await expect(apiClient.post('account/transfer', order)).rejects.toMatchObject({ kind: 'network' });
    const lost = key();
    respond({ code: 0, msg: 'The service is busy, please try again', data: null }, 503);
    await expect(apiClient.post('account/transfer', order)).rejects.toBeInstanceOf(ApiError);
    expect(key()).toBe(lost);
    respond({ code: 0, msg: 'Insufficient balance', data: null }, 400);
    await expect(apiClient.post('account/transfer', order)).rejects.toMatchObject({ kind: 'business' });
    expect(key()).toBe(lost);
    respond({ code: 1, data: null });
    await apiClient.post('account/transfer', order);
    expect(key()).not.toBe(lost);
  });

  it("keeps a caller's own key", async () => {
    respond({ code: 1, data: null });
    await apiClient.post('account/draw', order, { idempotencyKey: 'mine-1' });
    expect(key()).toBe('mine-1');
  });
});
