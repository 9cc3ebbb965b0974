import { beforeEach, describe, expect, it, vi } from 'vitest';

import { ApiError } from '@/lib/api-client';

import { ADMIN_TOKEN_KEY } from '../api/admin-client';
import { AdminSessionStore } from '../stores/session-store';
import { fakeAdmin, memoryStorage } from './fake-admin';

let fake: ReturnType<typeof fakeAdmin>;

beforeEach(() => {
  vi.stubGlobal('localStorage', memoryStorage());
  localStorage.setItem('token', 'user-token');
  fake = fakeAdmin();
});

const operator = (extra: object = {}) => ({ id: 3, email: 'ops@ex.com', roles: ['finance'], must_change_password: false, ...extra });

describe('AdminSessionStore', () => {
  it('logs in with e-mail, password and code, keeping the token apart from the user\'s', async () => {
    fake.answer('login', { token: 'op_abc', ...operator() });
    const session = new AdminSessionStore(fake.api);
    expect(await session.login(' ops@ex.com ', 'secret-pass', ' 123456 ')).toBe('ready');
    expect(fake.post).toHaveBeenCalledWith('login', { email: 'ops@ex.com', password: 'secret-pass', otp: '123456' });
    expect(localStorage.getItem(ADMIN_TOKEN_KEY)).toBe('op_abc');
    expect(localStorage.getItem('token')).toBe('user-token');
    expect(session.operator?.roles).toEqual(['finance']);
  });

  it('after a one-time password asks for a new one, then takes the answered token', async () => {
    fake.answer('login', { token: 'op_first', ...operator({ must_change_password: true }) });
    fake.answer('password', { token: 'op_second', ...operator() });
    const session = new AdminSessionStore(fake.api);
    expect(await session.login('ops@ex.com', 'one-time', '000000')).toBe('must_change_password');
    expect(localStorage.getItem(ADMIN_TOKEN_KEY)).toBe('op_first');
    expect(await session.changePassword('one-time', 'my-own-password')).toBe('ready');
    expect(fake.post).toHaveBeenLastCalledWith('password', { old_password: 'one-time', new_password: 'my-own-password' });
    expect(localStorage.getItem(ADMIN_TOKEN_KEY)).toBe('op_second');
    expect(session.state).toBe('ready');
  });

  it('shows the refusal and stays anonymous on a wrong code', async () => {
    fake.answer('login', new ApiError('Incorrect e-mail, password or two-factor code', 'business', { code: 0 }));
    const session = new AdminSessionStore(fake.api);
    expect(await session.login('ops@ex.com', 'x', '1')).toBe('anonymous');
    expect(session.error).toBe('Incorrect e-mail, password or two-factor code');
    expect(localStorage.getItem(ADMIN_TOKEN_KEY)).toBeNull();
  });

  it('restores the operator from the stored token, or stays anonymous without one', async () => {
    const none = new AdminSessionStore(fake.api);
    await none.restore();
    expect(none.state).toBe('anonymous');
    expect(fake.get).not.toHaveBeenCalled();

    localStorage.setItem(ADMIN_TOKEN_KEY, 'op_abc');
    fake.answer('me', operator({ roles: ['support'] }));
    const session = new AdminSessionStore(fake.api);
    expect(session.state).toBe('unknown');
    await session.restore();
    expect(session.state).toBe('ready');
  });

  it('logs out: the console token goes, the user\'s stays', async () => {
    fake.answer('login', { token: 'op_abc', ...operator() });
    const session = new AdminSessionStore(fake.api);
    await session.login('ops@ex.com', 'p', '123456');
    await session.logout();
    expect(fake.post).toHaveBeenLastCalledWith('logout');
    expect(localStorage.getItem(ADMIN_TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem('token')).toBe('user-token');
    expect(session.state).toBe('anonymous');
  });
});

describe('the menu by role', () => {
  const menuOf = async (roles: string[]) => {
    fake.answer('login', { token: 'op_abc', ...operator({ roles }) });
    const session = new AdminSessionStore(fake.api);
    await session.login('ops@ex.com', 'p', '123456');
    return session;
  };

  it('shows support the dashboard, real names and users only', async () => {
    const session = await menuOf(['support']);
    expect(session.menu.map((s) => s.key)).toEqual(['dashboard', 'realNames', 'users', 'sms']);
    expect(session.may('withdrawals')).toBe(false);
    expect(session.may('audit')).toBe(false);
  });

  it('shows finance its queues, risk its queues and users, admin the trail', async () => {
    expect((await menuOf(['finance'])).menu.map((s) => s.key)).toEqual(['dashboard', 'withdrawals', 'deposits', 'conservation', 'chain']);
    expect((await menuOf(['risk'])).menu.map((s) => s.key)).toEqual(['dashboard', 'appeals', 'users', 'sms']);
    expect((await menuOf(['admin'])).menu.map((s) => s.key)).toEqual(['dashboard', 'audit']);
    expect((await menuOf(['markets'])).menu.map((s) => s.key)).toEqual(['dashboard', 'markets', 'currencies', 'placement']);
  });

  it('joins the screens of several roles, each once', async () => {
    const keys = (await menuOf(['support', 'risk', 'content'])).menu.map((s) => s.key);
    expect(keys).toEqual(['dashboard', 'realNames', 'appeals', 'users', 'sms', 'content']);
  });
});
