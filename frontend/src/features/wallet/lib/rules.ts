/**
 * The assets area's rules (spec trading "Assets area", §5, §6, §9), free of React and MobX so they
 * can be tested alone. Amounts are big.js on decimal strings.
 */
import Big from 'big.js';

import { positive, toBig } from '@/lib/format';

import type { Account, AccountCode, AccountGroup, RecordsKind } from '../types';

/** Only Bitcoin and Ether convert (to USDT at the USD price; spec §9). */
export const CONVERTIBLE_CODES = ['BTC', 'ETH'] as const;
/** Decimals the withdraw fee and received amount are shown with (cut). */
export const AMOUNT_DECIMALS = 8;

/** Deposit is offered when the account type takes deposits and the currency is open for them. */
export function canDeposit(group: Pick<AccountGroup, 'is_recharge'>, account: Account): boolean {
  return Number(group.is_recharge) === 1 && Number(account.currency?.open_recharge) === 1;
}

/** Withdraw likewise, with the currency's open_draw. */
export function canWithdraw(group: Pick<AccountGroup, 'is_recharge'>, account: Account): boolean {
  return Number(group.is_recharge) === 1 && Number(account.currency?.open_draw) === 1;
}

/** Convert: BTC and ETH of the trade (change) account only. */
export function canConvert(group: Pick<AccountGroup, 'account_code'>, account: Account): boolean {
  const code = account.currency_code || account.currency?.code;
  return group.account_code === 'change_account' && CONVERTIBLE_CODES.some((c) => c === code);
}

/** account_log/<kind> of an account code: `change_account` → `change`. */
export function recordsKindOf(code: string): RecordsKind {
  const kind = code.replace(/_account$/, '');
  return kind === 'legal' || kind === 'lever' || kind === 'micro' || kind === 'financial' ? kind : 'change';
}

const cut = (n: Big) => n.round(AMOUNT_DECIMALS, Big.roundDown).toFixed();

/** Fee of a withdrawal: amount × draw_rate (cut), or null until an amount is typed. */
export function withdrawFee(amount: unknown, rate: unknown): string | null {
  const a = positive(amount);
  if (!a) return null;
  return cut(a.times(toBig(rate) ?? 0));
}

/** What arrives: amount × (1 − draw_rate), never below 0; null until an amount is typed. */
export function withdrawReceive(amount: unknown, rate: unknown): string | null {
  const a = positive(amount);
  if (!a) return null;
  const received = a.times(new Big(1).minus(toBig(rate) ?? 0));
  return cut(received.lt(0) ? new Big(0) : received);
}

export type WithdrawProblem =
  | 'pbtwaf'
  | 'p_minnum'
  | 'belowMin'
  | 'aboveMax'
  | 'insufficient'
  | 'memo'
  | 'payPassword';

export interface WithdrawForm {
  address: string;
  amount: string;
  payPassword: string;
  /** Checked only when the chain needs one. */
  memo?: string;
  needsMemo?: boolean;
}

export interface WithdrawLimits {
  min: unknown;
  max: unknown;
  available: unknown;
}

/** In the spec's order: address, amount (with the currency's limits and the balance), deal password. */
export function checkWithdraw(form: WithdrawForm, limits: WithdrawLimits): WithdrawProblem | null {
  if (!form.address.trim()) return 'pbtwaf';
  const amount = positive(form.amount);
  if (!amount) return 'p_minnum';
  const min = positive(limits.min);
  if (min && amount.lt(min)) return 'belowMin';
  const max = positive(limits.max);
  if (max && amount.gt(max)) return 'aboveMax';
  if (amount.gt(toBig(limits.available) ?? 0)) return 'insufficient';
  if (form.needsMemo && !(form.memo ?? '').trim()) return 'memo';
  if (!form.payPassword) return 'payPassword';
  return null;
}

export type TransferProblem = 'p_transfernum' | 'sameAccount' | 'insufficient' | 'chooseAccount';

/** A transfer needs two different accounts and an amount within the source's balance. */
export function checkTransfer(
  form: { from: string; to: string; amount: string },
  available: unknown,
): TransferProblem | null {
  if (!form.from || !form.to) return 'chooseAccount';
  if (form.from === form.to) return 'sameAccount';
  const amount = positive(form.amount);
  if (!amount) return 'p_transfernum';
  if (amount.gt(toBig(available) ?? 0)) return 'insufficient';
  return null;
}

/** USDT's decimal places: a conversion's USDT is cut to them. */
export const USDT_DECIMALS = 6;

/**
 * What a conversion pays, as serve/api computes it: amount × the rate account/list gives
 * (`convert_rate`: the live mark less the spread), cut to USDT's 6 decimals; null until an amount is
 * typed or while there is no live rate.
 */
export function convertEstimate(amount: unknown, rate: unknown): string | null {
  const a = positive(amount);
  const r = positive(rate);
  if (!a || !r) return null;
  return a.times(r).round(USDT_DECIMALS, Big.roundDown).toFixed();
}

/** Convert needs an amount (trade.p_num) within the balance. */
export function checkConvert(amount: string, available: unknown): 'p_num' | 'insufficient' | null {
  const a = positive(amount);
  if (!a) return 'p_num';
  return a.gt(toBig(available) ?? 0) ? 'insufficient' : null;
}


/** The account groups (in list order) that hold a currency: where it can be transferred. */
export function groupsHolding(groups: AccountGroup[], currencyId: number): AccountCode[] {
  return groups
    .filter((g) => g.accounts.some((a) => a.currency_id === currencyId))
    .map((g) => g.account_code as AccountCode);
}
