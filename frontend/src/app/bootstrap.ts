import type { i18n as I18n } from 'i18next';
import { reaction } from 'mobx';

import { getSocket } from '@/lib/socket';
import type { RootStore } from '@/stores/root-store';

import { connectApiFeedback } from './api-feedback';
import { router } from './router';

/**
 * Wires the stores to the outside world once, before the first render: request feedback and the
 * 999 redirect, the shell's settings and user, and the socket's login following the token.
 */
export function bootstrap(store: RootStore, i18n: I18n): void {
  connectApiFeedback({
    stores: store,
    t: i18n.t.bind(i18n),
    currentPath: () => router.state.location.pathname + router.state.location.search,
    navigate: (to, state) => void router.navigate(to, { state }),
  });
  void store.content.loadSettings();
  void store.session.loadUser();
  // Log the socket in or out with the session, so per-user channels follow the account.
  reaction(
    () => store.session.token,
    () => getSocket().syncLogin(),
  );
}
