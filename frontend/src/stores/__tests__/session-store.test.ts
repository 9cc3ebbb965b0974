import { beforeEach, describe, expect, it, vi } from 'vitest';

import { fakeTransport } from '@/test/fake-transport';
import { MemoryStorage } from '@/test/memory-storage';

import { SessionStore } from '../session-store';

let storage: MemoryStorage;
let transport: ReturnType<typeof fakeTransport>;

const USER = { id: 7, email: 'alice@example.com', mobile: '13800138000', is_seller: 0 };

beforeEach(() => {
  storage = new MemoryStorage();
  vi.stubGlobal('localStorage', storage);
  transport = fakeTransport();
  transport.answer('user/login', { token: 'tok', uid: 7, account: 'alice@example.com', is_seller: 0 });
  transport.answer('user/info', USER);
});

describe('SessionStore', () => {
  it('starts logged out without a token, logged in with one', () => {
    expect(new SessionStore(transport.api).isLoggedIn).toBe(false);
    storage.setItem('token', 'saved');
    storage.setItem('account', 'bob@example.com');
    const session = new SessionStore(transport.api);
    expect(session.isLoggedIn).toBe(true);
    expect(session.label).toBe('bob@example.com');
  });

  it('logs in with the API field names, stores the token and reads user/info', async () => {
    const session = new SessionStore(transport.api);
    await session.login({ kind: 'mobile', account: ' 13800138000 ', password: 'pw1234', code: '', countryCode: '86' });

    expect(transport.post).toHaveBeenCalledWith(
      'user/login',
      { account: '13800138000', password: 'pw1234', sms_code: '', login_type: 'mobile', country_code: '86' },
      { loading: true, showMsg: true },
    );
    expect(session.isLoggedIn).toBe(true);
    expect(storage.getItem('token')).toBe('tok');
    expect(storage.getItem('uid')).toBe('7');
    await vi.waitFor(() => expect(session.user).toEqual(USER));
  });

  it('sends no country code for an e-mail login', async () => {
    const session = new SessionStore(transport.api);
    await session.login({ kind: 'email', account: 'alice@example.com', password: 'pw1234', countryCode: '1' });
    expect(transport.post.mock.calls[0]![1]).toMatchObject({ login_type: 'email', country_code: '' });
  });

  it('stays logged out when login fails', async () => {
    transport.answer('user/login', new Error('Wrong account or password'));
    const session = new SessionStore(transport.api);
    await expect(session.login({ kind: 'email', account: 'a@b.io', password: 'x' })).rejects.toThrow();
    expect(session.isLoggedIn).toBe(false);
    expect(storage.getItem('token')).toBeNull();
  });

  it('labels the account with the e-mail, else the mobile', () => {
    const session = new SessionStore(transport.api);
    session.setUser(USER);
    expect(session.label).toBe('alice@example.com');
    session.setUser({ ...USER, email: '' });
    expect(session.label).toBe('13800138000');
  });

  it('registers with the API field names; the area only for phones', async () => {
    const session = new SessionStore(transport.api);
    const form = { account: 'a@b.io', password: 'abc123', rePassword: 'abc123', code: '42', inviteCode: 'X1', areaId: 5 };
    await session.register({ kind: 'email', ...form });
    expect(transport.post).toHaveBeenLastCalledWith(
      'user/register',
      { type: 'email', account: 'a@b.io', password: 'abc123', re_password: 'abc123', sms_code: '42', invite_code: 'X1', area_id: null },
      { loading: true, showMsg: true },
    );
    await session.register({ kind: 'mobile', ...form, account: '13800138000' });
    expect(transport.post.mock.calls.at(-1)![1]).toMatchObject({ type: 'mobile', area_id: 5 });
    expect(session.isLoggedIn).toBe(false); // success leads to the login page, not into the app
  });

  it('logs out on the server, then forgets the session, flagged until the shell reached login', async () => {
    storage.setItem('token', 'tok');
    storage.setItem('uid', '7');
    const session = new SessionStore(transport.api);
    await session.logout(0);
    expect(transport.post).toHaveBeenCalledWith('user/logout', undefined, { showMsg: true, quiet: true });
    expect(session.isLoggedIn).toBe(false);
    expect(storage.getItem('token')).toBeNull();
    expect(storage.getItem('uid')).toBeNull();
    expect(session.signingOut).toBe(true);
    session.finishSignOut();
    expect(session.signingOut).toBe(false);
  });

  it('forgets the session even when the server call fails', async () => {
    transport.answer('user/logout', new Error('offline'));
    storage.setItem('token', 'tok');
    const session = new SessionStore(transport.api);
    await session.logout(0);
    expect(session.isLoggedIn).toBe(false);
  });

  it('waits one second after logging out (spec: login one second later)', async () => {
    vi.useFakeTimers();
    storage.setItem('token', 'tok');
    const session = new SessionStore(transport.api);
    let done = false;
    void session.logout().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    expect(session.isLoggedIn).toBe(true); // the account stays shown while "Logged out" is up
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    expect(session.isLoggedIn).toBe(false);
    vi.useRealTimers();
  });
});
