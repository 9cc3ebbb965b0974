import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';

import { MemoryStorage } from '@/test/memory-storage';

import { type ApiFeedback, apiClient, setApiFeedback, setUnauthorizedHandler } from '../api-client';

const fetchMock = vi.fn<typeof fetch>();
let storage: MemoryStorage;
let feedback: { [K in keyof ApiFeedback]: Mock<ApiFeedback[K]> };

function respond(body: unknown, status = 200) {
  fetchMock.mockResolvedValueOnce(
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
}

beforeEach(() => {
  storage = new MemoryStorage();
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('fetch', fetchMock);
  feedback = { loading: vi.fn<ApiFeedback['loading']>(), success: vi.fn<ApiFeedback['success']>(), error: vi.fn<ApiFeedback['error']>() };
  setApiFeedback(feedback);
});

afterEach(() => {
  fetchMock.mockReset();
  setApiFeedback(null);
  setUnauthorizedHandler(null);
});

describe('what the request layer reports', () => {
  it('shows the overlay around a `loading` call, also when it fails', async () => {
    respond({ code: 1, data: 1 });
    await apiClient.post('user/login', {}, { loading: true });
    expect(feedback.loading.mock.calls).toEqual([[true], [false]]);

    fetchMock.mockRejectedValueOnce(new TypeError('offline'));
    await apiClient.post('user/login', {}, { loading: true }).catch(() => undefined);
    expect(feedback.loading.mock.calls).toEqual([[true], [false], [true], [false]]);
  });

  it('does not touch the overlay for other calls', async () => {
    respond({ code: 1, data: 1 });
    await apiClient.get('market/currency_matches');
    expect(feedback.loading).not.toHaveBeenCalled();
  });

  it('shows the success msg only when asked', async () => {
    respond({ code: 1, msg: 'Order placed', data: {} });
    await apiClient.post('tx_in/add', {}, { showMsg: true });
    expect(feedback.success).toHaveBeenCalledWith('Order placed');

    respond({ code: 1, msg: 'ok', data: {} });
    await apiClient.get('user/info');
    expect(feedback.success).toHaveBeenCalledTimes(1);
  });

  it('reports code 0 with the server msg', async () => {
    respond({ code: 0, msg: 'Insufficient balance', data: null }, 400);
    await apiClient.post('tx_in/add', {}).catch(() => undefined);
    expect(feedback.error).toHaveBeenCalledOnce();
    expect(feedback.error.mock.calls[0]![0]).toMatchObject({ kind: 'business', message: 'Insufficient balance' });
  });

  it('reports network failures as kind network', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await apiClient.get('news/list').catch(() => undefined);
    expect(feedback.error.mock.calls[0]![0]).toMatchObject({ kind: 'network' });
  });

  it('stays silent for quiet calls, 996 answers and 999 answers', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await apiClient.get('market/currency_matches', { quiet: true }).catch(() => undefined);
    respond({ code: 996, msg: 'shh', data: null });
    await apiClient.post('x', {}, { showMsg: true });
    respond({ code: 999, msg: 'Please log in', data: null }, 401);
    await apiClient.get('user/info').catch(() => undefined);
    expect(feedback.error).not.toHaveBeenCalled();
    expect(feedback.success).not.toHaveBeenCalled();
  });

  it('tells the 999 handler whether a token was dropped', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    storage.setItem('token', 'old');
    respond({ code: 999, data: null }, 401);
    await apiClient.get('user/info').catch(() => undefined);
    respond({ code: 999, data: null }, 401);
    await apiClient.get('user/info').catch(() => undefined);
    expect(onUnauthorized.mock.calls).toEqual([[{ hadToken: true }], [{ hadToken: false }]]);
  });
});
