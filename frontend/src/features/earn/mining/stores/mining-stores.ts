/**
 * The stores of the mining screens: the product list with the user's summary, one product's detail
 * with the subscription form, and the user's orders with cancellation.
 */
import { makeAutoObservable, runInAction } from 'mobx';

import { sanitizeDecimal } from '@/lib/format';

import { Loadable } from '@/lib/loadable';
import { sendAmount } from '../../common/send-amount';
import { AMOUNT_DECIMALS } from '../../common/money';
import type { MiningApi, OrdersTab } from '../api/mining-api';
import { type AmountProblem, balanceOf, cancelPenalty, checkMiningAmount, remainingDays } from '../lib/rules';
import type { MiningAsset, MiningDetail, MiningIndex, MiningOrder, MiningOrders } from '../types';

/** /mining/list: the products and the user's totals. */
export class MiningListStore {
  readonly index: Loadable<MiningIndex>;

  constructor(api: MiningApi) {
    this.index = new Loadable(() => api.index());
  }

  start(): void {
    void this.index.load();
  }
}

/** /mining/info?id: the product, the financial balances, and the subscription form. */
export class MiningInfoStore {
  readonly detail: Loadable<MiningDetail>;
  type: MiningAsset = 1;
  amount = '';
  problem: AmountProblem | null = null;
  busy = false;

  constructor(
    private readonly api: MiningApi,
    readonly id: number,
  ) {
    this.detail = new Loadable(() => api.info(id));
    makeAutoObservable<MiningInfoStore, 'api'>(this, { api: false, detail: false, id: false });
  }

  start(): void {
    void this.detail.load();
  }

  /** The selected asset's balance. */
  get balance(): string {
    return balanceOf(this.detail.data, this.type);
  }

  setType(type: MiningAsset): void {
    this.type = type;
    this.problem = null;
  }

  setAmount(text: string): void {
    this.amount = sanitizeDecimal(text, AMOUNT_DECIMALS);
    this.problem = null;
  }

  /** All: the whole balance of the selected asset. */
  fillAll(): void {
    this.setAmount(this.balance);
  }

  /** Subscribes after the spec's checks; true when the server took the order (balances read again). */
  async submit(): Promise<boolean> {
    const detail = this.detail.data;
    if (!detail || this.busy) return false;
    const check = checkMiningAmount(this.amount, detail, this.balance);
    if (!check.ok) {
      this.problem = check.problem;
      return false;
    }
    return sendAmount(
      this,
      () => this.api.buy({ id: this.id, nums: check.nums, type: this.type }),
      () => this.detail.load(),
    );
  }
}

/** /mining/order: in progress (0) or ended (1), 6 a page, and the cancellation of an active order. */
export class MiningOrdersStore {
  tab: OrdersTab = 0;
  page = 1;
  readonly orders: Loadable<MiningOrders>;
  /** The products, for the penalty ratio of an order that does not carry its own. */
  readonly products: Loadable<MiningIndex>;
  cancelling: MiningOrder | null = null;
  busy = false;

  constructor(private readonly api: MiningApi) {
    this.orders = new Loadable(() => api.orders(this.tab, this.page));
    this.products = new Loadable(() => api.index());
    makeAutoObservable<MiningOrdersStore, 'api'>(this, { api: false, orders: false, products: false });
  }

  start(): void {
    void this.orders.load();
    void this.products.load();
  }

  get pages(): number {
    return Math.max(1, Number(this.orders.data?.page) || 1);
  }

  setTab(tab: OrdersTab): void {
    if (tab === this.tab) return;
    this.tab = tab;
    this.page = 1;
    void this.orders.reset();
  }

  setPage(page: number): void {
    const next = Math.min(Math.max(1, page), this.pages);
    if (next === this.page) return;
    this.page = next;
    void this.orders.load();
  }

  /** The penalty ratio of an order: its own copy, else its product's. */
  penaltyRate(order: MiningOrder): string | null {
    if (order.penalty_rate !== undefined && order.penalty_rate !== null) return String(order.penalty_rate);
    const product = this.products.data?.list.find((p) => p.id === order.product_id);
    return product ? String(product.penalty_rate) : null;
  }

  /** What cancelling `order` now costs (the server's figure decides). */
  penaltyOf(order: MiningOrder): string | null {
    return cancelPenalty(this.penaltyRate(order), remainingDays(order.zhouqi, order.days), order.nums);
  }

  ask(order: MiningOrder): void {
    this.cancelling = order;
  }

  dismiss(): void {
    if (!this.busy) this.cancelling = null;
  }

  /** Cancels the order being confirmed; true when done (the list is read again). */
  async confirm(): Promise<boolean> {
    const order = this.cancelling;
    if (!order || this.busy) return false;
    this.busy = true;
    try {
      await this.api.cancel(order.id);
    } catch {
      runInAction(() => (this.busy = false));
      return false;
    }
    runInAction(() => {
      this.busy = false;
      this.cancelling = null;
    });
    await this.orders.load();
    return true;
  }
}
