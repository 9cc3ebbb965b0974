/**
 * The order panel (spec "Spot trade page", §4): current-pair, all and history views, buy/sell
 * sub-tabs for the first two, 10 a page, cancel, and live rows from TX_SUBMIT / TX_MATCHED.
 * The client assigns no statuses: an update whose filled quantity reaches the order's quantity
 * (or that is final) leaves the open list; a new order goes on top of page 1 when its tab matches.
 */
import { makeAutoObservable, runInAction } from 'mobx';

import type { PairMarketStore } from '@/components/market/stores/pair-market-store';
import { toBig } from '@/lib/format';

import { ORDERS_PAGE_SIZE, type OrdersView, type SpotApi } from '../api/spot-api';
import { BUY, ORDER_STATUS, type SpotOrder, type Way } from '../types';

/** Debounce of the quiet reloads a push may cause (e.g. a filled row leaves a short page). */
export const ORDERS_RELOAD_DELAY_MS = 400;
/** Remembered ids of orders that left the open list, so a late answer cannot bring them back. */
const CLOSED_MEMORY = 200;

/** Filled quantity reached the quantity, or the server says it is filled or cancelled. */
export function isDone(order: Pick<SpotOrder, 'number' | 'transacted_amount' | 'status'>): boolean {
  if (order.status === ORDER_STATUS.filled || order.status === ORDER_STATUS.cancelled) return true;
  const number = toBig(order.number);
  const done = toBig(order.transacted_amount);
  return Boolean(number && done && number.gt(0) && done.gte(number));
}

export class OrdersStore {
  view: OrdersView = 'current';
  way: Way = BUY;
  page = 1;
  rows: SpotOrder[] = [];
  total = 0;
  loading = false;
  /** Ids with a cancel in flight (their button is disabled). */
  cancelling: number[] = [];

  private readonly api: SpotApi;
  private readonly market: PairMarketStore;
  private readonly onChanged: () => void;
  private enabled = false;
  private request = 0;
  private reloadTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly closedIds: number[] = [];

  /** `onChanged` runs after anything that moves the user's balances (cancel, fills). */
  constructor(api: SpotApi, market: PairMarketStore, onChanged: () => void = () => {}) {
    this.api = api;
    this.market = market;
    this.onChanged = onChanged;
    makeAutoObservable<OrdersStore, 'api' | 'market' | 'onChanged' | 'request' | 'reloadTimer' | 'closedIds'>(
      this,
      { api: false, market: false, onChanged: false, request: false, reloadTimer: false, closedIds: false },
    );
  }

  get lastPage(): number {
    return Math.max(1, Math.ceil(this.total / ORDERS_PAGE_SIZE));
  }

  get isHistory(): boolean {
    return this.view === 'history';
  }

  /** Logged in: load; logged out: forget the rows. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    if (enabled) void this.load();
    else this.clear();
  }

  setView(view: OrdersView): void {
    if (view === this.view) return;
    this.view = view;
    this.page = 1;
    this.rows = [];
    void this.load();
  }

  setWay(way: Way): void {
    if (way === this.way) return;
    this.way = way;
    this.page = 1;
    this.rows = [];
    void this.load();
  }

  setPage(page: number): void {
    const next = Math.min(Math.max(1, Math.trunc(page)), this.lastPage);
    if (next === this.page) return;
    this.page = next;
    void this.load();
  }

  /** The current pair changed: the current-pair view shows another list. */
  onPairChanged(): void {
    if (this.view !== 'current') return;
    this.page = 1;
    this.rows = [];
    void this.load();
  }

  async load(options: { quiet?: boolean } = {}): Promise<void> {
    if (!this.enabled) return;
    const pairId = this.market.pairId;
    if (this.view === 'current' && pairId === null) return;
    const request = ++this.request;
    this.loading = !options.quiet;
    try {
      const page = await this.api.orders(
        { view: this.view, way: this.way, page: this.page, pairId },
        { quiet: options.quiet },
      );
      if (request !== this.request) return;
      runInAction(() => {
        this.rows = page.data.slice(0, ORDERS_PAGE_SIZE);
        this.total = Number(page.total) || 0;
        if (this.page > this.lastPage) {
          this.page = this.lastPage;
          void this.load(options);
        }
      });
    } catch {
      /* shown by the request layer; the rows stay as they were */
    } finally {
      if (request === this.request) runInAction(() => (this.loading = false));
    }
  }

  async cancel(order: SpotOrder): Promise<void> {
    if (this.cancelling.includes(order.id)) return;
    this.cancelling.push(order.id);
    try {
      await this.api.cancelOrder(order.way, order.id);
      runInAction(() => this.removeRow(order.id));
      this.onChanged();
    } catch {
      /* the request layer shows why; the row stays */
    } finally {
      runInAction(() => {
        this.cancelling = this.cancelling.filter((id) => id !== order.id);
      });
    }
  }

  /** TX_SUBMIT (or the answer to our own order): a new open order. */
  onSubmitted(order: SpotOrder): void {
    if (!this.enabled || this.closedIds.includes(order.id)) return;
    const existing = this.rows.findIndex((r) => r.id === order.id);
    if (existing >= 0) {
      this.onMatched(order);
      return;
    }
    if (this.isHistory) {
      if (isDone(order)) this.scheduleReload();
      return;
    }
    if (isDone(order)) {
      this.remember(order.id);
      return;
    }
    if (!this.belongsHere(order)) return;
    this.total += 1;
    if (this.page !== 1) return;
    const now = new Date().toISOString();
    this.rows = [{ created_at: now, updated_at: now, ...order }, ...this.rows].slice(0, ORDERS_PAGE_SIZE);
  }

  /** TX_MATCHED: fills update the row; a done order leaves the open list. */
  onMatched(order: SpotOrder): void {
    if (!this.enabled) return;
    const done = isDone(order);
    if (done) this.remember(order.id);
    if (this.isHistory) {
      if (done) this.scheduleReload();
      return;
    }
    const index = this.rows.findIndex((r) => r.id === order.id);
    if (index < 0) {
      // Done on another page of this list: the count and the pages behind it changed.
      if (done && this.belongsHere(order)) this.scheduleReload();
      return;
    }
    if (done) {
      this.removeRow(order.id);
      return;
    }
    const row = this.rows[index]!;
    this.rows[index] = {
      ...row,
      transacted_amount: order.transacted_amount,
      transacted_volume: order.transacted_volume,
      status: order.status,
      updated_at: new Date().toISOString(),
    };
  }

  clear(): void {
    this.request += 1;
    this.rows = [];
    this.total = 0;
    this.page = 1;
    this.loading = false;
  }

  dispose(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = null;
    this.request += 1;
  }

  // -- internals ----------------------------------------------------------------------------------

  private removeRow(id: number): void {
    this.remember(id);
    const before = this.rows.length;
    this.rows = this.rows.filter((r) => r.id !== id);
    if (this.rows.length === before) return;
    this.total = Math.max(0, this.total - 1);
    // Later pages slide up into the gap.
    if (this.total > (this.page - 1) * ORDERS_PAGE_SIZE + this.rows.length) this.scheduleReload();
    else if (this.rows.length === 0 && this.page > 1) this.setPage(this.page - 1);
  }

  /** The open-list tab this order is listed under is the one shown. */
  private belongsHere(order: SpotOrder): boolean {
    if (this.isHistory || order.way !== this.way) return false;
    return this.view !== 'current' || order.currency_match_id === this.market.pairId;
  }

  private remember(id: number): void {
    if (this.closedIds.includes(id)) return;
    this.closedIds.push(id);
    if (this.closedIds.length > CLOSED_MEMORY) this.closedIds.shift();
  }

  private scheduleReload(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = null;
      void this.load({ quiet: true });
    }, ORDERS_RELOAD_DELAY_MS);
  }
}
