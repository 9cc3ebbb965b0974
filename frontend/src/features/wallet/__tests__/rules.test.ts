import { describe, expect, it } from 'vitest';

import {
  canConvert,
  canDeposit,
  canWithdraw,
  checkConvert,
  checkTransfer,
  checkWithdraw,
  convertEstimate,
  groupsHolding,
  recordsKindOf,
  withdrawFee,
  withdrawReceive,
} from '../lib/rules';
import { account, groups } from './fixtures';

describe('row actions', () => {
  const trade = { account_code: 'change_account', is_recharge: 1 };
  const legal = { account_code: 'legal_account', is_recharge: 0 };

  it('offers deposit and withdraw only where the account type and the currency allow them', () => {
    const btc = account('BTC', 1, '1');
    expect(canDeposit(trade, btc)).toBe(true);
    expect(canWithdraw(trade, btc)).toBe(true);
    expect(canDeposit(legal, btc)).toBe(false); // is_recharge 0
    expect(canWithdraw(legal, btc)).toBe(false);
    expect(canDeposit(trade, account('X', 9, '1', { open_recharge: 0 }))).toBe(false);
    expect(canWithdraw(trade, account('X', 9, '1', { open_draw: 0 }))).toBe(false);
  });

  it('converts BTC and ETH of the trade account only', () => {
    expect(canConvert(trade, account('BTC', 1, '1'))).toBe(true);
    expect(canConvert(trade, account('ETH', 2, '1'))).toBe(true);
    expect(canConvert(trade, account('USDT', 3, '1'))).toBe(false);
    expect(canConvert(legal, account('BTC', 1, '1'))).toBe(false);
  });
});

describe('withdraw sums', () => {
  it('takes amount × rate as the fee and sends amount × (1 − rate)', () => {
    expect(withdrawFee('2', '0.001')).toBe('0.002');
    expect(withdrawReceive('2', '0.001')).toBe('1.998');
    expect(withdrawReceive('0.1', '0.003')).toBe('0.0997'); // no float noise
  });

  it('is empty until an amount is typed', () => {
    expect(withdrawFee('', '0.01')).toBeNull();
    expect(withdrawReceive('0', '0.01')).toBeNull();
  });
});

describe('checkWithdraw', () => {
  const limits = { min: '0.01', max: '10', available: '5' };
  const form = { address: '0xabc', amount: '1', payPassword: 'secret1' };

  it('asks in order for the address, the amount, the deal password', () => {
    expect(checkWithdraw({ address: ' ', amount: '', payPassword: '' }, limits)).toBe('pbtwaf');
    expect(checkWithdraw({ ...form, amount: '', payPassword: '' }, limits)).toBe('p_minnum');
    expect(checkWithdraw({ ...form, payPassword: '' }, limits)).toBe('payPassword');
    expect(checkWithdraw(form, limits)).toBeNull();
  });

  it('keeps the amount within draw_min, draw_max and the balance', () => {
    expect(checkWithdraw({ ...form, amount: '0.001' }, limits)).toBe('belowMin');
    expect(checkWithdraw({ ...form, amount: '11' }, { ...limits, available: '20' })).toBe('aboveMax');
    expect(checkWithdraw({ ...form, amount: '6' }, limits)).toBe('insufficient');
    expect(checkWithdraw({ ...form, amount: '5' }, limits)).toBeNull();
  });
});

describe('checkTransfer and checkConvert', () => {
  it('needs two different accounts and an amount within the balance', () => {
    expect(checkTransfer({ from: '', to: 'lever_account', amount: '1' }, '5')).toBe('chooseAccount');
    expect(checkTransfer({ from: 'a', to: 'a', amount: '1' }, '5')).toBe('sameAccount');
    expect(checkTransfer({ from: 'a', to: 'b', amount: '' }, '5')).toBe('p_transfernum');
    expect(checkTransfer({ from: 'a', to: 'b', amount: '0' }, '5')).toBe('p_transfernum');
    expect(checkTransfer({ from: 'a', to: 'b', amount: '5.01' }, '5')).toBe('insufficient');
    expect(checkTransfer({ from: 'a', to: 'b', amount: '5' }, '5')).toBeNull();
  });

  it("estimates a conversion at the account's live rate, cut to USDT's 6 decimals", () => {
    expect(convertEstimate('0.001', '67672.4375')).toBe('67.672437');
    expect(convertEstimate('0.25', '67660')).toBe('16915');
    expect(convertEstimate('', '67660')).toBeNull();
    expect(convertEstimate('1', null)).toBeNull(); // no live mark: no estimate
    expect(convertEstimate('1', undefined)).toBeNull();
  });

  it('convert needs a quantity', () => {
    expect(checkConvert('', '1')).toBe('p_num');
    expect(checkConvert('2', '1')).toBe('insufficient');
    expect(checkConvert('0.5', '1')).toBeNull();
  });
});

describe('accounts', () => {
  it('names the records of an account code', () => {
    expect(recordsKindOf('change_account')).toBe('change');
    expect(recordsKindOf('micro_account')).toBe('micro');
    expect(recordsKindOf('nonsense')).toBe('change');
  });

  it('lists the groups holding a currency', () => {
    expect(groupsHolding(groups(), 3)).toEqual(['legal_account', 'lever_account', 'change_account']);
    expect(groupsHolding(groups(), 1)).toEqual(['change_account']);
  });
});
