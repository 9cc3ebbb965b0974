/** Keys this app keeps in localStorage (spec: token, lang, theme, uid, is_seller, account, …). */
export const STORAGE_KEYS = {
  token: 'token',
  lang: 'lang',
  theme: 'theme',
  uid: 'uid',
  isSeller: 'is_seller',
  /** The account label (e-mail or mobile) shown before user/info answers. */
  account: 'account',
  /** The account typed at login, kept only when "remember" was ticked. */
  rememberedAccount: 'remember_account',
  /** Last login tab: `email` or `mobile`. */
  loginMethod: 'login_method',
  countryId: 'country_id',
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
