import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ApiError } from '@/lib/api-client';
import { fakeTransport } from '@/test/fake-transport';

import { createWalletApi } from '../api/wallet-api';
import { AccountsStore } from '../stores/accounts-store';
import { DepositStore, toWallets } from '../stores/deposit-store';
import { RecordsStore } from '../stores/records-store';
import { TRANSFER_RELOAD_MS, TransferStore } from '../stores/transfer-store';
import { WithdrawStore } from '../stores/withdraw-store';
import { account, groups } from './fixtures';

let transport: ReturnType<typeof fakeTransport>;
const refused = () => new ApiError('Insufficient balance', 'business', { code: 0 });

beforeEach(() => {
  transport = fakeTransport();
  transport.answer('account/list', groups());
});

afterEach(() => {
  vi.useRealTimers();
});

describe('AccountsStore', () => {
  it('loads the groups and opens one row at a time', async () => {
    const store = new AccountsStore(createWalletApi(transport.api));
    await store.load();
    expect(store.status).toBe('ready');
    expect(store.account(1)?.balance).toBe('0.0125');
    store.toggle(1, 'deposit');
    expect(store.isOpen(1, 'deposit')).toBe(true);
    store.toggle(3, 'withdraw');
    expect(store.isOpen(1)).toBe(false);
    expect(store.isOpen(3, 'withdraw')).toBe(true);
    store.toggle(3, 'withdraw');
    expect(store.open).toBeNull();
  });

  it('shows an error only when nothing was loaded before', async () => {
    const store = new AccountsStore(createWalletApi(transport.api));
    transport.answer('account/list', refused());
    await store.load();
    expect(store.status).toBe('error');
    transport.answer('account/list', groups());
    await store.load();
    transport.answer('account/list', refused());
    await store.load();
    expect(store.status).toBe('ready');
    expect(store.groups).toHaveLength(3);
  });

  it('converts after checking the quantity, then reloads', async () => {
    const store = new AccountsStore(createWalletApi(transport.api));
    await store.load();
    const btc = store.account(1)!;
    store.toggle(1, 'convert');
    expect(await store.convert(btc)).toBe(false);
    expect(store.convertError).toBe('p_num');
    store.setConvertAmount('0.01');
    transport.answer('account/convert', { usdt: '680' });
    expect(await store.convert(btc)).toBe(true);
    expect(transport.post).toHaveBeenCalledWith(
      'account/convert',
      { currency_id: 1, number: '0.01', currency_protocol_id: 100 },
      expect.anything(),
    );
    expect(store.open).toBeNull();
    // the page's load, the fresh rate when the form opened, and the balances after
    expect(transport.get.mock.calls.filter(([path]) => path === 'account/list')).toHaveLength(3);
  });

  it('keeps the convert form open when the server refuses', async () => {
    const store = new AccountsStore(createWalletApi(transport.api));
    await store.load();
    store.toggle(1, 'convert');
    store.setConvertAmount('0.01');
    transport.answer('account/convert', refused());
    expect(await store.convert(store.account(1)!)).toBe(false);
    expect(store.isOpen(1, 'convert')).toBe(true);
  });
});

describe('DepositStore', () => {
  it('lists the wallets of a currency and offers a chain choice only for several', async () => {
    transport.answer('wallet/wallet', [
      { id: 1, address: '0xabc', chain_protocol: { code: 'ERC20' } },
      { id: 2, address: 'TXyz', chain_protocol: { code: 'TRC20' } },
    ]);
    const store = new DepositStore(createWalletApi(transport.api));
    await store.load(3);
    expect(transport.get).toHaveBeenCalledWith('wallet/wallet', { params: { currency_id: 3 } });
    expect(store.hasChoice).toBe(true);
    expect(store.wallet?.address).toBe('0xabc');
    store.select(1);
    expect(store.wallet?.address).toBe('TXyz');
    store.select(5);
    expect(store.wallet?.address).toBe('TXyz');
  });

  it('reads a single wallet, shows a refusal as the answer and a failure as one', async () => {
    expect(toWallets({ id: 1, address: 'bc1q', memo: '' })).toHaveLength(1);
    expect(toWallets({ wallets: [{ id: 1, address: 'a' }, { id: 2 }] })).toHaveLength(1);
    expect(toWallets(null)).toEqual([]);
    const suspended = 'Deposits of BTC are suspended: none of its chains is connected to this exchange';
    transport.answer('wallet/wallet', new ApiError(suspended, 'business', { code: 0 }));
    const store = new DepositStore(createWalletApi(transport.api));
    await store.load(1);
    expect(store.status).toBe('ready');
    expect(store.refusal).toBe(suspended);
    expect(store.wallet).toBeNull();
    transport.answer('wallet/wallet', new ApiError('timed out', 'network'));
    await store.load(1);
    expect(store.status).toBe('error');
    expect(store.refusal).toBeNull();
    expect(store.wallet).toBeNull();
  });
});

describe('WithdrawStore', () => {
  it('computes the fee and the amount received while typing', () => {
    const store = new WithdrawStore(createWalletApi(transport.api), account('USDT', 3, '1000'));
    expect(store.feePercent).toBe('1');
    store.setAmount('12.345678901');
    expect(store.amount).toBe('12.34567890');
    store.setAmount('100');
    expect(store.fee).toBe('1');
    expect(store.receive).toBe('99');
  });

  it('sends the spec fields once the form passes, and keeps it when refused', async () => {
    const store = new WithdrawStore(createWalletApi(transport.api), account('USDT', 3, '1000'));
    expect(await store.submit()).toBe(false);
    expect(store.problem).toBe('pbtwaf');
    store.setField('address', ' 0xdef ');
    store.setAmount('100');
    expect(await store.submit()).toBe(false);
    expect(store.problem).toBe('payPassword');
    store.setField('payPassword', 'secret1');
    transport.answer('account/draw', refused());
    expect(await store.submit()).toBe(false);
    expect(store.amount).toBe('100');
    transport.answer('account/draw', { id: 9 });
    expect(await store.submit()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith(
      'account/draw',
      { currency_id: 3, number: '100', address: '0xdef', pay_password: 'secret1', memo: '', currency_protocol_id: 300 },
      expect.anything(),
    );
    expect(store.amount).toBe('');
    expect(store.payPassword).toBe('');
  });
});

describe('WithdrawStore bound addresses', () => {
  it('offers the addresses bound for the chosen chain, and none when the call fails', async () => {
    transport.answer('user/addr', [
      { id: 1, currency_id: 3, currency_protocol_id: 300, address: '0xaaa' },
      { id: 2, currency_id: 3, currency_protocol_id: 301, address: 'Tbbb' },
    ]);
    const store = new WithdrawStore(createWalletApi(transport.api), account('USDT', 3, '10'));
    await store.loadBound();
    expect(transport.get).toHaveBeenCalledWith('user/addr', { params: { currency_id: 3 }, quiet: true });
    expect(store.boundForChain.map((b) => b.address)).toEqual(['0xaaa']);
    store.setProtocol(301);
    expect(store.boundForChain.map((b) => b.address)).toEqual(['Tbbb']);
    transport.answer('user/addr', refused());
    await store.loadBound();
    expect(store.bound).toEqual([]);
  });
});

describe('WithdrawStore chains', () => {
  it('reads the chains when account/list has none, and asks for the memo on memo chains', async () => {
    const xrp = account('XRP', 5, '100');
    delete xrp.currency.currency_protocols;
    transport.answer('block_chain/currency_protocols', [
      { id: 5, code: 'XRP', currency_protocols: [{ id: 51, chain_protocol: { code: 'XRP' }, uses_memo: 1 }] },
    ]);
    const store = new WithdrawStore(createWalletApi(transport.api), xrp);
    expect(store.protocolId).toBeNull();
    await store.loadProtocols();
    expect(store.protocolId).toBe(51);
    expect(store.needsMemo).toBe(true);
    store.setField('address', 'rExampleAddress1234');
    store.setAmount('10');
    store.setField('payPassword', 'secret1');
    expect(await store.submit()).toBe(false);
    expect(store.problem).toBe('memo');
    store.setField('memo', '12345');
    transport.answer('account/draw', {});
    expect(await store.submit()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith(
      'account/draw',
      expect.objectContaining({ memo: '12345', currency_protocol_id: 51 }),
      expect.anything(),
    );
  });
});

describe('WithdrawStore suspended chains', () => {
  it('chooses the first chain open for withdrawals and marks a suspended one', async () => {
    const usdt = account('USDT', 1, '100');
    delete usdt.currency.currency_protocols;
    transport.answer('block_chain/currency_protocols', [
      {
        id: 1,
        code: 'USDT',
        currency_protocols: [
          { id: 2, chain_protocol: { code: 'TRC20' }, withdraw_open: 0 },
          { id: 1, chain_protocol: { code: 'ERC20' }, withdraw_open: 1 },
        ],
      },
    ]);
    const store = new WithdrawStore(createWalletApi(transport.api), usdt);
    await store.loadProtocols();
    expect(store.protocolId).toBe(1);
    expect(store.suspended).toBe(false);
    store.setProtocol(2);
    expect(store.suspended).toBe(true);
  });
});

describe('TransferStore', () => {
  it('offers currencies held by two accounts and two different accounts', async () => {
    const accounts = new AccountsStore(createWalletApi(transport.api));
    await accounts.load();
    const store = new TransferStore(createWalletApi(transport.api), accounts);
    expect(store.currencies).toEqual([{ id: 3, code: 'USDT' }]);
    store.setCurrency(null);
    expect(store.currencyId).toBe(3);
    expect(store.from).toBe('change_account');
    expect(store.to).toBe('legal_account');
    expect(store.available).toBe('1000');
    store.setTo('change_account'); // picking the source as target swaps them
    expect(store.from).toBe('legal_account');
    expect(store.to).toBe('change_account');
    store.swap();
    expect([store.from, store.to]).toEqual(['change_account', 'legal_account']);
  });

  it('posts currency_id, balance, from, to and reloads the accounts a second later', async () => {
    vi.useFakeTimers();
    const accounts = new AccountsStore(createWalletApi(transport.api));
    await accounts.load();
    const store = new TransferStore(createWalletApi(transport.api), accounts);
    store.setCurrency(3);
    expect(await store.submit()).toBe(false);
    expect(store.problem).toBe('p_transfernum');
    store.setAmount('2000');
    expect(await store.submit()).toBe(false);
    expect(store.problem).toBe('insufficient');
    store.setAmount('250');
    transport.answer('account/transfer', {});
    expect(await store.submit()).toBe(true);
    expect(transport.post).toHaveBeenCalledWith(
      'account/transfer',
      { currency_id: 3, balance: '250', from: 'change_account', to: 'legal_account' },
      expect.anything(),
    );
    const lists = () => transport.get.mock.calls.filter(([path]) => path === 'account/list').length;
    expect(lists()).toBe(1);
    vi.advanceTimersByTime(TRANSFER_RELOAD_MS);
    expect(lists()).toBe(2);
    store.dispose();
  });
});

describe('RecordsStore', () => {
  it('reads a page of an account type, filtered by currency', async () => {
    transport.answer('account_log/lever', { data: [{ id: 1, value: '-2', created_at: 1 }], total: 16, per_page: 15, last_page: 2 });
    const store = new RecordsStore(createWalletApi(transport.api), { kind: 'records', of: 'lever' });
    store.setCurrency(3);
    await vi.waitFor(() => expect(store.status).toBe('ready'));
    expect(transport.get).toHaveBeenLastCalledWith('account_log/lever', { params: { currency_id: 3, page: 1 } });
    expect(store.total).toBe(16);
    store.setPage(2);
    expect(transport.get).toHaveBeenLastCalledWith('account_log/lever', { params: { currency_id: 3, page: 2 } });
  });

  it('reads the deposits seen on chain with their state', async () => {
    transport.answer('wallet/deposits', { data: [{ id: 2, status: 3, status_name: 'Below the minimum' }], total: 1, per_page: 15 });
    const store = new RecordsStore(createWalletApi(transport.api), { kind: 'deposits' });
    store.setCurrency(3);
    await vi.waitFor(() => expect(store.status).toBe('ready'));
    expect(transport.get).toHaveBeenLastCalledWith('wallet/deposits', { params: { currency_id: 3, page: 1 } });
    expect(store.rows).toHaveLength(1);
  });

  it('reads the withdrawal requests with their state', async () => {
    transport.answer('account/withdrawals', { data: [{ id: 4, status: 0, status_name: 'Under review' }], total: 1, per_page: 15 });
    const store = new RecordsStore(createWalletApi(transport.api), { kind: 'withdrawals' });
    await store.load();
    expect(transport.get).toHaveBeenLastCalledWith('account/withdrawals', { params: { currency_id: null, page: 1 } });
    expect(store.rows).toHaveLength(1);
  });

  it('reads the transfer log and reports an error answer', async () => {
    transport.answer('account/transfer_log', refused());
    const store = new RecordsStore(createWalletApi(transport.api), { kind: 'transferLog' });
    await store.load();
    expect(transport.get).toHaveBeenLastCalledWith('account/transfer_log', { params: { currency_id: null, page: 1 } });
    expect(store.status).toBe('error');
  });
});
