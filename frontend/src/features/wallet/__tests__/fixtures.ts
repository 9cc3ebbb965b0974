import type { Account, AccountGroup } from '../types';

export function account(code: string, id: number, balance: string, extra: Partial<Account['currency']> = {}): Account {
  return {
    id: id * 10,
    currency_id: id,
    currency_code: code,
    balance,
    lock_balance: '0',
    convert_usd: '0',
    currency: {
      id,
      code,
      open_recharge: 1,
      open_draw: 1,
      draw_rate: '0.01',
      draw_min: '0.001',
      draw_max: '100',
      usd_price: '1',
      currency_protocols: [{ id: id * 100, chain_protocol: { code: 'ERC20' } }],
      ...extra,
    },
  };
}

/** alice: BTC and USDT in the trade account, USDT also in the fiat and lever accounts. */
export function groups(): AccountGroup[] {
  return [
    { account_code: 'legal_account', is_recharge: 0, convert_usd: '50', accounts: [account('USDT', 3, '50')] },
    { account_code: 'lever_account', is_recharge: 0, convert_usd: '0', accounts: [account('USDT', 3, '0')] },
    {
      account_code: 'change_account',
      is_recharge: 1,
      convert_usd: '1068.75',
      accounts: [account('BTC', 1, '0.0125'), account('USDT', 3, '1000'), account('LTC', 4, '2', { open_draw: 0 })],
    },
  ];
}
