import { describe, expect, it } from 'vitest';

import {
  areaDigits,
  checkAccount,
  isEmail,
  isMobile,
  isPassword,
  validateLogin,
  validateRegister,
  validateReset,
} from '../validation';

describe('shared patterns (spec §5)', () => {
  it('mobile: digits only, at least 6', () => {
    expect(isMobile('123456')).toBe(true);
    expect(isMobile('13800138000')).toBe(true);
    expect(isMobile('12345')).toBe(false);
    expect(isMobile('+8613800138000')).toBe(false);
    expect(isMobile('138 0013 8000')).toBe(false);
    expect(isMobile('1'.repeat(21))).toBe(false);
  });

  it('e-mail: the shape of an address, any top-level part (the server decides the rest)', () => {
    expect(isEmail('alice@example.com')).toBe(true);
    expect(isEmail('a.b-c_d+e@mail.example.info')).toBe(true);
    expect(isEmail('alice@example.museum')).toBe(true);
    expect(isEmail('p2p-demo-1@demo.exchange.local')).toBe(true);
    expect(isEmail('alice@example')).toBe(false);
    expect(isEmail('alice@example.')).toBe(false);
    expect(isEmail('al ice@example.com')).toBe(false);
    expect(isEmail('alice.@example.com')).toBe(false);
    expect(isEmail('al..ice@example.com')).toBe(false);
    expect(isEmail('alice.example.com')).toBe(false);
    expect(isEmail('.alice@example.com')).toBe(false);
    expect(isEmail('alice@@example.com')).toBe(false);
    expect(isEmail(`${'a'.repeat(45)}@x.com`)).toBe(false); // over 50 characters
  });

  it('password: 6 to 16 letters or digits', () => {
    expect(isPassword('abc123')).toBe(true);
    expect(isPassword('A'.repeat(16))).toBe(true);
    expect(isPassword('abc12')).toBe(false);
    expect(isPassword('a'.repeat(17))).toBe(false);
    expect(isPassword('abc 123')).toBe(false);
    expect(isPassword('abc-123')).toBe(false);
  });

  it('area prefix keeps digits only, at most 3', () => {
    expect(areaDigits('+86')).toBe('86');
    expect(areaDigits('8a5b2')).toBe('852');
    expect(areaDigits('12345')).toBe('123');
    expect(areaDigits('abc')).toBe('');
  });

  it('names the missing or wrong account', () => {
    expect(checkAccount('email', ' ')).toBe('emailEmpty');
    expect(checkAccount('email', 'x@y')).toBe('emailInvalid');
    expect(checkAccount('mobile', '')).toBe('mobileEmpty');
    expect(checkAccount('mobile', '12ab56')).toBe('mobileInvalid');
    expect(checkAccount('mobile', ' 13800138000 ')).toBeNull();
  });
});

describe('login form', () => {
  const form = { kind: 'email' as const, account: 'alice@example.com', password: 'secret1', code: '' };

  it('requires the account, a valid phone in phone mode, and the password', () => {
    expect(validateLogin({ ...form, account: '' }, false)).toBe('emailEmpty');
    expect(validateLogin({ ...form, kind: 'mobile', account: '' }, false)).toBe('mobileEmpty');
    expect(validateLogin({ ...form, kind: 'mobile', account: '123' }, false)).toBe('mobileInvalid');
    expect(validateLogin({ ...form, password: '' }, false)).toBe('passwordEmpty');
    expect(validateLogin(form, false)).toBeNull();
  });

  it('requires the code only when login_use_sms is on', () => {
    expect(validateLogin(form, true)).toBe('codeEmpty');
    expect(validateLogin({ ...form, code: '123456' }, true)).toBeNull();
  });
});

describe('register form', () => {
  const form = {
    kind: 'email' as const,
    account: 'alice@example.com',
    code: '123456',
    password: 'secret1',
    rePassword: 'secret1',
    agreed: true,
  };

  it('accepts a complete form', () => {
    expect(validateRegister(form)).toBeNull();
    expect(validateRegister({ ...form, kind: 'mobile', account: '13800138000' })).toBeNull();
  });

  it('checks in the order of the form', () => {
    expect(validateRegister({ ...form, account: 'nope' })).toBe('emailInvalid');
    expect(validateRegister({ ...form, kind: 'mobile', account: 'alice@example.com' })).toBe('mobileInvalid');
    expect(validateRegister({ ...form, agreed: false })).toBe('privacy');
    expect(validateRegister({ ...form, code: ' ' })).toBe('codeEmpty');
    expect(validateRegister({ ...form, password: '' })).toBe('passwordEmpty');
    expect(validateRegister({ ...form, password: 'short', rePassword: 'short' })).toBe('passwordInvalid');
    expect(validateRegister({ ...form, rePassword: '' })).toBe('confirmEmpty');
    expect(validateRegister({ ...form, rePassword: 'secret2' })).toBe('passwordsDiffer');
  });
});

describe('forgotten password form', () => {
  it('needs account, code, a valid password and its equal confirmation', () => {
    const form = { kind: 'email' as const, account: 'a@b.io', code: '1', password: 'abc123', rePassword: 'abc123' };
    expect(validateReset(form)).toBeNull();
    expect(validateReset({ ...form, code: '' })).toBe('codeEmpty');
    expect(validateReset({ ...form, rePassword: 'abc124' })).toBe('passwordsDiffer');
  });
});
