/**
 * The user's account groups (account/list) and which row is open: deposit, withdraw or convert
 * open for one row at a time (spec "Assets area").
 */
import { makeAutoObservable, runInAction } from 'mobx';

import { sanitizeDecimal } from '@/lib/format';

import type { WalletApi } from '../api/wallet-api';
import { checkConvert, convertEstimate } from '../lib/rules';
import type { Account, AccountGroup } from '../types';

export type RowAction = 'deposit' | 'withdraw' | 'convert';
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

export class AccountsStore {
  groups: AccountGroup[] = [];
  status: LoadStatus = 'idle';
  /** The open row: a currency of the shown group and what is open under it. */
  open: { currencyId: number; action: RowAction } | null = null;
  convertAmount = '';
  convertError: 'p_num' | 'insufficient' | null = null;

  constructor(private readonly api: WalletApi) {
    makeAutoObservable<AccountsStore, 'api'>(this, { api: false });
  }

  async load(): Promise<void> {
    if (this.status !== 'ready') this.status = 'loading';
    try {
      const groups = await this.api.accounts();
      runInAction(() => {
        this.groups = Array.isArray(groups) ? groups : [];
        this.status = 'ready';
      });
    } catch {
      runInAction(() => {
        if (!this.groups.length) this.status = 'error';
      });
    }
  }

  group(code: string): AccountGroup | undefined {
    return this.groups.find((g) => g.account_code === code);
  }

  /** The account of a currency in a group (the change account by default). */
  account(currencyId: number, code = 'change_account'): Account | undefined {
    return this.group(code)?.accounts.find((a) => a.currency_id === currencyId);
  }

  /** Open `action` under a row; the same again closes it; another row's closes. Opening convert
   * reloads account/list, so the rate it shows is the live one, not the one of the page's first load. */
  toggle(currencyId: number, action: RowAction): void {
    const same = this.open?.currencyId === currencyId && this.open.action === action;
    this.open = same ? null : { currencyId, action };
    this.convertAmount = '';
    this.convertError = null;
    if (!same && action === 'convert') void this.load();
  }

  isOpen(currencyId: number, action?: RowAction): boolean {
    return this.open?.currencyId === currencyId && (!action || this.open.action === action);
  }

  /** The USDT a conversion of the typed amount of `account` would pay (its live rate from account/list). */
  convertEstimate(account: Account): string | null {
    return convertEstimate(this.convertAmount, account.currency?.convert_rate);
  }

  setConvertAmount(text: string): void {
    this.convertAmount = sanitizeDecimal(text, 8);
    this.convertError = null;
  }

  /** Convert BTC or ETH of the change account to USDT; reloads the balances after. */
  async convert(account: Account): Promise<boolean> {
    this.convertError = checkConvert(this.convertAmount, account.balance);
    if (this.convertError) return false;
    try {
      await this.api.convert({
        currency_id: account.currency_id,
        number: this.convertAmount,
        currency_protocol_id: account.currency?.currency_protocols?.[0]?.id ?? null,
      });
    } catch {
      return false;
    }
    runInAction(() => {
      this.open = null;
      this.convertAmount = '';
    });
    await this.load();
    return true;
  }
}
