/** The trade page's login state, read from the stored token. */
import { useSyncExternalStore } from 'react';

import { STORAGE_KEYS, storage } from '@/lib/storage';

/** How often the session token is re-read: a login or logout in this tab fires no storage event. */
const TOKEN_POLL_MS = 1_000;

function readToken(): string | null {
  return storage.get(STORAGE_KEYS.token) || null;
}

function subscribeToken(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  const timer = setInterval(onChange, TOKEN_POLL_MS);
  return () => {
    window.removeEventListener('storage', onChange);
    clearInterval(timer);
  };
}

/** The stored session token; login state is "a token is present" (spec §4). */
export function useSessionToken(): string | null {
  return useSyncExternalStore(subscribeToken, readToken, () => null);
}
