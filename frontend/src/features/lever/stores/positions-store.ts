/**
 * The bottom of the lever screen (spec "Leveraged-contract screen", §4): tabs for the current pair's
 * open positions (status 5), all open (1), all entrustments (0) and all closed (3), 10 a page; the
 * account's risk rate (hazard_rate) and total profit (profits_all); close, cancel, take-profit and
 * stop-loss, and the one-click close (all / long / short).
 *
 * Rows change live: LEVER_TRADE replaces or adds a row, LEVER_CLOSED removes it from the open lists
 * and adds it to the closed one; MARK pushes revalue open rows (current price and profit) at once.
 * The client assigns no states: a row goes where the server's status puts it. Risk rate and profit
 * come from lever/dealall, refreshed after every change and every few seconds (the risk rate moves
 * with every pair's mark); the total profit follows the marks live while the pair's open positions
 * are all known.
 */
import { makeAutoObservable, observable, runInAction } from 'mobx';

import type { PairMarketStore } from '@/components/market/stores/pair-market-store';
import { isApiError } from '@/lib/api-client';

import { type CloseSide, type LeverApi, POSITIONS_PAGE_SIZE, type TradeStatus } from '../api/lever-api';
import { isLive, sum, unrealisedProfit } from '../lib/money';
import { type Position, STATUS } from '../types';

export type PositionsTab = 'current' | 'open' | 'entrusted' | 'closed';

export const POSITIONS_TABS: readonly PositionsTab[] = ['current', 'open', 'entrusted', 'closed'];

/** lever/my_trade's status of each tab (spec §2: 5, 1, 0, 3). */
export const TAB_STATUS: Record<PositionsTab, TradeStatus> = { current: 5, open: 1, entrusted: 0, closed: 3 };

/** Risk rate and profit are refetched this often, and this long after a change (debounced). */
export const SUMMARY_REFRESH_MS = 5_000;
export const SUMMARY_DELAY_MS = 300;
/** Positions whose last pushed state is remembered, so a late list answer cannot undo a push. */
const SEEN_MEMORY = 500;

/** Whether `p` is listed under `tab` when the screen shows pair `pairId`. */
export function belongs(tab: PositionsTab, p: Pick<Position, 'status' | 'currency_match_id'>, pairId: number | null): boolean {
  switch (tab) {
    case 'current':
      return isLive(p) && p.currency_match_id === pairId;
    case 'open':
      return isLive(p);
    case 'entrusted':
      return p.status === STATUS.entrusted;
    case 'closed':
      return p.status === STATUS.closed;
  }
}

export class PositionsStore {
  tab: PositionsTab = 'current';
  page = 1;
  rows: Position[] = [];
  total = 0;
  loading = false;
  /** Account risk rate in percent (null: no open position). */
  hazardRate: string | null = null;
  /** The server's unrealised profit of the pair's open positions. */
  profitsAll: string | null = null;
  /** Every open position of the current pair, while they fit in one answer (else null). */
  pairOpen: Position[] | null = null;
  /** pair id → its latest mark. */
  readonly marks = observable.map<number, string>();
  /** Ids with a close or cancel in flight (their buttons are disabled). */
  busy: number[] = [];

  private readonly api: LeverApi;
  private readonly market: PairMarketStore;
  private readonly onChanged: () => void;
  private request = 0;
  private summaryRequest = 0;
  private summaryTimer: ReturnType<typeof setTimeout> | null = null;
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private readonly seen = new Map<number, Position>();

  /** `onChanged` runs after anything that moves the lever balance (a close, cancel or push). */
  constructor(api: LeverApi, market: PairMarketStore, onChanged: () => void = () => {}) {
    this.api = api;
    this.market = market;
    this.onChanged = onChanged;
    makeAutoObservable<
      PositionsStore,
      'api' | 'market' | 'onChanged' | 'request' | 'summaryRequest' | 'summaryTimer' | 'pollTimer' | 'seen'
    >(this, {
      marks: false,
      api: false,
      market: false,
      onChanged: false,
      request: false,
      summaryRequest: false,
      summaryTimer: false,
      pollTimer: false,
      seen: false,
    });
  }

  // -- derived ------------------------------------------------------------------------------------

  get lastPage(): number {
    return Math.max(1, Math.ceil(this.total / POSITIONS_PAGE_SIZE));
  }

  /** The mark an open row is valued at (the pushed one when there is one). */
  livePrice(p: Position): string {
    return (isLive(p) && this.marks.get(p.currency_match_id)) || p.update_price;
  }

  /** Unrealised profit at the live mark for open rows; the server's figure otherwise. */
  liveProfit(p: Position): string {
    const mark = isLive(p) ? this.marks.get(p.currency_match_id) : undefined;
    return (mark && unrealisedProfit(p, mark)) || p.profits;
  }

  /** profits_all: live from the marks while every open position of the pair is known. */
  get totalProfit(): string | null {
    if (this.pairOpen) return sum(this.pairOpen.map((p) => this.liveProfit(p)));
    return this.profitsAll;
  }

  // -- navigation ---------------------------------------------------------------------------------

  setTab(tab: PositionsTab): void {
    if (tab === this.tab) return;
    this.tab = tab;
    this.page = 1;
    this.rows = [];
    this.total = 0;
    void this.load();
  }

  setPage(page: number): void {
    const next = Math.min(Math.max(1, page), this.lastPage);
    if (next === this.page) return;
    this.page = next;
    void this.load();
  }

  // -- loading ------------------------------------------------------------------------------------

  /** Start: the shown tab, the summary, and its periodic refresh. */
  start(): void {
    this.stop();
    this.pollTimer = setInterval(() => void this.loadSummary(), SUMMARY_REFRESH_MS);
  }

  stop(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  /** The shown tab's page (the current-pair tab through lever/dealall, which brings the summary too). */
  async load(options: { quiet?: boolean } = {}): Promise<void> {
    const pairId = this.market.pairId;
    const tab = this.tab;
    if (tab === 'current' && pairId === null) return;
    const request = ++this.request;
    this.loading = true;
    try {
      if (tab === 'current') {
        const answer = await this.api.dealAll(pairId!, this.page, options);
        if (request !== this.request || !answer) return;
        runInAction(() => {
          this.applySummary(answer.hazard_rate, answer.profits_all, this.page === 1 ? answer.order : null);
          this.applyPage(answer.order.data, answer.order.total);
        });
      } else {
        const answer = await this.api.myTrade(TAB_STATUS[tab], this.page, pairId ?? 0, options);
        if (request !== this.request) return;
        runInAction(() => this.applyPage(answer.data, answer.total));
      }
    } catch {
      /* shown by the request layer (or quiet); the next change or reconnect loads again */
    } finally {
      if (request === this.request) runInAction(() => (this.loading = false));
    }
  }

  /** Risk rate and the pair's profit (lever/dealall, page 1), quietly. */
  async loadSummary(): Promise<void> {
    const pairId = this.market.pairId;
    if (pairId === null) return;
    const request = ++this.summaryRequest;
    try {
      const answer = await this.api.dealAll(pairId, 1, { quiet: true });
      if (!answer || request !== this.summaryRequest || pairId !== this.market.pairId) return;
      runInAction(() => this.applySummary(answer.hazard_rate, answer.profits_all, answer.order));
    } catch {
      /* the next refresh tries again */
    }
  }

  onPairChanged(): void {
    this.pairOpen = null;
    this.profitsAll = null;
    if (this.tab === 'current') {
      this.page = 1;
      this.rows = [];
      this.total = 0;
      void this.load();
    } else {
      void this.loadSummary();
    }
  }

  /** The socket came back: pushes may have been missed. */
  onReconnected(): void {
    void this.load({ quiet: true });
    if (this.tab !== 'current') void this.loadSummary();
  }

  // -- pushes -------------------------------------------------------------------------------------

  onMark(pairId: number, price: string): void {
    this.marks.set(pairId, price);
  }

  /** LEVER_TRADE: a position or entrustment opened or changed. */
  onTrade(position: Position): void {
    this.apply(position);
  }

  /** LEVER_CLOSED: closed or cancelled (with its reason). */
  onClosed(position: Position): void {
    this.apply(position);
  }

  // -- actions ------------------------------------------------------------------------------------

  /** Close an open position at the market (the server answers it closed). */
  close(p: Position): Promise<void> {
    return this.act(p, () => this.api.close(p.id));
  }

  /** Cancel an entrustment (its frozen margin and fee come back). */
  cancel(p: Position): Promise<void> {
    return this.act(p, () => this.api.cancel(p.id));
  }

  /**
   * Set (or, empty, clear) take-profit and stop-loss. Resolves null when saved, else the server's
   * message (e.g. a take-profit on the wrong side of the mark) for the dialog to show.
   */
  async setStop(p: Position, takeProfit: string, stopLoss: string): Promise<string | null> {
    try {
      const saved = await this.api.setStop(p.id, takeProfit.trim(), stopLoss.trim());
      if (saved) this.apply(saved);
      return null;
    } catch (error) {
      return isApiError(error) ? error.message : String(error);
    }
  }

  /** One-click close: every open position of `side` (0 both) on this pair, or on every pair. */
  async batchClose(side: CloseSide, everyPair: boolean): Promise<boolean> {
    const pairId = everyPair ? 0 : (this.market.pairId ?? 0);
    try {
      const answer = await this.api.batchClose(side, pairId);
      for (const p of answer?.data ?? []) this.apply(p);
      return true;
    } catch {
      return false; // the request layer shows why
    }
  }

  dispose(): void {
    this.stop();
    if (this.summaryTimer) clearTimeout(this.summaryTimer);
    this.summaryTimer = null;
    this.request += 1;
    this.summaryRequest += 1;
  }

  // -- internals ----------------------------------------------------------------------------------

  private async act(p: Position, call: () => Promise<Position | undefined>): Promise<void> {
    if (this.busy.includes(p.id)) return;
    this.busy.push(p.id);
    try {
      const answer = await call();
      if (answer) this.apply(answer);
    } catch {
      /* the request layer shows why; the row stays */
    } finally {
      runInAction(() => (this.busy = this.busy.filter((id) => id !== p.id)));
    }
  }

  /** A position's new state (push or answer): every list follows where its status puts it. */
  private apply(position: Position): void {
    const known = this.seen.get(position.id);
    if (known && known.status > position.status) return; // an older state arriving late
    this.remember(position);
    const pairId = this.market.pairId;

    const index = this.rows.findIndex((r) => r.id === position.id);
    if (belongs(this.tab, position, pairId)) {
      if (index >= 0) this.rows[index] = position;
      else if (this.page === 1) {
        this.rows.unshift(position);
        this.total += 1;
        if (this.rows.length > POSITIONS_PAGE_SIZE) this.rows.pop();
      } else this.total += 1;
    } else if (index >= 0) {
      this.rows.splice(index, 1);
      this.total = Math.max(0, this.total - 1);
      if (this.total > this.rows.length + (this.page - 1) * POSITIONS_PAGE_SIZE) void this.load({ quiet: true });
    }

    if (this.pairOpen) {
      const others = this.pairOpen.filter((r) => r.id !== position.id);
      this.pairOpen = belongs('current', position, pairId) ? [position, ...others] : others;
    }
    this.scheduleSummary();
    this.onChanged();
  }

  private applyPage(data: Position[], total: number): void {
    // A push newer than this answer wins; a row it moved elsewhere leaves.
    const pairId = this.market.pairId;
    const rows = data.map((r) => {
      const pushed = this.seen.get(r.id);
      return pushed && pushed.status >= r.status ? pushed : r;
    });
    const shown = rows.filter((r) => belongs(this.tab, r, pairId));
    this.rows = shown;
    this.total = Math.max(0, total - (rows.length - shown.length));
  }

  private applySummary(hazard: string | null, profits: string | null, firstPage: { data: Position[]; total: number } | null): void {
    this.hazardRate = hazard;
    this.profitsAll = profits;
    if (firstPage) this.pairOpen = firstPage.total <= firstPage.data.length ? [...firstPage.data] : null;
  }

  private scheduleSummary(): void {
    if (this.summaryTimer) clearTimeout(this.summaryTimer);
    this.summaryTimer = setTimeout(() => {
      this.summaryTimer = null;
      void this.loadSummary();
    }, SUMMARY_DELAY_MS);
  }

  private remember(position: Position): void {
    this.seen.delete(position.id);
    this.seen.set(position.id, position);
    if (this.seen.size > SEEN_MEMORY) this.seen.delete(this.seen.keys().next().value!);
  }
}
