import { makeAutoObservable, runInAction } from 'mobx';

import type { AdminTransport } from '../api/admin-client';
import type { Page, PendingWithdrawal, WithdrawalDecision } from '../api/types';
import { messageOf, Resource } from './resource';

/** What became of the last decision on a withdrawal, for the row's message. */
export type DecisionState = 'idle' | 'sending' | 'approved' | 'rejected' | 'waiting_second' | 'failed';

/**
 * The finance queue: pending withdrawals with their USD value; approving one worth at least the
 * second-approval threshold only records the first approval until another operator approves.
 */
export class WithdrawalsStore {
  readonly queue: Resource<Page<PendingWithdrawal>>;
  page = 1;
  states = new Map<number, DecisionState>();
  errors = new Map<number, string>();

  constructor(private readonly api: AdminTransport) {
    this.queue = new Resource(() => this.api.get<Page<PendingWithdrawal>>('withdrawals', { status: 1, page: this.page }));
    makeAutoObservable(this, {}, { autoBind: true });
  }

  stateOf(id: number): DecisionState {
    return this.states.get(id) ?? 'idle';
  }

  setPage(page: number): void {
    this.page = page;
    void this.queue.load();
  }

  async decide(id: number, approve: boolean, reason: string): Promise<DecisionState> {
    this.states.set(id, 'sending');
    this.errors.delete(id);
    let state: DecisionState;
    try {
      const answer = await this.api.post<WithdrawalDecision>('withdrawals/decide', { id, approve, reason });
      state = answer.waiting_for_second_approval ? 'waiting_second' : approve ? 'approved' : 'rejected';
    } catch (error) {
      state = 'failed';
      runInAction(() => this.errors.set(id, messageOf(error)));
    }
    runInAction(() => this.states.set(id, state));
    if (state !== 'failed') await this.queue.load();
    return state;
  }
}
