/** The lock-savings calls (spec trading §7 `storage_currency/*`). Reads are quiet: the page shows their failure. */
import { apiClient, type ApiTransport } from '@/lib/api-client';

import type { LockOrder, LockProduct } from '../types';

/** Spec trading §9: the lock list asks for 30. */
export const LOCK_LIST_LIMIT = 30;

export function createLockApi(api: ApiTransport = apiClient) {
  return {
    products: async () =>
      (await api.get<LockProduct[]>('storage_currency/lock_list', { params: { limit: LOCK_LIST_LIMIT }, quiet: true })) ?? [],
    locks: async () =>
      (await api.get<LockOrder[]>('storage_currency/current_setting', { params: { limit: LOCK_LIST_LIMIT }, quiet: true })) ?? [],
    /** Locks one lot of the product; the server's "purchase success" is shown. */
    lock: (id: number) => api.post<LockOrder>('storage_currency/submit_lock', { id }, { loading: true, showMsg: true }),
  };
}

export type LockApi = ReturnType<typeof createLockApi>;
