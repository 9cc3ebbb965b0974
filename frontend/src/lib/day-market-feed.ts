/**
 * Live 24 h quotations. A `DayMarketFeed` delivers DAY_MARKET updates from wherever they come
 * from: the socket's DAY_MARKET channel (see `socketDayMarketFeed`) or, while no socket is
 * connected, a poll of market/currency_matches (`pollingDayMarketFeed`).
 */
import type { DayMarketUpdate, QuoteGroup } from '@/types/api';

/** How often the fallback poll reads the pair list (the chart's refresh interval, spec §9). */
export const DAY_MARKET_POLL_MS = 10_000;

export interface DayMarketFeed {
  /** Starts delivering updates; the returned function stops them (unsubscribes). */
  start(onUpdate: (update: DayMarketUpdate) => void): () => void;
}

/** One update per pair of a freshly read list. */
export function updatesFromGroups(groups: QuoteGroup[]): DayMarketUpdate[] {
  return groups.flatMap((group) =>
    group.matches
      .filter((m) => m.currency_quotation)
      .map((m) => ({ currency_match_id: m.id, symbol: m.symbol, quotation: { ...m.currency_quotation! } })),
  );
}

export function pollingDayMarketFeed(
  fetchGroups: () => Promise<QuoteGroup[] | undefined>,
  intervalMs = DAY_MARKET_POLL_MS,
): DayMarketFeed {
  return {
    start(onUpdate) {
      let stopped = false;
      let busy = false;
      const tick = async () => {
        if (busy) return; // a slow answer is not overtaken by the next poll
        busy = true;
        try {
          const groups = await fetchGroups();
          if (!stopped && groups) for (const update of updatesFromGroups(groups)) onUpdate(update);
        } catch {
          // The next tick tries again; the page keeps the last known prices meanwhile.
        } finally {
          busy = false;
        }
      };
      const timer = setInterval(() => void tick(), intervalMs);
      return () => {
        stopped = true;
        clearInterval(timer);
      };
    },
  };
}

/** The message a socket delivers on the DAY_MARKET channel (type `daymarket`). */
export function isDayMarketMessage(message: unknown): message is DayMarketUpdate & { type: string } {
  if (typeof message !== 'object' || message === null) return false;
  const m = message as Record<string, unknown>;
  return (
    String(m.type).toLowerCase() === 'daymarket' &&
    typeof m.currency_match_id === 'number' &&
    typeof m.quotation === 'object' &&
    m.quotation !== null
  );
}

/** What the feed needs of the push client (lib/socket.ts `SocketClient`). */
export interface DayMarketSocket {
  readonly status: string;
  subscribe(channel: string, listener?: (message: { type: string }) => void): () => void;
  onStatus(listener: (change: { status: string }) => void): () => void;
}

/**
 * Updates from the socket's DAY_MARKET channel. While the socket is not open (connecting, or
 * waiting the 30 s before a reconnect) the `fallback` feed runs, so prices never freeze.
 */
export function socketDayMarketFeed(socket: DayMarketSocket, fallback?: DayMarketFeed): DayMarketFeed {
  return {
    start(onUpdate) {
      let stopFallback: (() => void) | null = null;
      const follow = (status: string) => {
        if (status === 'open') {
          stopFallback?.();
          stopFallback = null;
        } else if (!stopFallback && fallback) {
          stopFallback = fallback.start(onUpdate);
        }
      };
      const unsubscribe = socket.subscribe('DAY_MARKET', (message) => {
        if (isDayMarketMessage(message)) onUpdate(message);
      });
      const stopStatus = socket.onStatus((change) => follow(change.status));
      follow(socket.status);
      return () => {
        unsubscribe();
        stopStatus();
        stopFallback?.();
        stopFallback = null;
      };
    },
  };
}
