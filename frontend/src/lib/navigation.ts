/** Where login-related navigation goes. Kept apart from React so the rules are testable. */

export const LOGIN_PATH = '/login';
export const HOME_PATH = '/home';

/** Why the login page was opened (router state `reason`); it shows the matching message. */
export type LoginReason = 'loginToTrade' | 'timeout';

/** Only internal paths are followed after login (`?page=`), never another origin. */
export function safeRedirect(page: string | null | undefined, fallback = HOME_PATH): string {
  if (!page || !page.startsWith('/') || page.startsWith('//') || page.startsWith('/\\')) return fallback;
  return page;
}

/** The login page, remembering `currentPath` (path + query) as `?page=` to come back to. */
export function loginPath(currentPath: string): string {
  if (!currentPath || currentPath.startsWith(LOGIN_PATH)) return LOGIN_PATH;
  return `${LOGIN_PATH}?page=${encodeURIComponent(currentPath)}`;
}

/** The login page after a logout (spec: query type=1). */
export const LOGGED_OUT_PATH = `${LOGIN_PATH}?type=1`;
