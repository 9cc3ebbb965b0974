import { makeAutoObservable } from 'mobx';

import type { ApiTransport } from '@/lib/api-client';
import type { DayMarketFeed } from '@/lib/day-market-feed';
import { mergeQuotation } from '@/lib/fiat';
import { changeValue, type Direction, toBig } from '@/lib/format';
import type { CurrencyMatch, DayMarketUpdate, QuoteGroup } from '@/types/api';

/** The fixed set of pairs in the home market table (docs/decisions.md: 1–13 and 64). */
export const HOME_PAIR_IDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 64] as const;
/** Top tickers on the home page: the first 6 tradable pairs (open_change 1). */
export const TOP_TICKER_COUNT = 6;

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

const QUOTE_FIELDS = ['close', 'change', 'high', 'low', 'volume', 'usd_price', 'cny_price'] as const;

/** Pairs grouped by quote currency, with their live 24 h quotations. */
export class HomeMarketStore {
  groups: QuoteGroup[] = [];
  status: LoadStatus = 'idle';
  /** Direction of each pair's last price move, for the up/down flash. */
  ticks = new Map<number, Direction>();
  private watchers = 0;
  private stopFeed: (() => void) | null = null;

  constructor(private readonly api: ApiTransport) {
    makeAutoObservable<HomeMarketStore, 'api' | 'watchers' | 'stopFeed'>(this, {
      api: false,
      watchers: false,
      stopFeed: false,
    });
  }

  get matches(): CurrencyMatch[] {
    return this.groups.flatMap((g) => g.matches);
  }

  matchById(id: number): CurrencyMatch | undefined {
    return this.matches.find((m) => m.id === id);
  }

  groupOf(match: CurrencyMatch): QuoteGroup | undefined {
    return this.groups.find((g) => g.id === match.quote_currency_id);
  }

  get topTickers(): CurrencyMatch[] {
    return this.matches.filter((m) => m.open_change === 1).slice(0, TOP_TICKER_COUNT);
  }

  /** The home table: the fixed 14 pairs, biggest 24 h change first. */
  get homeRows(): CurrencyMatch[] {
    return HOME_PAIR_IDS.map((id) => this.matchById(id))
      .filter((m): m is CurrencyMatch => m !== undefined)
      .sort((a, b) => changeValue(b.currency_quotation?.change) - changeValue(a.currency_quotation?.change));
  }

  /** Reads market/currency_matches without touching the store (rejects on failure). */
  async fetchGroups(): Promise<QuoteGroup[]> {
    const groups = await this.api.get<QuoteGroup[]>('market/currency_matches', { quiet: true });
    return Array.isArray(groups) ? groups : [];
  }

  /** Reads the pairs into the store; keeps the last list when a reload fails. */
  async load(): Promise<void> {
    if (!this.groups.length) this.setStatus('loading');
    try {
      this.setGroups(await this.fetchGroups());
    } catch {
      if (!this.groups.length) this.setStatus('error');
    }
  }

  setGroups(groups: QuoteGroup[]): void {
    this.groups = groups;
    this.status = 'ready';
  }

  setStatus(status: LoadStatus): void {
    this.status = status;
  }

  /** Merges a DAY_MARKET update (close, change, high, low, volume, usd_price, cny_price) into its pair. */
  applyUpdate(update: DayMarketUpdate): void {
    const match = this.matchById(update.currency_match_id);
    if (!match) return;
    const current = match.currency_quotation ?? { close: '0', change: '0', high: '0', low: '0', volume: '0' };
    const before = toBig(current.close);
    const given: Partial<typeof current> = {};
    for (const field of QUOTE_FIELDS) {
      const value = update.quotation[field];
      if (value !== undefined && value !== null && value !== '') given[field] = value;
    }
    const next = mergeQuotation(current, given);
    const after = toBig(next.close);
    if (before && after && !after.eq(before)) this.ticks.set(match.id, after.gt(before) ? 'up' : 'down');
    match.currency_quotation = next;
  }

  /**
   * Keeps quotations live while at least one page watches. Pages call it on mount and the
   * returned function on unmount; the feed stops (unsubscribes) when the last one leaves.
   */
  watch(feed: DayMarketFeed): () => void {
    this.watchers += 1;
    if (this.watchers === 1) this.stopFeed = feed.start((u) => this.applyUpdate(u));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.watchers -= 1;
      if (this.watchers === 0) {
        this.stopFeed?.();
        this.stopFeed = null;
      }
    };
  }
}
