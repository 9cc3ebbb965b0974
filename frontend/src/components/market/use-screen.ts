/**
 * A trading screen's stores: one object per page, created when it opens, handed to its components
 * through a context, started, refreshed after a socket reconnect and disposed when the page is left.
 */
import { type Context, createContext, useContext, useEffect } from 'react';

import { getSocket } from '@/lib/socket';
import { useStores } from '@/stores/root-store';

import type { ScreenStore } from './stores/chart-screen';

export function useScreen(store: ScreenStore): void {
  useEffect(() => {
    store.start();
    const stopStatus = getSocket().onStatus((change) => {
      if (change.status === 'open' && change.reconnected) store.onReconnected();
    });
    return () => {
      stopStatus();
      store.dispose();
    };
  }, [store]);
}

/**
 * A screen only a logged-in user sees (lever, second): `useScreen`, and the socket logged in with
 * the session's token (again when it changes) before the user channels are subscribed.
 */
export function useUserScreen(store: ScreenStore): void {
  useScreen(store);
  const { session } = useStores();
  useEffect(() => {
    getSocket().syncLogin();
  }, [session.token]);
}

/** The context a screen's components find its store in, and the hook that reads it. */
export function screenContext<T>(screen: string): [Context<T | null>, () => T] {
  const context = createContext<T | null>(null);
  const use = (): T => {
    const store = useContext(context);
    if (!store) throw new Error(`used outside the ${screen}`);
    return store;
  };
  return [context, use];
}
