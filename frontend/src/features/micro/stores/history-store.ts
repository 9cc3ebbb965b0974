/**
 * The history of the second-contract screen (spec §2, §4): tabs "in progress" (status 1) and
 * "closed" (status 3), 10 a page, every pair or only the shown one.
 *
 * An open row counts down each second, locally, from the `remain_milli_seconds` it was answered
 * with (the server's clock decides; this one only displays it). The MICRO_CLOSED push closes it: the
 * row shows its outcome for a moment, then leaves for the closed tab. The list is read again every
 * few seconds while a row waits for its entry tick (its open price and end come with it), and when
 * a countdown has reached 0 and no push came within a few seconds (a dropped socket).
 */
import { makeAutoObservable, observable, runInAction } from 'mobx';

import { createTicker, secondsUntil, type Ticker } from '@/lib/countdown';
import { pageCount } from '@/lib/paging';

import { type ListStatus, MICRO_PAGE_SIZE, type MicroApi } from '../api/micro-api';
import { type MicroOrder, STATUS } from '../types';

export type HistoryTab = 'open' | 'closed';

export const HISTORY_TABS: readonly HistoryTab[] = ['open', 'closed'];

/** microtrade/lists' status of each tab. */
export const TAB_STATUS: Record<HistoryTab, ListStatus> = { open: STATUS.open, closed: STATUS.closed };

/** A row closed by a push stays in "in progress" this long, showing its outcome (spec §4: "removed shortly after"). */
export const CLOSED_ROW_LINGER_MS = 2_000;
/** Past a countdown's end, a push is waited for this long before the list is read again (and no more often than this). */
export const PUSH_GRACE_MS = 3_000;
/** Orders whose last pushed state is remembered, so a late list answer cannot reopen a closed one. */
const SEEN_MEMORY = 500;

export class HistoryStore {
  tab: HistoryTab = 'open';
  page = 1;
  rows: MicroOrder[] = [];
  total = 0;
  loading = false;
  /** Only the shown pair's orders (else every pair's). */
  pairOnly = false;
  /** The local clock the countdowns read (ms), moved once a second while a row counts down. */
  now: number;
  /** id → local time (ms) its countdown ends at. */
  readonly deadlines = observable.map<number, number>();

  private readonly api: MicroApi;
  private readonly pairId: () => number | null;
  private readonly clock: () => number;
  private readonly ticker: Ticker;
  private request = 0;
  /** Local time of the last read caused by a row waiting for its entry tick or its push. */
  private staleReadAt = 0;
  private readonly seen = new Map<number, MicroOrder>();
  private readonly lingering = new Map<number, ReturnType<typeof setTimeout>>();

  /** `pairId` reads the shown pair; `clock` is the local time (tests pass a fake one). */
  constructor(api: MicroApi, pairId: () => number | null, clock: () => number = Date.now) {
    this.api = api;
    this.pairId = pairId;
    this.clock = clock;
    this.now = clock();
    this.ticker = createTicker(() => this.tick());
    makeAutoObservable<
      HistoryStore,
      'api' | 'pairId' | 'clock' | 'ticker' | 'request' | 'staleReadAt' | 'seen' | 'lingering'
    >(this, {
      deadlines: false,
      api: false,
      pairId: false,
      clock: false,
      ticker: false,
      request: false,
      staleReadAt: false,
      seen: false,
      lingering: false,
    });
  }

  // -- derived ------------------------------------------------------------------------------------

  get lastPage(): number {
    return pageCount(this.total, MICRO_PAGE_SIZE);
  }

  /** Seconds left of an open row (0 once its end has passed, or for a closed one). */
  secondsLeft(order: MicroOrder): number {
    if (order.status !== STATUS.open) return 0;
    const deadline = this.deadlines.get(order.id);
    return deadline === undefined ? Math.ceil(order.remain_milli_seconds / 1000) : secondsUntil(deadline, this.now);
  }

  // -- navigation ---------------------------------------------------------------------------------

  setTab(tab: HistoryTab): void {
    if (tab === this.tab) return;
    this.tab = tab;
    this.reload();
  }

  setPage(page: number): void {
    const next = Math.min(Math.max(1, page), this.lastPage);
    if (next === this.page) return;
    this.page = next;
    void this.load();
  }

  setPairOnly(on: boolean): void {
    if (on === this.pairOnly) return;
    this.pairOnly = on;
    this.reload();
  }

  // -- loading ------------------------------------------------------------------------------------

  /** The shown tab's page. */
  async load(options: { quiet?: boolean } = {}): Promise<void> {
    const tab = this.tab;
    const pairId = this.pairOnly ? this.pairId() : null;
    if (this.pairOnly && pairId === null) return;
    const request = ++this.request;
    this.loading = true;
    try {
      const answer = await this.api.lists(TAB_STATUS[tab], this.page, pairId, options);
      if (request !== this.request) return;
      runInAction(() => this.applyPage(answer.data, answer.total));
    } catch {
      /* shown by the request layer (or quiet); the next change, push or reconnect loads again */
    } finally {
      if (request === this.request) runInAction(() => (this.loading = false));
    }
  }

  onPairChanged(): void {
    if (this.pairOnly) this.reload();
  }

  /** The socket came back: pushes may have been missed. */
  onReconnected(): void {
    void this.load({ quiet: true });
  }

  // -- changes ------------------------------------------------------------------------------------

  /** The order the server just took: at the top of "in progress". */
  onPlaced(order: MicroOrder): void {
    this.remember(order);
    if (this.tab !== 'open' || !this.shows(order)) return;
    this.setDeadline(order);
    if (this.rows.some((r) => r.id === order.id)) return;
    this.total += 1;
    if (this.page !== 1) return;
    this.rows.unshift(order);
    if (this.rows.length > MICRO_PAGE_SIZE) this.rows.pop();
    this.syncTicker();
  }

  /** MICRO_CLOSED: the order settled. */
  onClosed(order: MicroOrder): void {
    if (order.status !== STATUS.closed) return;
    this.remember(order);
    const index = this.rows.findIndex((r) => r.id === order.id);
    if (this.tab === 'open') {
      if (index < 0) return;
      this.rows[index] = order; // shows its outcome, then leaves
      this.linger(order.id);
    } else if (this.shows(order)) {
      if (index >= 0) this.rows[index] = order;
      else {
        this.total += 1;
        if (this.page === 1) {
          this.rows.unshift(order);
          if (this.rows.length > MICRO_PAGE_SIZE) this.rows.pop();
        }
      }
    }
    this.syncTicker();
  }

  /** Start the countdowns (and the first load). */
  start(): void {
    void this.load();
  }

  dispose(): void {
    this.ticker.stop();
    for (const timer of this.lingering.values()) clearTimeout(timer);
    this.lingering.clear();
    this.request += 1; // late answers are dropped
  }

  // -- internals ----------------------------------------------------------------------------------

  /** Another list (tab or pair): from its first page, empty until it is read. */
  private reload(): void {
    this.page = 1;
    this.rows = [];
    this.total = 0;
    void this.load();
  }

  private shows(order: MicroOrder): boolean {
    return !this.pairOnly || order.match_id === this.pairId();
  }

  /** The row's countdown ends `remain_milli_seconds` from now (and the clock shown is now). */
  private setDeadline(order: MicroOrder): void {
    if (order.status !== STATUS.open) return;
    this.now = this.clock();
    this.deadlines.set(order.id, this.now + Math.max(0, order.remain_milli_seconds));
  }

  private applyPage(data: MicroOrder[], total: number): void {
    // A push newer than this answer wins: an order it closed is not shown open again.
    const status = TAB_STATUS[this.tab];
    const rows = data.map((r) => {
      const pushed = this.seen.get(r.id);
      return pushed && pushed.status > r.status ? pushed : r;
    });
    const shown = rows.filter((r) => r.status === status);
    this.deadlines.clear();
    for (const r of shown) this.setDeadline(r);
    this.rows = shown;
    this.total = Math.max(0, total - (rows.length - shown.length));
    this.syncTicker();
  }

  /** A closed row leaves "in progress" after a moment; the page is refilled from the server. */
  private linger(id: number): void {
    if (this.lingering.has(id)) return;
    this.lingering.set(
      id,
      setTimeout(() => {
        runInAction(() => {
          this.lingering.delete(id);
          const index = this.rows.findIndex((r) => r.id === id && r.status === STATUS.closed);
          if (this.tab !== 'open' || index < 0) return;
          this.rows.splice(index, 1);
          this.deadlines.delete(id);
          this.total = Math.max(0, this.total - 1);
          if (this.total > this.rows.length + (this.page - 1) * MICRO_PAGE_SIZE) void this.load({ quiet: true });
          this.syncTicker();
        });
      }, CLOSED_ROW_LINGER_MS),
    );
  }

  /** The clock runs while a shown row counts down. */
  private syncTicker(): void {
    if (this.tab === 'open' && this.rows.some((r) => r.status === STATUS.open)) this.ticker.start();
    else this.ticker.stop();
  }

  private tick(): void {
    this.now = this.clock();
    const stale = this.rows.some((r) => {
      if (r.status !== STATUS.open) return false;
      // Still waiting for its entry tick (its end is not known yet), or ended with no push.
      const deadline = this.deadlines.get(r.id);
      return r.open_price === null || (deadline !== undefined && this.now >= deadline + PUSH_GRACE_MS);
    });
    // Read the list again, not more often than the grace.
    if (stale && this.now - this.staleReadAt >= PUSH_GRACE_MS) {
      this.staleReadAt = this.now;
      void this.load({ quiet: true });
    }
  }

  private remember(order: MicroOrder): void {
    this.seen.delete(order.id);
    this.seen.set(order.id, order);
    if (this.seen.size > SEEN_MEMORY) this.seen.delete(this.seen.keys().next().value!);
  }
}
