/**
 * /legalIndex/orders (orders the user took) and /myshop/shoporders (orders on the user's ads): a
 * state tab, a page, and the list read again when a LEGAL_ORDER push says one of them moved.
 */
import { makeAutoObservable } from 'mobx';

import type { P2pApi } from '../api/p2p-api';
import type { OrderSummary, P2pPage, StateFilter } from '../types';
import { Loadable } from '@/lib/loadable';

export type OrdersScope = 'taker' | 'shop';

export class OrdersStore {
  state: StateFilter = 0;
  page = 1;
  readonly orders: Loadable<P2pPage<OrderSummary>>;

  constructor(
    api: P2pApi,
    readonly scope: OrdersScope,
  ) {
    const read = scope === 'shop' ? api.shopOrders : api.orders;
    this.orders = new Loadable(() => read(this.state, this.page));
    makeAutoObservable(this, { orders: false, scope: false });
  }

  start(): void {
    void this.orders.load();
  }

  setState(state: StateFilter): void {
    if (state === this.state) return;
    this.state = state;
    this.page = 1;
    void this.orders.reset();
  }

  setPage(page: number): void {
    if (page === this.page || page < 1) return;
    this.page = page;
    void this.orders.load();
  }

  /** An order of the user changed (LEGAL_ORDER): the page may be stale. */
  refresh(): void {
    void this.orders.load();
  }

  /** The socket came back: pushes may have been missed. */
  onReconnected(): void {
    this.refresh();
  }

  dispose(): void {
    /* nothing runs between reads */
  }
}
