/**
 * /legalIndex/orderdetail and /myshop/shoporderdetail: one order as either side sees it, the payment
 * window's countdown and the actions the server lists for this user.
 *
 * The countdown only displays the server's `remain_ms` (counted from when the answer came); at 0 the
 * order is read again, since the server's sweep is what cancels it, and again every few seconds
 * while the server still has it unpaid. A LEGAL_ORDER push for this order, or a socket that came
 * back, reads it again too.
 */
import { makeAutoObservable, runInAction } from 'mobx';

import { createTicker, secondsUntil, type Ticker } from '@/lib/countdown';

import type { P2pApi } from '../api/p2p-api';
import { type AppealProblem, APPEAL_IMAGES_MAX, checkAppeal } from '../lib/rules';
import { ORDER_STATE, type OrderAction, type OrderDetail } from '../types';
import { Loadable } from '@/lib/loadable';

/** While the server still has an expired window unpaid (its sweep runs on its own pace): ask again so often. */
export const EXPIRED_RETRY_MS = 5_000;

export type ActionProblem = AppealProblem | 'password';

export class OrderStore {
  readonly detail: Loadable<OrderDetail>;
  /** The clock the countdown reads (ticks every second while a window is open). */
  now = Date.now();
  /** When the window ends on this browser's clock: the answer's arrival + `remain_ms`. */
  deadlineAt: number | null = null;
  private nextExpiredRead = 0;
  private readonly ticker: Ticker;

  /** The action being confirmed, null when none. */
  dialog: OrderAction | null = null;
  proof = '';
  password = '';
  reason = '';
  images: string[] = [];
  problem: ActionProblem | null = null;
  busy = false;

  constructor(
    private readonly api: P2pApi,
    readonly id: number,
  ) {
    this.detail = new Loadable(async () => {
      const order = await api.detail(id);
      this.track(order);
      return order;
    });
    this.ticker = createTicker(() => this.tick());
    makeAutoObservable<OrderStore, 'api' | 'ticker' | 'nextExpiredRead'>(this, {
      api: false,
      detail: false,
      id: false,
      ticker: false,
      nextExpiredRead: false,
    });
  }

  start(): void {
    void this.detail.load();
  }

  dispose(): void {
    this.ticker.stop();
  }

  get order(): OrderDetail | null {
    return this.detail.data;
  }

  /** Whole seconds left of the payment window; null when no window runs (not unpaid). */
  get secondsLeft(): number | null {
    const order = this.order;
    if (!order || order.state !== ORDER_STATE.unpaid || this.deadlineAt === null) return null;
    return secondsUntil(this.deadlineAt, this.now);
  }

  can(action: OrderAction): boolean {
    return this.order?.actions.includes(action) ?? false;
  }

  /** A LEGAL_ORDER push: read this order again when it is the one that moved. */
  onPush(orderId: number | undefined): void {
    if (orderId === this.id) void this.detail.load();
  }

  /** The socket came back: pushes may have been missed. */
  onReconnected(): void {
    void this.detail.load();
  }

  // -- the countdown ----------------------------------------------------------------------------------

  private track(order: OrderDetail | undefined): void {
    runInAction(() => {
      this.now = Date.now();
      const unpaid = order?.state === ORDER_STATE.unpaid && typeof order.remain_ms === 'number';
      this.deadlineAt = unpaid ? this.now + Math.max(0, order.remain_ms ?? 0) : null;
    });
    if (this.deadlineAt === null) this.ticker.stop();
    else this.ticker.start();
  }

  private tick(): void {
    this.now = Date.now();
    if (this.deadlineAt === null || this.now < this.deadlineAt || this.now < this.nextExpiredRead) return;
    this.nextExpiredRead = this.now + EXPIRED_RETRY_MS;
    void this.detail.load();
  }

  // -- actions ------------------------------------------------------------------------------------------

  ask(action: OrderAction): void {
    if (!this.can(action)) return;
    this.dialog = action;
    this.proof = '';
    this.password = '';
    this.reason = '';
    this.images = [];
    this.problem = null;
  }

  dismiss(): void {
    if (!this.busy) this.dialog = null;
  }

  setPassword(value: string): void {
    this.password = value;
    this.problem = null;
  }

  setReason(value: string): void {
    this.reason = value;
    this.problem = null;
  }

  /** Uploads a payment proof (the buyer's own image); its URL goes with "I have paid". */
  async uploadProof(file: File): Promise<void> {
    const answer = await this.api.uploadImage(file).catch(() => undefined);
    if (answer?.url) runInAction(() => (this.proof = answer.url));
  }

  clearProof(): void {
    this.proof = '';
  }

  async addImage(file: File): Promise<void> {
    if (this.images.length >= APPEAL_IMAGES_MAX) return;
    const answer = await this.api.uploadImage(file).catch(() => undefined);
    runInAction(() => {
      if (answer?.url && this.images.length < APPEAL_IMAGES_MAX) this.images = [...this.images, answer.url];
    });
  }

  removeImage(url: string): void {
    this.images = this.images.filter((u) => u !== url);
  }

  /** Sends the action being confirmed; true when the server took it (the order is shown anew). */
  async confirm(): Promise<boolean> {
    const action = this.dialog;
    if (!action || this.busy) return false;
    if (action === 'release' && !this.password) this.problem = 'password';
    if (action === 'appeal' || action === 'reply') this.problem = checkAppeal(this.reason, this.images);
    if (this.problem) return false;
    this.busy = true;
    let answer: OrderDetail | undefined;
    try {
      answer = await this.send(action);
    } catch {
      runInAction(() => (this.busy = false));
      return false;
    }
    runInAction(() => {
      this.busy = false;
      this.dialog = null;
      this.password = '';
    });
    // The answer is the order's new detail; read it when a server answers without one.
    if (answer && answer.id === this.id) {
      this.track(answer);
      this.detail.set(answer);
    } else {
      await this.detail.load();
    }
    return true;
  }

  private send(action: OrderAction): Promise<OrderDetail | undefined> {
    switch (action) {
      case 'paid':
        return this.api.paid(this.id, this.proof);
      case 'cancel':
        return this.api.cancel(this.id);
      case 'release':
        return this.api.release(this.id, this.password);
      case 'appeal':
        return this.api.appeal(this.id, this.reason.trim(), this.images);
      case 'reply':
        return this.api.reply(this.id, this.reason.trim(), this.images);
    }
  }
}
