/** Keys this app keeps in localStorage. */
export const STORAGE_KEYS = {
  token: 'token',
  lang: 'lang',
  theme: 'theme',
} as const;

type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

function backend(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined; // e.g. storage disabled by browser privacy settings
  }
}

/** localStorage wrapper that never throws (missing or blocked storage acts as empty). */
export const storage = {
  get(key: StorageKey): string | null {
    try {
      return backend()?.getItem(key) ?? null;
    } catch {
      return null;
    }
  },
  set(key: StorageKey, value: string): void {
    try {
      backend()?.setItem(key, value);
    } catch {
      /* ignore quota / privacy errors */
    }
  },
  remove(key: StorageKey): void {
    try {
      backend()?.removeItem(key);
    } catch {
      /* ignore */
    }
  },
};
