/** The deposit panel: the user's wallets of one currency (one per chain), the chosen one, the QR toggle. */
import { makeAutoObservable, runInAction } from 'mobx';

import { isApiError } from '@/lib/api-client';

import type { WalletApi } from '../api/wallet-api';
import type { Wallet } from '../types';
import type { LoadStatus } from './accounts-store';

export class DepositStore {
  wallets: Wallet[] = [];
  index = 0;
  status: LoadStatus = 'idle';
  showQr = true;
  /** Why the exchange gives no address (deposits suspended or closed), in the user's language. */
  refusal: string | null = null;
  private requested: number | null = null;

  constructor(private readonly api: WalletApi) {
    makeAutoObservable<DepositStore, 'api' | 'requested'>(this, { api: false, requested: false });
  }

  get wallet(): Wallet | null {
    return this.wallets[this.index] ?? null;
  }

  /** A chain selector only when there is more than one wallet. */
  get hasChoice(): boolean {
    return this.wallets.length > 1;
  }

  async load(currencyId: number): Promise<void> {
    this.requested = currencyId;
    this.status = 'loading';
    this.wallets = [];
    this.index = 0;
    this.refusal = null;
    try {
      const answer: unknown = await this.api.wallets(currencyId);
      if (this.requested !== currencyId) return; // another currency was picked meanwhile
      runInAction(() => {
        this.wallets = toWallets(answer);
        this.status = 'ready';
      });
    } catch (error) {
      runInAction(() => {
        if (this.requested !== currencyId) return;
        // A refusal is an answer, not a failure to load: trying again would get the same one.
        if (isApiError(error) && error.kind === 'business') {
          this.refusal = error.message;
          this.status = 'ready';
        } else this.status = 'error';
      });
    }
  }

  select(index: number): void {
    if (index >= 0 && index < this.wallets.length) this.index = index;
  }

  toggleQr(): void {
    this.showQr = !this.showQr;
  }
}

/** wallet/wallet answers a list of wallets; a single wallet or `{ wallets }` is read too. */
export function toWallets(answer: unknown): Wallet[] {
  const list = Array.isArray(answer)
    ? answer
    : answer && typeof answer === 'object' && Array.isArray((answer as { wallets?: unknown }).wallets)
      ? (answer as { wallets: unknown[] }).wallets
      : answer && typeof answer === 'object' && 'address' in answer
        ? [answer]
        : [];
  return list.filter((w): w is Wallet => Boolean(w && typeof w === 'object' && (w as Wallet).address));
}
