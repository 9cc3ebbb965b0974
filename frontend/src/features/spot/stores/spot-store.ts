/**
 * The buy and sell forms (spec trading §4, §5), the balances they spend, and the order panel.
 *
 * Market or limit mode is shared by both forms; switching clears quantities and sliders. A limit
 * price is typed (cut to the pair's price decimals); a market order takes the best book price.
 * Sliders stop every 25 %: a buy gets quote balance × percent / price floored to 6 decimals, a
 * sell gets percent of the base balance. Totals are rounded up to 6 decimals.
 */
import { makeAutoObservable, runInAction } from 'mobx';

import type { PairMarketStore } from '@/components/market/stores/pair-market-store';
import { sanitizeDecimal } from '@/lib/format';

import type { SpotApi } from '../api/spot-api';
import { buyQuantityAt, orderTotal, sellQuantityAt, snapPercent } from '../lib/money';
import { checkOrder, type OrderError, type OrderMode } from '../lib/order-rules';
import { BUY, SELL, type SpotOrder, type Way } from '../types';
import { OrdersStore } from './orders-store';

/** Balances are reloaded this long after the last change that may have moved them. */
export const BALANCE_RELOAD_DELAY_MS = 300;

export interface SideForm {
  price: string;
  amount: string;
  /** Slider position: 0, 25, 50, 75 or 100. */
  percent: number;
  /** A `spot` namespace key (p_price, notbest, p_num, remind, insufficient). */
  error: OrderError | null;
  submitting: boolean;
}

const emptyForm = (): SideForm => ({ price: '', amount: '', percent: 0, error: null, submitting: false });

export class SpotStore {
  mode: OrderMode = 'limit';
  buy: SideForm = emptyForm();
  sell: SideForm = emptyForm();
  loggedIn = false;
  quoteBalance: string | null = null;
  baseBalance: string | null = null;
  readonly orders: OrdersStore;

  private readonly api: SpotApi;
  private readonly market: PairMarketStore;
  private balanceTimer: ReturnType<typeof setTimeout> | null = null;
  private balanceRequest = 0;

  constructor(api: SpotApi, market: PairMarketStore) {
    this.api = api;
    this.market = market;
    this.orders = new OrdersStore(api, market, () => this.scheduleBalances());
    makeAutoObservable<SpotStore, 'api' | 'market' | 'balanceTimer' | 'balanceRequest'>(this, {
      api: false,
      market: false,
      orders: false,
      balanceTimer: false,
      balanceRequest: false,
    });
  }

  form(way: Way): SideForm {
    return way === BUY ? this.buy : this.sell;
  }

  /** The best book price a market order on this side takes: lowest ask to buy, highest bid to sell. */
  bestPrice(way: Way): string | null {
    return way === BUY ? this.market.bestAsk : this.market.bestBid;
  }

  /** The price an order of this side would be sent with. */
  priceFor(way: Way): string | null {
    return this.mode === 'limit' ? this.form(way).price || null : this.bestPrice(way);
  }

  /** Rounded-up total in quote currency, or null while price or amount is missing. */
  total(way: Way): string | null {
    return orderTotal(this.priceFor(way), this.form(way).amount);
  }

  /** What this side spends: quote to buy, base to sell. */
  balanceFor(way: Way): string | null {
    return way === BUY ? this.quoteBalance : this.baseBalance;
  }

  // -- login --------------------------------------------------------------------------------------

  setLoggedIn(loggedIn: boolean): void {
    if (loggedIn === this.loggedIn) return;
    this.loggedIn = loggedIn;
    this.orders.setEnabled(loggedIn);
    if (loggedIn) void this.loadBalances();
    else this.quoteBalance = this.baseBalance = null;
  }

  // -- form edits ---------------------------------------------------------------------------------

  /** Switching mode clears quantities and sliders (spec §4). */
  setMode(mode: OrderMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    for (const form of [this.buy, this.sell]) {
      form.amount = '';
      form.percent = 0;
      form.error = null;
    }
  }

  setPrice(way: Way, text: string): void {
    const form = this.form(way);
    form.price = sanitizeDecimal(text, this.market.priceDecimals);
    form.error = null;
    if (form.percent > 0) this.applyPercent(way, form.percent);
  }

  setAmount(way: Way, text: string): void {
    const form = this.form(way);
    form.amount = sanitizeDecimal(text, this.market.quantityDecimals);
    form.percent = 0;
    form.error = null;
  }

  /** Slider stop (snapped to 25 %). Without a price a buy cannot be sized: spot.notbest. */
  setPercent(way: Way, percent: number): void {
    const form = this.form(way);
    form.percent = snapPercent(percent);
    form.error = null;
    this.applyPercent(way, form.percent);
  }

  /** A click on an order-book row: both limit prices take that price. */
  fillPrice(price: string): void {
    this.setMode('limit');
    this.setPrice(BUY, price);
    this.setPrice(SELL, price);
  }

  /** A new pair: nothing typed for the old one carries over. */
  onPairChanged(): void {
    this.buy = emptyForm();
    this.sell = emptyForm();
    this.quoteBalance = this.baseBalance = null;
    if (this.loggedIn) void this.loadBalances();
    this.orders.onPairChanged();
  }

  // -- submit -------------------------------------------------------------------------------------

  /** Validate (spec §5) and place the order; resolves true when the server accepted it. */
  async submit(way: Way): Promise<boolean> {
    const form = this.form(way);
    const pair = this.market.pair;
    if (!pair || form.submitting || !this.loggedIn) return false;
    const check = checkOrder({
      way,
      mode: this.mode,
      pairId: pair.id,
      price: form.price,
      amount: form.amount,
      bestPrice: this.bestPrice(way),
      balance: this.balanceFor(way),
    });
    if (!check.ok) {
      form.error = check.error;
      return false;
    }
    form.error = null;
    form.submitting = true;
    try {
      const placed = await this.api.placeOrder(way, check.body);
      runInAction(() => {
        form.amount = '';
        form.percent = 0;
      });
      if (placed) this.orders.onSubmitted({ ...placed, way } as SpotOrder);
      this.scheduleBalances(0);
      return true;
    } catch {
      return false; // the request layer shows the server's message
    } finally {
      runInAction(() => (form.submitting = false));
    }
  }

  // -- pushes -------------------------------------------------------------------------------------

  onTxSubmit(order: SpotOrder): void {
    this.orders.onSubmitted(order);
    if (order.currency_match_id === this.market.pairId) this.scheduleBalances();
  }

  onTxMatched(order: SpotOrder): void {
    this.orders.onMatched(order);
    if (order.currency_match_id === this.market.pairId) this.scheduleBalances();
  }

  /** The socket came back: pushes may have been missed. */
  onReconnected(): void {
    if (!this.loggedIn) return;
    void this.orders.load({ quiet: true });
    this.scheduleBalances(0);
  }

  // -- balances -----------------------------------------------------------------------------------

  async loadBalances(): Promise<void> {
    const pair = this.market.pair;
    if (!pair || !this.loggedIn) return;
    const request = ++this.balanceRequest;
    const [quote, base] = await Promise.allSettled([
      this.api.balance(pair.quote_currency_id),
      this.api.balance(pair.base_currency_id),
    ]);
    if (request !== this.balanceRequest) return;
    runInAction(() => {
      if (quote.status === 'fulfilled' && quote.value) this.quoteBalance = quote.value.balance;
      if (base.status === 'fulfilled' && base.value) this.baseBalance = base.value.balance;
    });
  }

  scheduleBalances(delay = BALANCE_RELOAD_DELAY_MS): void {
    if (!this.loggedIn) return;
    if (this.balanceTimer) clearTimeout(this.balanceTimer);
    this.balanceTimer = setTimeout(() => {
      this.balanceTimer = null;
      void this.loadBalances();
    }, delay);
  }

  dispose(): void {
    if (this.balanceTimer) clearTimeout(this.balanceTimer);
    this.balanceTimer = null;
    this.balanceRequest += 1;
    this.orders.dispose();
  }

  // -- internals ----------------------------------------------------------------------------------

  private applyPercent(way: Way, percent: number): void {
    const form = this.form(way);
    const decimals = this.market.quantityDecimals;
    if (percent === 0) {
      form.amount = '';
      return;
    }
    if (way === BUY) {
      const amount = buyQuantityAt(this.quoteBalance, percent, this.priceFor(BUY), decimals);
      if (amount === null) {
        form.error = 'notbest';
        form.percent = 0;
        return;
      }
      form.amount = amount;
    } else {
      // "A slider with no price gives a no-best-price message" (spec §5), on both sides.
      if (!this.priceFor(way)) {
        form.error = 'notbest';
        form.percent = 0;
        return;
      }
      form.amount = sellQuantityAt(this.baseBalance, percent, decimals);
    }
  }
}
