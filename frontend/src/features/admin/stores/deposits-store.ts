import { makeAutoObservable, runInAction } from 'mobx';

import type { AdminTransport } from '../api/admin-client';
import type {
  ChainDeposit,
  DepositState,
  ManualCreditDone,
  ManualCredits,
  ManualDeposit,
  PagedData,
} from '../api/types';
import { messageOf, Resource } from './resource';

/** What became of the last manual deposit, for the form's message. */
export type CreditState = 'idle' | 'sending' | 'done' | 'failed';

/** What became of the last decision on a pending credit, for its row. */
export type CreditDecisionState = 'idle' | 'sending' | 'credited' | 'rejected' | 'failed';

const EMPTY: ManualDeposit = { account: '', currency: 'USDT', amount: '', reason: '', ref: '' };

/**
 * The finance role's deposits: the chain transfers to users' addresses by state, a manual deposit
 * (a credit the chain gateway did not make) to a user's change account with a required reason and the
 * operator's reference, and the manual credits waiting for a second operator (one worth more than the
 * threshold is credited only when a different finance operator approves it).
 */
export class DepositsStore {
  readonly list: Resource<PagedData<ChainDeposit>>;
  /** Manual credits waiting for a second operator, oldest first, with the threshold. */
  readonly pending: Resource<ManualCredits>;
  /** The state shown; null for every state. */
  status: DepositState | null = null;
  page = 1;
  draft: ManualDeposit = { ...EMPTY };
  creditState: CreditState = 'idle';
  creditError = '';
  credited: ManualCreditDone | null = null;
  /** Whom the last manual deposit went to, as typed. */
  creditedTo = '';
  decisions = new Map<number, CreditDecisionState>();
  decisionErrors = new Map<number, string>();

  constructor(private readonly api: AdminTransport) {
    this.list = new Resource(() =>
      this.api.get<PagedData<ChainDeposit>>('deposits', { status: this.status, page: this.page }),
    );
    this.pending = new Resource(() => this.api.get<ManualCredits>('deposits/credits', { status: 1, page: 1 }));
    makeAutoObservable(this, {}, { autoBind: true });
  }

  get lastPage(): number {
    return this.list.data?.last_page ?? 1;
  }

  /** The USD value above which a manual credit waits for a second operator (once read). */
  get threshold(): string | null {
    return this.pending.data?.credit_second_approval_usd ?? null;
  }

  setStatus(status: DepositState | null): void {
    this.status = status;
    this.page = 1;
    void this.list.load();
  }

  setPage(page: number): void {
    this.page = Math.min(Math.max(1, page), this.lastPage);
    void this.list.load();
  }

  change(field: keyof ManualDeposit, value: string): void {
    this.draft = { ...this.draft, [field]: value };
  }

  /** The form as it is sent: trimmed, the currency in capitals. */
  get request(): ManualDeposit {
    const { account, currency, amount, reason, ref } = this.draft;
    return {
      account: account.trim(), currency: currency.trim().toUpperCase(), amount: amount.trim(), reason: reason.trim(),
      ref: ref.trim(),
    }; // prettier-ignore
  }

  /** Every field filled, a reason and a reference of at least three characters, as the server asks. */
  get ready(): boolean {
    const r = this.request;
    return Boolean(r.account && r.currency && r.amount) && r.reason.length >= 3 && r.ref.length >= 3;
  }

  /**
   * Sends the manual deposit; on success keeps the answer (credited, or waiting for a second operator),
   * clears the form and reads the lists again; on a refusal keeps the server's message and the form as
   * typed. The same reference sent again answers the first credit: a retry never credits twice.
   */
  async credit(): Promise<boolean> {
    if (!this.ready || this.creditState === 'sending') return false;
    this.creditState = 'sending';
    this.creditError = '';
    this.credited = null;
    try {
      const request = this.request;
      const answer = await this.api.post<ManualCreditDone>('deposits/credit', request);
      runInAction(() => {
        this.credited = answer;
        this.creditedTo = request.account;
        this.creditState = 'done';
        this.draft = { ...EMPTY, currency: this.draft.currency };
      });
    } catch (error) {
      runInAction(() => {
        this.creditError = messageOf(error);
        this.creditState = 'failed';
      });
      return false;
    }
    await Promise.all([this.list.load(), this.pending.load()]);
    return true;
  }

  decisionOf(id: number): CreditDecisionState {
    return this.decisions.get(id) ?? 'idle';
  }

  /** Approves (credited now) or rejects a pending credit another operator asked for; reads the queue again. */
  async decide(id: number, approve: boolean, reason: string): Promise<CreditDecisionState> {
    this.decisions.set(id, 'sending');
    this.decisionErrors.delete(id);
    let state: CreditDecisionState;
    try {
      const answer = await this.api.post<ManualCreditDone>('deposits/credits/decide', { id, approve, reason });
      state = answer.status_name === 'credited' ? 'credited' : 'rejected';
    } catch (error) {
      state = 'failed';
      runInAction(() => this.decisionErrors.set(id, messageOf(error)));
    }
    runInAction(() => this.decisions.set(id, state));
    if (state !== 'failed') await this.pending.load();
    return state;
  }
}
