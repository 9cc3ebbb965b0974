/**
 * Market side of a trading screen (spot and lever): the pair list, the current pair, its ticker,
 * order book and recent trades. Filled from market/currency_matches and market/deal, then kept live
 * by pushes (DAY_MARKET, MARKET_DEPTH.{symbol}, GLOBAL_TX.{symbol}). A gap in the depth sequence, or
 * a reconnected socket, refetches market/deal. Which pairs a screen lists (`listed`) and where it
 * remembers the chosen one (`pairKey`) are the screen's: spot pairs under `tradeinfo` by default.
 */
import { makeAutoObservable, runInAction } from 'mobx';

import { mergeQuotation } from '@/lib/fiat';
import { positive } from '@/lib/format';
import { SequenceTracker } from '@/lib/socket';

import { PRICE_DECIMALS, QUANTITY_DECIMALS } from '../decimals';
import type { MarketApi } from '../market-api';
import { isOpen, loadTradeInfo, type PairFilter, pickDefaultPair, saveTradeInfo, TRADE_STORAGE_KEYS } from '../saved-pair';
import type {
  CompletedTrade,
  DayMarketPush,
  Deal,
  DepthLevel,
  DepthPush,
  GlobalTxPush,
  Pair,
  Quotation,
  QuoteGroup,
} from '../types';

export const RECENT_TRADES_LIMIT = 30;
/** Spec §4: a market price fetch happens 5 seconds after a pair change. */
export const PAIR_CHANGE_REFETCH_MS = 5_000;

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface MarketOptions {
  /** The pairs the screen lists and may open (spot: open_change = 1). */
  listed?: PairFilter;
  /** Where the chosen pair is remembered (spec: `tradeinfo`). */
  pairKey?: string;
}

export class PairMarketStore {
  groups: QuoteGroup[] = [];
  status: LoadStatus = 'idle';
  /** The quote tab shown in the pair list. */
  quoteId: number | null = null;
  pairId: number | null = null;
  quotation: Quotation | null = null;
  bids: DepthLevel[] = [];
  asks: DepthLevel[] = [];
  trades: CompletedTrade[] = [];
  /** Direction of the last price move, for the header colour. */
  lastMove: 'up' | 'down' | null = null;
  /** Number of market/deal refetches caused by depth gaps (shown nowhere; handy in tests and tools). */
  gapRefetches = 0;

  readonly listed: PairFilter;
  private readonly pairKey: string;
  private readonly api: MarketApi;
  private readonly seq = new SequenceTracker();
  private dealRequest = 0;
  private dealInFlight: Promise<void> | null = null;
  private dealPairId: number | null = null;
  private pairTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(api: MarketApi, options: MarketOptions = {}) {
    this.api = api;
    this.listed = options.listed ?? isOpen;
    this.pairKey = options.pairKey ?? TRADE_STORAGE_KEYS.tradeInfo;
    makeAutoObservable<
      PairMarketStore,
      'api' | 'pairKey' | 'seq' | 'dealRequest' | 'dealInFlight' | 'dealPairId' | 'pairTimer'
    >(this, {
      listed: false,
      api: false,
      pairKey: false,
      seq: false,
      dealRequest: false,
      dealInFlight: false,
      dealPairId: false,
      pairTimer: false,
    });
  }

  // -- derived ------------------------------------------------------------------------------------

  get pairs(): Pair[] {
    return this.groups.flatMap((g) => g.matches);
  }

  get pair(): Pair | null {
    return this.pairs.find((p) => p.id === this.pairId) ?? null;
  }

  /** The quote currency group of the current pair (its live USD price prices the header's "≈ $"). */
  get pairGroup(): QuoteGroup | null {
    return this.groups.find((g) => g.matches.some((m) => m.id === this.pairId)) ?? null;
  }

  /** The quote tabs: groups with at least one listed pair. */
  get tabs(): QuoteGroup[] {
    return this.groups.filter((g) => g.matches.some(this.listed));
  }

  get quoteGroup(): QuoteGroup | null {
    return this.tabs.find((g) => g.id === this.quoteId) ?? this.tabs[0] ?? null;
  }

  /** The listed pairs of the shown quote tab. */
  get quotePairs(): Pair[] {
    return (this.quoteGroup?.matches ?? []).filter(this.listed);
  }

  get symbol(): string | null {
    return this.pair?.symbol ?? null;
  }

  get priceDecimals(): number {
    return this.pair?.price_decimals ?? PRICE_DECIMALS;
  }

  get quantityDecimals(): number {
    return this.pair?.qty_decimals ?? QUANTITY_DECIMALS;
  }

  /** Highest bid: what a market sell takes. */
  get bestBid(): string | null {
    const top = this.bids[0];
    return top && positive(top.price) ? top.price : null;
  }

  /** Lowest ask: what a market buy takes. */
  get bestAsk(): string | null {
    const top = this.asks[0];
    return top && positive(top.price) ? top.price : null;
  }

  get depthSeq(): number | null {
    return this.seq.current;
  }

  // -- loading ------------------------------------------------------------------------------------

  /** Load the pair list and open the default pair (spec §4). */
  async load(): Promise<void> {
    this.status = 'loading';
    try {
      const groups = await this.api.currencyMatches();
      runInAction(() => {
        this.groups = groups;
        this.status = 'ready';
      });
    } catch {
      runInAction(() => {
        this.status = 'error';
      });
      return;
    }
    const pair = pickDefaultPair(this.groups, loadTradeInfo(this.pairKey), this.listed);
    if (pair) this.selectPair(pair.id);
  }

  setQuote(id: number): void {
    this.quoteId = id;
  }

  /** Open a pair: remembered in the browser, its book and trades loaded, refetched 5 s later. */
  selectPair(id: number): void {
    const pair = this.pairs.find((p) => p.id === id);
    if (!pair || !this.listed(pair)) return;
    const changed = id !== this.pairId;
    this.pairId = id;
    this.quoteId = this.groups.find((g) => g.matches.some((m) => m.id === id))?.id ?? this.quoteId;
    saveTradeInfo(pair, this.pairKey);
    if (!changed && this.status === 'ready' && this.seq.current !== null) return;
    this.quotation = pair.currency_quotation ? { ...pair.currency_quotation } : null;
    this.bids = [];
    this.asks = [];
    this.trades = [];
    this.lastMove = null;
    this.seq.reset(null);
    void this.loadDeal();
    if (this.pairTimer) clearTimeout(this.pairTimer);
    this.pairTimer = setTimeout(() => {
      this.pairTimer = null;
      void this.loadDeal({ quiet: true });
    }, PAIR_CHANGE_REFETCH_MS);
  }

  /** market/deal for the current pair: quotation, full depth (with seq) and the last 30 trades. */
  loadDeal(options: { quiet?: boolean } = {}): Promise<void> {
    const pairId = this.pairId;
    if (pairId === null) return Promise.resolve();
    // One at a time per pair: a burst of gaps shares the call; another pair's answer is dropped.
    if (this.dealInFlight && this.dealPairId === pairId) return this.dealInFlight;
    const request = ++this.dealRequest;
    this.dealPairId = pairId;
    this.dealInFlight = this.api
      .deal(pairId, options)
      .then(
        (deal) => {
          if (deal && request === this.dealRequest && pairId === this.pairId) this.applyDeal(deal);
        },
        () => {
          /* the next push gap, reconnect or pair change tries again */
        },
      )
      .finally(() => {
        if (request === this.dealRequest) this.dealInFlight = null;
      });
    return this.dealInFlight;
  }

  /** The socket came back after a drop: pushes were missed, take a fresh snapshot. */
  onReconnected(): void {
    void this.loadDeal({ quiet: true });
  }

  dispose(): void {
    if (this.pairTimer) clearTimeout(this.pairTimer);
    this.pairTimer = null;
    this.dealRequest += 1; // late answers are dropped
    this.dealInFlight = null;
  }

  // -- pushes -------------------------------------------------------------------------------------

  /** DAY_MARKET: every pair's ticker in the list, and the header's when it is the current pair. */
  onDayMarket(message: DayMarketPush): void {
    const q = message.quotation;
    if (!q) return;
    for (const group of this.groups) {
      for (const m of group.matches) {
        if (m.id === message.currency_match_id) m.currency_quotation = mergeQuotation(m.currency_quotation, q);
      }
    }
    if (message.currency_match_id === this.pairId) this.setQuotation(q);
  }

  /** MARKET_DEPTH: a full snapshot numbered by seq; a skipped number refetches market/deal. */
  onDepth(message: DepthPush): void {
    if (message.symbol !== this.symbol || !message.depth) return;
    const verdict = this.seq.accept(Number(message.depth.seq));
    if (verdict === 'stale') return;
    this.bids = message.depth.in ?? [];
    this.asks = message.depth.out ?? [];
    if (verdict === 'gap') {
      this.gapRefetches += 1;
      void this.loadDeal({ quiet: true });
    }
  }

  /** GLOBAL_TX: new trades, newest first, capped at 30. */
  onTrades(message: GlobalTxPush): void {
    if (message.symbol !== this.symbol || !Array.isArray(message.completes)) return;
    this.addTrades(message.completes);
  }

  // -- internals ----------------------------------------------------------------------------------

  private applyDeal(deal: Deal): void {
    if (deal.quotation) this.setQuotation(deal.quotation);
    const depth = deal.depth;
    if (depth) {
      const current = this.seq.current;
      // A push newer than this snapshot may already be shown; keep it (both are full snapshots).
      if (current === null || Number(depth.seq) >= current || this.bids.length + this.asks.length === 0) {
        this.seq.reset(Number(depth.seq));
        this.bids = depth.in ?? [];
        this.asks = depth.out ?? [];
      }
    }
    if (Array.isArray(deal.tx_completes)) {
      this.trades = [];
      this.addTrades(deal.tx_completes);
    }
  }

  private addTrades(newestFirst: CompletedTrade[]): void {
    const known = new Set(this.trades.map((t) => t.id));
    const fresh = newestFirst.filter((t) => !known.has(t.id));
    if (fresh.length === 0) return;
    this.trades = [...fresh, ...this.trades]
      .sort((a, b) => b.time - a.time || b.id - a.id)
      .slice(0, RECENT_TRADES_LIMIT);
  }

  private setQuotation(q: Quotation): void {
    const before = positive(this.quotation?.close);
    const after = positive(q.close);
    if (before && after && !after.eq(before)) this.lastMove = after.gt(before) ? 'up' : 'down';
    this.quotation = mergeQuotation(this.quotation, q);
    const pair = this.pair;
    if (pair) pair.currency_quotation = mergeQuotation(pair.currency_quotation, q);
  }
}
