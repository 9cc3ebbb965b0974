/** The transfer page: a currency, from and to accounts that hold it, an amount (spec "Assets area"). */
import { makeAutoObservable, runInAction } from 'mobx';

import { sanitizeDecimal } from '@/lib/format';

import type { WalletApi } from '../api/wallet-api';
import { AMOUNT_DECIMALS, checkTransfer, groupsHolding, type TransferProblem } from '../lib/rules';
import type { AccountsStore } from './accounts-store';

/** The accounts are reloaded a second after a transfer (spec §7). */
export const TRANSFER_RELOAD_MS = 1000;

export class TransferStore {
  currencyId: number | null = null;
  from = '';
  to = '';
  amount = '';
  problem: TransferProblem | null = null;
  busy = false;
  private reloadTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly api: WalletApi,
    readonly accounts: AccountsStore,
  ) {
    makeAutoObservable<TransferStore, 'api' | 'reloadTimer'>(this, { api: false, accounts: false, reloadTimer: false });
  }

  /** Currencies held by at least two account types, in the order of the first group. */
  get currencies(): { id: number; code: string }[] {
    const seen = new Map<number, string>();
    for (const g of this.accounts.groups) for (const a of g.accounts) if (!seen.has(a.currency_id)) seen.set(a.currency_id, a.currency_code);
    return [...seen]
      .filter(([id]) => groupsHolding(this.accounts.groups, id).length > 1)
      .map(([id, code]) => ({ id, code }));
  }

  get accountCodes(): string[] {
    return this.currencyId === null ? [] : groupsHolding(this.accounts.groups, this.currencyId);
  }

  get available(): string {
    if (this.currencyId === null || !this.from) return '0';
    return String(this.accounts.account(this.currencyId, this.from)?.balance ?? '0');
  }

  /** Picks a currency (the first transferable one when `id` is not) and two different accounts. */
  setCurrency(id: number | null): void {
    const pick = this.currencies.find((c) => c.id === id) ?? this.currencies[0];
    this.currencyId = pick?.id ?? null;
    const codes = this.accountCodes;
    if (!codes.includes(this.from)) this.from = codes.includes('change_account') ? 'change_account' : (codes[0] ?? '');
    if (!codes.includes(this.to) || this.to === this.from) this.to = codes.find((c) => c !== this.from) ?? '';
    this.problem = null;
  }

  setFrom(code: string): void {
    if (code === this.to) this.to = this.from;
    this.from = code;
    this.problem = null;
  }

  setTo(code: string): void {
    if (code === this.from) this.from = this.to;
    this.to = code;
    this.problem = null;
  }

  swap(): void {
    [this.from, this.to] = [this.to, this.from];
    this.problem = null;
  }

  setAmount(text: string): void {
    this.amount = sanitizeDecimal(text, AMOUNT_DECIMALS);
    this.problem = null;
  }

  setAll(): void {
    this.setAmount(this.available);
  }

  async submit(): Promise<boolean> {
    this.problem = checkTransfer({ from: this.from, to: this.to, amount: this.amount }, this.available);
    if (this.problem || this.busy || this.currencyId === null) return false;
    this.busy = true;
    try {
      await this.api.transfer({ currency_id: this.currencyId, balance: this.amount, from: this.from, to: this.to });
      runInAction(() => {
        this.amount = '';
      });
      this.reloadTimer = setTimeout(() => void this.accounts.load(), TRANSFER_RELOAD_MS);
      return true;
    } catch {
      return false;
    } finally {
      runInAction(() => {
        this.busy = false;
      });
    }
  }

  dispose(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
  }
}
