/** The stores of the listing screens: the projects, one project with the application form, the user's records. */
import { makeAutoObservable } from 'mobx';

import { sanitizeDecimal, toBig } from '@/lib/format';

import { Loadable } from '@/lib/loadable';
import { sendAmount } from '../../common/send-amount';
import type { ListingApi } from '../api/listing-api';
import { type ApplyProblem, checkApplication } from '../lib/rules';
import type { ListingIndex, ListingOrders, ListingProject } from '../types';

/** USDT amounts keep 6 places. */
export const USDT_DECIMALS = 6;

/** /listing: the projects and the user's application count. */
export class ListingListStore {
  readonly index: Loadable<ListingIndex>;

  constructor(api: ListingApi) {
    this.index = new Loadable(() => api.index());
  }

  start(): void {
    void this.index.load();
  }
}

/** /listing/info?id: the project, the user's USDT, and the application form. */
export class ListingInfoStore {
  readonly project: Loadable<ListingProject>;
  amount = '';
  problem: ApplyProblem | null = null;
  busy = false;

  constructor(
    private readonly api: ListingApi,
    readonly id: number,
  ) {
    this.project = new Loadable(() => api.info(id));
    makeAutoObservable<ListingInfoStore, 'api'>(this, { api: false, project: false, id: false });
  }

  start(): void {
    void this.project.load();
  }

  get balance(): string {
    return toBig(this.project.data?.money)?.toFixed() ?? '0';
  }

  setAmount(text: string): void {
    this.amount = sanitizeDecimal(text, USDT_DECIMALS);
    this.problem = null;
  }

  /** All: the savings account's whole USDT balance. */
  fillAll(): void {
    this.setAmount(this.balance);
  }

  /** Applies; true when the server took it (the project and balance are read again). */
  async submit(): Promise<boolean> {
    if (!this.project.data || this.busy) return false;
    const check = checkApplication(this.amount, this.balance);
    if (!check.ok) {
      this.problem = check.problem;
      return false;
    }
    return sendAmount(
      this,
      () => this.api.buy({ id: this.id, nums: check.nums }),
      () => this.project.load(),
    );
  }
}

/** /listing/order: the user's applications, 10 a page. */
export class ListingOrdersStore {
  page = 1;
  readonly orders: Loadable<ListingOrders>;

  constructor(api: ListingApi) {
    this.orders = new Loadable(() => api.orders(this.page));
    makeAutoObservable(this, { orders: false });
  }

  start(): void {
    void this.orders.load();
  }

  setPage(page: number): void {
    if (page === this.page || page < 1) return;
    this.page = page;
    void this.orders.load();
  }
}
