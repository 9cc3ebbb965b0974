/** The fee page's two reads; the schedule is computed from them (lib/schedule.ts). */
import { makeAutoObservable } from 'mobx';

import { Loadable } from '@/lib/loadable';

import type { FeesApi } from '../api/fees-api';
import { type PairFees, tradingFees, type WithdrawFees, withdrawFees } from '../lib/schedule';

export class FeesStore {
  readonly groups: Loadable<Awaited<ReturnType<FeesApi['groups']>>>;
  readonly currencies: Loadable<Awaited<ReturnType<FeesApi['currencies']>>>;

  constructor(api: FeesApi) {
    this.groups = new Loadable(() => api.groups());
    this.currencies = new Loadable(() => api.currencies());
    makeAutoObservable(this, { groups: false, currencies: false });
  }

  start(): void {
    void this.groups.load();
    void this.currencies.load();
  }

  get trading(): PairFees[] {
    return tradingFees(this.groups.data ?? []);
  }

  get withdrawals(): WithdrawFees[] {
    return withdrawFees(this.currencies.data ?? []);
  }
}
