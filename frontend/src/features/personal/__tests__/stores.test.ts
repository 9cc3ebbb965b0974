import { beforeEach, describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';
import { fakeTransport } from '@/test/fake-transport';

import { createPersonalApi } from '../api/personal-api';
import { BindAddressStore, FeedbackStore, PayMethodStore, RealNameStore } from '../stores/profile-stores';
import { AccountSettingsStore, BindStore, ChangePasswordStore, PayPasswordStore } from '../stores/security-stores';

let transport: ReturnType<typeof fakeTransport>;
const api = () => createPersonalApi(transport.api);
const refused = () => new ApiError('Wrong code', 'business', { code: 0 });

beforeEach(() => {
  transport = fakeTransport();
});

describe('AccountSettingsStore', () => {
  it('reads the user, the level and the authorization code when shown', async () => {
    transport.answer('user/info', { id: 1, email: 'a@b.co', mobile: '', is_seller: 0, is_set: 1, show_auth: 1 });
    transport.answer('user/authorization_code', { code: 'AB12CD34' });
    const store = new AccountSettingsStore(api());
    await store.load();
    expect(store.level).toBe(75);
    expect(store.rank).toBe('high');
    expect(store.authorizationCode).toBe('AB12CD34');
  });

  it('does not ask for the code when show_auth is 0, and marks a failed read', async () => {
    transport.answer('user/info', { id: 1, email: '', mobile: '1380013800', is_seller: 0, show_auth: 0 });
    const store = new AccountSettingsStore(api());
    await store.load();
    expect(transport.get).not.toHaveBeenCalledWith('user/authorization_code', expect.anything());
    transport.answer('user/info', refused());
    const failing = new AccountSettingsStore(api());
    await failing.load();
    expect(failing.failed).toBe(true);
  });
});

describe('password and binding forms', () => {
  it('changes the login password with the spec field names', async () => {
    const store = new ChangePasswordStore(api());
    store.set('old', 'old123');
    store.set('next', 'new123');
    store.set('confirm', 'new123');
    transport.answer('user/amend_password', null);
    expect(await store.submit()).toBe(true);
    expect(transport.post).toHaveBeenCalledWith(
      'user/amend_password',
      { old_password: 'old123', new_password: 'new123', secondary_password: 'new123' },
      expect.anything(),
    );
  });

  it('sends a type-3 code to the own e-mail and sets the deal password', async () => {
    const store = new PayPasswordStore(api());
    expect(await store.sendCode()).toBe(true);
    expect(transport.post).toHaveBeenCalledWith('notify/send_email', { to: '', type: 3 }, expect.anything());
    store.set('password', 'pay123');
    store.set('confirm', 'pay123');
    store.set('code', ' 123456 ');
    expect(await store.submit()).toBe(false);
    expect(store.problem).toBe('loginPasswordEmpty');
    store.set('loginPassword', 'login123');
    transport.answer('user/amend_pay_password', refused());
    expect(await store.submit()).toBe(false);
    expect(store.busy).toBe(false);
    transport.answer('user/amend_pay_password', null);
    expect(await store.submit()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith(
      'user/amend_pay_password',
      { password: 'pay123', re_password: 'pay123', auth_code: '123456', vtype: 'email', login_password: 'login123' },
      expect.anything(),
    );
  });

  it('binds a phone (type 1, with its area) and an e-mail (type 2) with a type-6 code', async () => {
    const phone = new BindStore(api(), 'mobile');
    expect(await phone.sendCode()).toBe(false);
    expect(phone.problem).toBe('mobileEmpty');
    phone.setPhone('13800138000', 44);
    expect(await phone.sendCode()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith('notify/send_sms', { to: '13800138000', type: 6, area_id: 44 }, expect.anything());
    phone.set('code', '654321');
    expect(await phone.submit()).toBe(false);
    expect(phone.problem).toBe('loginPasswordEmpty');
    phone.set('loginPassword', 'login123');
    expect(await phone.submit()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith(
      'user/bind_account',
      { type: 1, account: '13800138000', sms_code: '654321', area_id: 44, login_password: 'login123' },
      expect.anything(),
    );
    const email = new BindStore(api(), 'email');
    email.set('account', 'bob@example.com');
    expect(await email.submit()).toBe(false);
    expect(email.problem).toBe('codeEmpty');
    email.set('code', '111111');
    email.set('loginPassword', 'login123');
    expect(await email.submit()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith(
      'user/bind_account',
      { type: 2, account: 'bob@example.com', sms_code: '111111', area_id: null, login_password: 'login123' },
      expect.anything(),
    );
  });
});

describe('profile stores', () => {
  it('loads the payment types, the saved method, and saves raw_data', async () => {
    transport.answer('pay_method/types', [
      { id: 1, name: 'Alipay', code: 'alipay' },
      { id: 3, name: 'Bank', code: 'bank' },
    ]);
    transport.answer('pay_method/get_method_by_type', { raw_data: { real_name: 'Li', account: 'li@pay' } });
    const store = new PayMethodStore(api());
    await store.load();
    expect(store.raw.account).toBe('li@pay');
    expect(await store.save()).toBe(false);
    expect(store.problem).toBe('qrcode');
    transport.answer('pay_method/get_method_by_type', null);
    await store.select('bank');
    expect(store.raw).toEqual({});
    for (const [k, v] of [['real_name', 'Li'], ['bank_name', 'ICBC'], ['bank_address', 'Main'], ['card_no', '6222']] as const) store.set(k, v);
    expect(await store.save()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith(
      'pay_method/save',
      { type: 3, raw_data: { real_name: 'Li', bank_name: 'ICBC', bank_address: 'Main', card_no: '6222' } },
      expect.anything(),
    );
  });

  it('shows the review state and submits the real-name form', async () => {
    transport.answer('user_real/center', { review_status: 0, reject_reason: 'Blurred photo' });
    const store = new RealNameStore(api());
    await store.load();
    expect(store.reviewStatus).toBe(0);
    expect(store.rejectReason).toBe('Blurred photo');
    expect(await store.submit()).toBe(false);
    expect(store.problem).toBe('name');
    for (const [k, v] of [['name', ' Li Lei '], ['card_id', 'X1'], ['front_pic', '/a'], ['reverse_pic', '/b'], ['hand_pic', '/c']] as const)
      store.set(k, v);
    transport.answer('user_real/center', { review_status: 1 });
    expect(await store.submit()).toBe(true);
    expect(transport.post).toHaveBeenCalledWith(
      'user_real/real_name',
      { name: 'Li Lei', card_id: 'X1', front_pic: '/a', reverse_pic: '/b', hand_pic: '/c' },
      expect.anything(),
    );
    expect(store.reviewStatus).toBe(1);
  });

  it('binds an address with the currency id as type and the vtype rule', async () => {
    transport.answer('block_chain/currency_protocols', [
      { id: 1, code: 'BTC', currency_protocols: [{ id: 11, chain_protocol: { code: 'BTC' } }] },
      { id: 3, code: 'USDT', currency_protocols: [{ id: 31, chain_protocol: { code: 'ERC20' } }, { id: 32, chain_protocol: { code: 'TRC20' } }] },
    ]);
    const store = new BindAddressStore(api());
    await store.load();
    store.setCurrency(3);
    expect(store.protocolId).toBe(31);
    expect(await store.bind()).toBe(false);
    expect(store.problem).toBe('p_addr');
    store.setProtocol(32);
    store.setAddress(' TXabc ');
    expect(await store.bind()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith(
      'user/addr',
      { type: 3, addr: 'TXabc', vtype: 0, currency_protocol_id: 32 },
      expect.anything(),
    );
    transport.answer('user/addr', [{ id: 1, currency_id: 3, address: 'TXabc', chain_protocol: { code: 'TRC20' } }]);
    await store.loadBound();
    expect(store.bound).toHaveLength(1);
  });

  it('refuses feedback under 10 characters', async () => {
    const store = new FeedbackStore(api());
    store.setContent('short');
    expect(await store.submit()).toBe(false);
    expect(store.problem).toBe('feedbackShort');
    store.setContent('The deposit page is lovely');
    expect(await store.submit()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith('feedback/add', { content: 'The deposit page is lovely' }, expect.anything());
    expect(store.sent).toBe(true);
    expect(store.content).toBe('');
  });
});
