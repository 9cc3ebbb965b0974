/**
 * Shapes of the assets API (spec trading §3, §7). Field names are the spec's: account/list,
 * wallet/wallet, account_log/*, block_chain/currency_protocols. Money is a decimal string.
 */
import type { Decimal } from '@/types/api';

/** account_code of the five account groups. */
export const ACCOUNT_CODES = [
  'legal_account',
  'lever_account',
  'change_account',
  'micro_account',
  'financial_account',
] as const;
export type AccountCode = (typeof ACCOUNT_CODES)[number];

/** account_log/<kind>: the records of one account group. */
export type RecordsKind = 'change' | 'legal' | 'lever' | 'micro' | 'financial';

export function isAccountCode(value: unknown): value is AccountCode {
  return ACCOUNT_CODES.some((code) => code === value);
}

export interface CurrencyProtocol {
  id: number;
  token_address?: string | null;
  chain_protocol?: { code: string } | null;
  /** 1 on chains where a deposit or withdrawal needs a memo (XRP, EOS). */
  uses_memo?: number;
  /** 0 where this exchange follows no node of the chain: deposits or withdrawals on it are suspended. */
  deposit_open?: number;
  withdraw_open?: number;
}

export interface AccountCurrency {
  id: number;
  code: string;
  open_recharge: number;
  open_draw: number;
  draw_rate: Decimal;
  draw_min: Decimal;
  draw_max: Decimal;
  /** The live USD price (serve: store/prices.py); `usd_live` false: no live mark, the seeded price. */
  usd_price: Decimal;
  usd_live?: boolean;
  /** BTC and ETH: the USDT one unit converts for now (live mark less the spread); null while stale. */
  convert_rate?: Decimal | null;
  is_recharge_account?: number;
  account_types?: { name: string; account_code: string }[];
  currency_protocols?: CurrencyProtocol[];
}

export interface Account {
  id: number | null;
  currency_id: number;
  currency_code: string;
  balance: Decimal;
  lock_balance: Decimal;
  convert_usd: Decimal;
  user_id?: number;
  currency: AccountCurrency;
}

export interface AccountGroup {
  account_code: string;
  is_recharge: number;
  convert_usd: Decimal;
  accounts: Account[];
}

export interface Wallet {
  id: number;
  address: string;
  memo?: string | null;
  chain_protocol?: { code: string } | null;
  token_address?: string | null;
  currency_protocol_id?: number | null;
}

export interface AssetRecord {
  id: number;
  currency?: { code: string } | null;
  currency_code?: string;
  value: Decimal;
  /** The change of the locked balance (a withdrawal locks, then settles from the locked part). */
  lock_value?: Decimal;
  memo?: string | null;
  /** What moved the balance (deposit, transfer, lock_savings, mining…). */
  log_type?: string;
  /** The server's name of the log type, in the user's language. */
  notes?: string | null;
  extra_data?: { from?: string | null } | null;
  created_at: string | number;
}

/** A withdrawal request (account/withdrawals): 0 under review, 1 completed, 2 rejected as serve/api numbers them. */
export interface Withdrawal {
  id: number;
  currency?: { code: string } | null;
  chain_protocol?: { code: string } | null;
  address: string;
  memo?: string | null;
  number: Decimal;
  fee: Decimal;
  real_number: Decimal;
  status: number;
  status_name?: string;
  /** The transaction's id once the Signer stored it (empty before), and its confirmations. */
  txid?: string;
  confirmations?: number;
  created_at: string | number;
}

/** A chain transfer to one of the user's deposit addresses (wallet/deposits) and its state. */
export interface ChainDeposit {
  id: number;
  currency?: { code: string } | null;
  chain_protocol?: { code: string } | null;
  tx_hash: string;
  amount: Decimal;
  confirmations: number;
  status: number;
  status_name?: string;
  created_at: string | number;
}

/** A bound withdrawal address (GET user/addr). */
export interface BoundAddress {
  id: number;
  currency_id: number;
  currency_protocol_id?: number | null;
  chain_protocol?: { code: string } | null;
  address: string;
}

/** A currency of block_chain/currency_protocols with the chains it can be withdrawn on. */
export interface ProtocolCurrency {
  id: number;
  code: string;
  currency_protocols: CurrencyProtocol[];
}
