import type { Role } from '../api/types';

/** The console's screens, each with the roles that may open it (the server checks them again). */
export const SCREENS = [
  { key: 'dashboard', path: '/admin', roles: 'any' },
  { key: 'realNames', path: '/admin/real-names', roles: ['support'] },
  { key: 'withdrawals', path: '/admin/withdrawals', roles: ['finance'] },
  { key: 'deposits', path: '/admin/deposits', roles: ['finance'] },
  { key: 'conservation', path: '/admin/conservation', roles: ['finance'] },
  { key: 'chain', path: '/admin/chain', roles: ['finance'] },
  { key: 'appeals', path: '/admin/appeals', roles: ['risk'] },
  { key: 'users', path: '/admin/users', roles: ['support', 'risk'] },
  { key: 'sms', path: '/admin/sms', roles: ['support', 'risk'] },
  { key: 'content', path: '/admin/content', roles: ['content'] },
  { key: 'markets', path: '/admin/markets', roles: ['markets'] },
  { key: 'currencies', path: '/admin/currencies', roles: ['markets'] },
  { key: 'placement', path: '/admin/placement', roles: ['markets'] },
  { key: 'products', path: '/admin/products', roles: ['products'] },
  { key: 'audit', path: '/admin/audit', roles: ['admin'] },
] as const satisfies readonly { key: string; path: string; roles: 'any' | readonly Role[] }[];

export type Screen = (typeof SCREENS)[number];
export type ScreenKey = Screen['key'];

export function allows(roles: readonly Role[], screen: Screen): boolean {
  return screen.roles === 'any' || screen.roles.some((r) => roles.includes(r));
}

/** The menu an operator with `roles` sees: only what they may open, dashboard for everyone. */
export function menuFor(roles: readonly Role[]): Screen[] {
  return SCREENS.filter((s) => allows(roles, s));
}

export function screenOf(key: ScreenKey): Screen {
  return SCREENS.find((s) => s.key === key)!;
}
