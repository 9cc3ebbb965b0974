/** The stores of the token-sale screens: the list with its status tabs, and one sale with the subscription form. */
import { makeAutoObservable, runInAction } from 'mobx';

import { sanitizeDecimal } from '@/lib/format';

import { Loadable } from '@/lib/loadable';
import { sendAmount } from '../../common/send-amount';
import { AMOUNT_DECIMALS } from '../../common/money';
import type { SalesApi } from '../api/sales-api';
import { checkSubscription, type SubscribeProblem } from '../lib/rules';
import type { Sale, SaleFilter } from '../types';

/** /shoufa: all (99), in progress (0), completed (1). */
export class SalesListStore {
  filter: SaleFilter = 99;
  readonly sales: Loadable<Sale[]>;

  constructor(api: SalesApi) {
    this.sales = new Loadable(() => api.list(this.filter));
    makeAutoObservable(this, { sales: false });
  }

  start(): void {
    void this.sales.load();
  }

  setFilter(filter: SaleFilter): void {
    if (filter === this.filter) return;
    this.filter = filter;
    void this.sales.reset();
  }
}

/** /shoufa/info?id: the sale, the user's subscription, and (while open) the form. */
export class SalesInfoStore {
  readonly sale: Loadable<Sale>;
  /** The savings account's balance of the accepted asset (logged in only). */
  balance: string | null = null;
  amount = '';
  problem: SubscribeProblem | null = null;
  busy = false;

  constructor(
    private readonly api: SalesApi,
    readonly id: number,
    private readonly loggedIn: () => boolean,
  ) {
    this.sale = new Loadable(() => api.info(id));
    makeAutoObservable<SalesInfoStore, 'api' | 'loggedIn'>(this, { api: false, loggedIn: false, sale: false, id: false });
  }

  async start(): Promise<void> {
    await this.sale.load();
    await this.loadBalance();
  }

  async loadBalance(): Promise<void> {
    const code = this.sale.data?.jieshou;
    if (!code || !this.loggedIn()) return;
    try {
      const balance = await this.api.financialBalance(code);
      runInAction(() => (this.balance = balance));
    } catch {
      // The form works without it; the server refuses what the balance cannot pay.
    }
  }

  setAmount(text: string): void {
    this.amount = sanitizeDecimal(text, AMOUNT_DECIMALS);
    this.problem = null;
  }

  /** Subscribes; true when the server took it (the sale, with `mine`, is what it answered). */
  async submit(): Promise<boolean> {
    const sale = this.sale.data;
    if (!sale || this.busy) return false;
    const check = checkSubscription(this.amount, sale, this.balance);
    if (!check.ok) {
      this.problem = check.problem;
      return false;
    }
    return sendAmount(
      this,
      () => this.api.buy({ id: this.id, nums: check.nums }),
      async () => {
        await this.sale.load();
        await this.loadBalance();
      },
    );
  }
}
