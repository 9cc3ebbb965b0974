/**
 * The one push (websocket) client of the app (spec shell §7, trading §4, docs/architecture.md
 * "Push channels").
 *
 * - Connects to `/ws` on the push address the server announces (`GET default/push_address`), the
 *   secure variant on an https page; without an answer it uses `/ws` on this host (reverse proxy).
 * - Sends a `ping` text every 5 s; a link that stays silent for three pings is treated as dead.
 * - After a close it reconnects 30 s later, logs in again and re-sends every subscription.
 * - `{"type":"login","token":…}` after opening when a token is stored; `syncLogin()` re-sends it
 *   when the token changed (login or logout in this tab).
 * - `subscribe(channel)` is reference counted: the first subscriber sends `sub`, the last one to
 *   leave sends `unsub`. Incoming JSON messages are dispatched by their `type`.
 *
 * `useChannel()` ties a subscription to a component: sub on mount, unsub on unmount.
 */
import { useEffect, useRef } from 'react';

import { apiClient } from '@/lib/api-client';
import { STORAGE_KEYS, storage } from '@/lib/storage';

import { type MessageListener, type PushMessage, SocketClient } from './socket-client';

// The client class and its types live in ./socket-client; pages import all of it from here.
export * from './socket-client';

// -- the app-wide client -------------------------------------------------------------------------

/** Same host, `/ws` path: what a reverse proxy in front of the app serves (docs/operations.md). */
export function sameHostPushUrl(loc: Pick<Location, 'protocol' | 'host'> = globalThis.location): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/ws`;
}

/** On an https page a ws:// address would be blocked as mixed content: use its wss:// form. */
export function securePushUrl(url: string, protocol: string = globalThis.location?.protocol ?? 'http:'): string {
  return protocol === 'https:' && url.startsWith('ws://') ? `wss://${url.slice('ws://'.length)}` : url;
}

let announced: string | null = null;

/** The push address the server announces (cached once found), else this host's `/ws`. */
export async function resolvePushUrl(): Promise<string> {
  if (!announced) {
    try {
      // Quiet: without an answer the same-host address is used; no error message for that.
      const data = await apiClient.get<{ url?: string }>('default/push_address', { quiet: true });
      if (data?.url) announced = data.url;
    } catch {
      /* fall through to the same-host address */
    }
  }
  return securePushUrl(announced ?? sameHostPushUrl());
}

let shared: SocketClient | null = null;

/** The socket every page shares (created on first use). */
export function getSocket(): SocketClient {
  shared ??= new SocketClient({
    url: resolvePushUrl,
    getToken: () => storage.get(STORAGE_KEYS.token),
  });
  return shared;
}

/**
 * Subscribe while the component is mounted (and while `channel` stays the same); `null` subscribes
 * to nothing. The latest `listener` is always called, so it need not be memoised.
 */
export function useChannel<T extends { type: string } = PushMessage>(
  channel: string | null,
  listener: MessageListener<T>,
  client?: SocketClient,
): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    if (!channel) return undefined;
    return (client ?? getSocket()).subscribe(channel, (message) => latest.current(message as unknown as T));
  }, [channel, client]);
}
