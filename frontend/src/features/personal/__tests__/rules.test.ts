import { describe, expect, it } from 'vitest';

import {
  addressVtype,
  checkBind,
  checkChangePassword,
  checkFeedback,
  checkPayMethod,
  checkPayPassword,
  checkRealName,
  securityLevel,
  securityRank,
} from '../lib/rules';

describe('security bar', () => {
  it('starts at 25 and adds 25 for a phone, an e-mail and a deal password', () => {
    expect(securityLevel(null)).toBe(25);
    expect(securityLevel({ mobile: '', email: 'a@b.co', is_set: 0 })).toBe(50);
    expect(securityLevel({ mobile: '13800138000', email: 'a@b.co', is_set: 0 })).toBe(75);
    expect(securityLevel({ mobile: '13800138000', email: 'a@b.co', is_set: 1 })).toBe(100);
  });

  it('names 50 middle, 75 high, 100 strong', () => {
    expect([25, 50, 75, 100].map(securityRank)).toEqual(['low', 'middle', 'high', 'strong']);
  });
});

describe('password forms', () => {
  it('change: old, new, at least 6, the rule, a matching confirmation', () => {
    expect(checkChangePassword({ old: '', next: '', confirm: '' })).toBe('oldEmpty');
    expect(checkChangePassword({ old: 'old123', next: '', confirm: '' })).toBe('newEmpty');
    expect(checkChangePassword({ old: 'old123', next: 'abc12', confirm: '' })).toBe('newShort');
    expect(checkChangePassword({ old: 'old123', next: 'abc 123', confirm: '' })).toBe('newInvalid');
    expect(checkChangePassword({ old: 'old123', next: 'abc123', confirm: '' })).toBe('confirmEmpty');
    expect(checkChangePassword({ old: 'old123', next: 'abc123', confirm: 'abc124' })).toBe('differ');
    expect(checkChangePassword({ old: 'old123', next: 'abc123', confirm: 'abc123' })).toBeNull();
  });

  it('deal password: both entries, equal, then the code', () => {
    const form = { password: 'pay123', confirm: 'pay123', code: '123456', loginPassword: 'login123' };
    expect(checkPayPassword({ ...form, password: '', confirm: '', code: '' })).toBe('payEmpty');
    expect(checkPayPassword({ ...form, confirm: '', code: '' })).toBe('payConfirmEmpty');
    expect(checkPayPassword({ ...form, confirm: 'pay124', code: '' })).toBe('differ');
    expect(checkPayPassword({ ...form, code: ' ' })).toBe('codeEmpty');
    expect(checkPayPassword({ ...form, loginPassword: '' })).toBe('loginPasswordEmpty');
    expect(checkPayPassword(form)).toBeNull();
  });

  it('binding: the account of its kind, then the code', () => {
    expect(checkBind('email', '', '1')).toBe('emailEmpty');
    expect(checkBind('email', 'not-mail', '1')).toBe('emailInvalid');
    expect(checkBind('mobile', '12', '1')).toBe('mobileInvalid');
    expect(checkBind('mobile', '13800138000', '')).toBe('codeEmpty');
    expect(checkBind('email', 'bob@example.com', '123456')).toBeNull();
  });

  it('binding needs the login password when it is asked for (submit, not the code send)', () => {
    expect(checkBind('email', 'bob@example.com', '123456', '')).toBe('loginPasswordEmpty');
    expect(checkBind('email', 'bob@example.com', '', '')).toBe('codeEmpty');
    expect(checkBind('email', 'bob@example.com', '123456', 'login123')).toBeNull();
  });
});

describe('profile forms', () => {
  it('payment methods need each of their fields', () => {
    expect(checkPayMethod('alipay', {})).toBe('real_name');
    expect(checkPayMethod('alipay', { real_name: 'Li', account: 'li@pay' })).toBe('qrcode');
    expect(checkPayMethod('wxpay', { real_name: 'Li', account: 'wx', qrcode: '/u/1.png' })).toBeNull();
    expect(checkPayMethod('bank', { real_name: 'Li', bank_name: 'ICBC' })).toBe('bank_address');
    expect(checkPayMethod('bank', { real_name: 'Li', bank_name: 'ICBC', bank_address: 'Main', card_no: ' ' })).toBe('card_no');
  });

  it('real-name needs the name, the number and three images', () => {
    const full = { name: 'Li Lei', card_id: 'X1', front_pic: 'a', reverse_pic: 'b', hand_pic: 'c' };
    expect(checkRealName({ ...full, name: ' ' })).toBe('name');
    expect(checkRealName({ ...full, reverse_pic: '' })).toBe('reverse_pic');
    expect(checkRealName(full)).toBeNull();
  });

  it('feedback needs at least 10 characters', () => {
    expect(checkFeedback('   ')).toBe('feedbackEmpty');
    expect(checkFeedback('too short')).toBe('feedbackShort');
    expect(checkFeedback('0123456789')).toBeNull();
  });

  it('gives TRC20 vtype 0, other USDT chains 1, other coins 0', () => {
    expect(addressVtype('USDT', 'TRC20')).toBe(0);
    expect(addressVtype('USDT', 'ERC20')).toBe(1);
    expect(addressVtype('BTC', null)).toBe(0);
  });
});
