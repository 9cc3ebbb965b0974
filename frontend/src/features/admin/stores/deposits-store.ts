import { makeAutoObservable, runInAction } from 'mobx';

import type { AdminTransport } from '../api/admin-client';
import type { ChainDeposit, DepositState, ManualDeposit, ManualDepositDone, PagedData } from '../api/types';
import { messageOf, Resource } from './resource';

/** What became of the last manual deposit, for the form's message. */
export type CreditState = 'idle' | 'sending' | 'done' | 'failed';

const EMPTY: ManualDeposit = { account: '', currency: 'USDT', amount: '', reason: '' };

/**
 * The finance role's deposits: the chain transfers to users' addresses by state, and a manual deposit
 * (a credit the chain gateway did not make) to a user's change account, with a required reason.
 */
export class DepositsStore {
  readonly list: Resource<PagedData<ChainDeposit>>;
  /** The state shown; null for every state. */
  status: DepositState | null = null;
  page = 1;
  draft: ManualDeposit = { ...EMPTY };
  creditState: CreditState = 'idle';
  creditError = '';
  credited: ManualDepositDone | null = null;
  /** Whom the last manual deposit went to, as typed (the answer's `account` is the account type). */
  creditedTo = '';

  constructor(private readonly api: AdminTransport) {
    this.list = new Resource(() =>
      this.api.get<PagedData<ChainDeposit>>('deposits', { status: this.status, page: this.page }),
    );
    makeAutoObservable(this, {}, { autoBind: true });
  }

  get lastPage(): number {
    return this.list.data?.last_page ?? 1;
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
    const { account, currency, amount, reason } = this.draft;
    return { account: account.trim(), currency: currency.trim().toUpperCase(), amount: amount.trim(), reason: reason.trim() };
  }

  /** Every field filled and a reason of at least three characters, as the server asks. */
  get ready(): boolean {
    const r = this.request;
    return Boolean(r.account && r.currency && r.amount) && r.reason.length >= 3;
  }

  /**
   * Sends the manual deposit; on success keeps the answer (its ref), clears the form and reads the
   * list again; on a refusal keeps the server's message and the form as typed.
   */
  async credit(): Promise<boolean> {
    if (!this.ready || this.creditState === 'sending') return false;
    this.creditState = 'sending';
    this.creditError = '';
    this.credited = null;
    try {
      const request = this.request;
      const answer = await this.api.post<ManualDepositDone>('deposits/credit', request);
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
    await this.list.load();
    return true;
  }
}
