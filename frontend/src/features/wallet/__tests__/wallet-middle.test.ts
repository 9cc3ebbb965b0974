import { describe, expect, it } from 'vitest';

import { fakeTransport } from '@/test/fake-transport';

import { createWalletApi } from '../api/wallet-api';
import { DEV_WALLET_MIDDLE_SALT, signedForm } from '../lib/wallet-middle';
import { WithdrawStore } from '../stores/withdraw-store';
import { account } from './fixtures';

const PAYLOAD = {
  user_id: 7,
  address: '0xabc',
  coin_name: 'USDT',
  contract_address: '0xdac',
  verificationcode: '123456',
  t: 1_700_000_000,
};

describe('walletMiddle signature', () => {
  it('signs data with MD5 of data + salt, as serve/wallet_middle.py checks it', () => {
    const form = signedForm(PAYLOAD, DEV_WALLET_MIDDLE_SALT);
    expect(form.get('data')).toBe(
      '{"user_id":7,"address":"0xabc","coin_name":"USDT","contract_address":"0xdac","verificationcode":"123456","t":1700000000}',
    );
    // hashlib.md5((data + "dev-only-wallet-salt").encode()).hexdigest()
    expect(form.get('sign')).toBe('88f13147c6a1daeb3cfc05f9f11dcb00');
  });
});

describe('binding a withdrawal address on the withdraw panel', () => {
  it('sends the code, then binds with a signed form and uses the address', async () => {
    const transport = fakeTransport();
    const usdt = account('USDT', 3, '100');
    usdt.currency.currency_protocols = [{ id: 300, token_address: '0xdac', chain_protocol: { code: 'ERC20' } }];
    const store = new WithdrawStore(createWalletApi(transport.api), usdt);
    store.toggleBinding();
    expect(await store.bind(7)).toBe(false);
    expect(store.bindProblem).toBe('p_addr');
    store.setBindField('bindAddress', ' 0xabc ');
    expect(await store.bind(7)).toBe(false);
    expect(store.bindProblem).toBe('codeEmpty');

    expect(await store.sendBindCode(7)).toBe(true);
    const [path, body, options] = transport.post.mock.calls.at(-1)!;
    expect(path).toBe('SendVerificationcode');
    expect(String(body)).toBe('user_id=7');
    expect(options).toMatchObject({ baseUrl: '/walletMiddle/' });

    store.setBindField('bindCode', '123456');
    transport.answer('user/addr', [{ id: 1, currency_id: 3, currency_protocol_id: 300, address: '0xabc' }]);
    expect(await store.bind(7, () => 1_700_000_000_500)).toBe(true);
    const [bindPath, form] = transport.post.mock.calls.at(-1)!;
    expect(bindPath).toBe('BindDrawAddress');
    expect(String(form)).toBe(String(signedForm(PAYLOAD)));
    expect(store.address).toBe('0xabc');
    expect(store.binding).toBe(false);
    expect(store.boundForChain).toHaveLength(1);
  });

  it('does nothing without a user id', async () => {
    const store = new WithdrawStore(createWalletApi(fakeTransport().api), account('BTC', 1, '1'));
    expect(await store.sendBindCode(null)).toBe(false);
  });
});
