import { makeAutoObservable, runInAction } from 'mobx';

import type { AdminTransport } from '../api/admin-client';
import type { ChainStatus } from '../api/chain-types';
import type { Appeal, ConservationLine, Dashboard, Page, RealNameReview } from '../api/types';
import { messageOf, Resource } from './resource';

/** Support's real-name reviews (under review, oldest first). */
export class RealNamesStore {
  readonly queue: Resource<Page<RealNameReview>>;
  page = 1;
  error = '';

  constructor(private readonly api: AdminTransport) {
    this.queue = new Resource(() => this.api.get<Page<RealNameReview>>('real_names', { status: 1, page: this.page }));
    makeAutoObservable(this, {}, { autoBind: true });
  }

  async decide(userId: number, approve: boolean, reason: string): Promise<boolean> {
    this.error = '';
    try {
      await this.api.post('real_names/decide', { user_id: userId, approve, reason });
    } catch (error) {
      runInAction(() => (this.error = messageOf(error)));
      return false;
    }
    await this.queue.load();
    return true;
  }
}

/** Risk's P2P appeals, each resolved to the buyer or the seller with a note. */
export class AppealsStore {
  readonly queue: Resource<Page<Appeal>>;
  error = '';

  constructor(private readonly api: AdminTransport) {
    this.queue = new Resource(() => this.api.get<Page<Appeal>>('p2p/appeals', { page: 1 }));
    makeAutoObservable(this, {}, { autoBind: true });
  }

  async resolve(id: number, to: 'buyer' | 'seller', note: string): Promise<boolean> {
    this.error = '';
    try {
      await this.api.post('p2p/resolve', { id, to, note });
    } catch (error) {
      runInAction(() => (this.error = messageOf(error)));
      return false;
    }
    await this.queue.load();
    return true;
  }
}

export function dashboardResource(api: AdminTransport): Resource<Dashboard> {
  return new Resource(() => api.get<Dashboard>('dashboard'));
}

/** Finance's Chain page: the watchers and the Signer (hot wallets, unconfirmed withdrawals, sweeps). */
export function chainResource(api: AdminTransport): Resource<ChainStatus> {
  return new Resource(() => api.get<ChainStatus>('chain'));
}

export function conservationResource(api: AdminTransport): Resource<ConservationLine[]> {
  return new Resource(() => api.get<ConservationLine[]>('conservation'));
}
