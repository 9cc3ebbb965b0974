import type { TFunction } from 'i18next';

import { type ApiError, setApiFeedback, setUnauthorizedHandler } from '@/lib/api-client';
import { loginPath } from '@/lib/navigation';
import type { RootStore } from '@/stores/root-store';

export interface FeedbackDeps {
  stores: Pick<RootStore, 'ui' | 'session'>;
  t: TFunction;
  /** The current path and query, e.g. `/assets/transfer?x=1`. */
  currentPath: () => string;
  navigate: (to: string, state?: { reason: 'timeout' }) => void;
}

/**
 * Shows what the request layer reports (spec §7/§8): the loading overlay, success messages,
 * errors (the server's msg; a translated "System error" for network failures) and, on 999,
 * drops the session, says "Login timed out" when there was one, and goes to login?page=….
 */
export function connectApiFeedback({ stores, t, currentPath, navigate }: FeedbackDeps): () => void {
  const { ui, session } = stores;
  setApiFeedback({
    loading: (active) => ui.setLoading(active),
    success: (message) => ui.toast('success', message),
    error: (error: ApiError) => ui.toast('error', error.kind === 'network' ? t('errors.system') : error.message),
  });
  setUnauthorizedHandler(({ hadToken }) => {
    const wasLoggedIn = hadToken || session.isLoggedIn;
    session.clear();
    if (wasLoggedIn) ui.toast('error', t('errors.loginTimeout'));
    const target = loginPath(currentPath());
    if (!currentPath().startsWith('/login')) navigate(target, { reason: 'timeout' });
  });
  return () => {
    setApiFeedback(null);
    setUnauthorizedHandler(null);
  };
}
