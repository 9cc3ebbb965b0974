/**
 * The lock-savings page: the products (public), the user's locks (logged in), and the one purchase
 * being confirmed. A purchase locks one lot (`limit_number`) of the product after the prompt; both
 * lists are read again afterwards (the lot counter and the new lock).
 */
import { makeAutoObservable, runInAction } from 'mobx';

import { Loadable } from '@/lib/loadable';
import type { LockApi } from '../api/lock-api';
import type { LockProduct } from '../types';

/** Why a product cannot be bought now. */
export type LockBlock = 'closed' | 'soldOut' | null;

export function lockBlock(product: LockProduct): LockBlock {
  if (!product.open) return 'closed';
  if (product.quota_lots > 0 && product.sold_lots >= product.quota_lots) return 'soldOut';
  return null;
}

export class LockStore {
  readonly products: Loadable<LockProduct[]>;
  readonly locks: Loadable<Awaited<ReturnType<LockApi['locks']>>>;
  /** The product whose purchase waits for the user's confirmation. */
  confirming: LockProduct | null = null;
  busy = false;

  constructor(
    private readonly api: LockApi,
    private readonly loggedIn: () => boolean,
  ) {
    this.products = new Loadable(() => api.products());
    this.locks = new Loadable(() => api.locks());
    makeAutoObservable<LockStore, 'api' | 'loggedIn'>(this, { api: false, loggedIn: false, products: false, locks: false });
  }

  start(): void {
    void this.products.load();
    if (this.loggedIn()) void this.locks.load();
  }

  ask(product: LockProduct): void {
    if (lockBlock(product)) return;
    this.confirming = product;
  }

  dismiss(): void {
    if (!this.busy) this.confirming = null;
  }

  /** Locks one lot of the confirmed product; true when the server took it. */
  async confirm(): Promise<boolean> {
    const product = this.confirming;
    if (!product || this.busy) return false;
    this.busy = true;
    try {
      await this.api.lock(product.id);
    } catch {
      runInAction(() => (this.busy = false));
      return false;
    }
    runInAction(() => {
      this.busy = false;
      this.confirming = null;
    });
    await Promise.all([this.products.load(), this.locks.load()]);
    return true;
  }
}
