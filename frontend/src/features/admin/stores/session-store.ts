import { makeAutoObservable, runInAction } from 'mobx';

import { adminToken, type AdminTransport } from '../api/admin-client';
import type { LoginAnswer, Operator, Role } from '../api/types';
import { allows, menuFor, screenOf, type ScreenKey } from './menu';

export type SessionState = 'unknown' | 'anonymous' | 'must_change_password' | 'ready';

/**
 * The operator's console session: login (password + TOTP), the forced password change after a
 * one-time password, `admin/me` on reload, logout. The token lives under `admin_token`, apart from
 * the user's.
 */
export class AdminSessionStore {
  operator: Operator | null = null;
  checked = false;
  busy = false;
  error = '';

  constructor(private readonly api: AdminTransport) {
    makeAutoObservable(this, {}, { autoBind: true });
  }

  get state(): SessionState {
    if (!this.operator) return this.checked ? 'anonymous' : 'unknown';
    return this.operator.must_change_password ? 'must_change_password' : 'ready';
  }

  get roles(): Role[] {
    return this.operator?.roles ?? [];
  }

  get menu() {
    return menuFor(this.roles);
  }

  may(key: ScreenKey): boolean {
    return allows(this.roles, screenOf(key));
  }

  /** Reads who the stored token belongs to (none: anonymous). */
  async restore(): Promise<void> {
    if (!adminToken.get()) {
      this.checked = true;
      return;
    }
    try {
      const me = await this.api.get<Operator>('me');
      runInAction(() => (this.operator = me));
    } catch {
      runInAction(() => (this.operator = null));
    } finally {
      runInAction(() => (this.checked = true));
    }
  }

  async login(email: string, password: string, otp: string): Promise<SessionState> {
    return this.run(async () => {
      const answer = await this.api.post<LoginAnswer>('login', { email: email.trim(), password, otp: otp.trim() });
      this.accept(answer);
    });
  }

  /** Sets the operator's own password; the answer's token replaces the stored one (others end). */
  async changePassword(oldPassword: string, newPassword: string): Promise<SessionState> {
    return this.run(async () => {
      const answer = await this.api.post<LoginAnswer>('password', {
        old_password: oldPassword,
        new_password: newPassword,
      });
      this.accept(answer);
    });
  }

  /** The authenticator URI (for the QR code), offered only while the one-time password stands. */
  async enrolment(): Promise<string> {
    try {
      return (await this.api.get<{ uri: string }>('enrolment')).uri;
    } catch {
      return '';
    }
  }

  async logout(): Promise<void> {
    try {
      await this.api.post('logout');
    } catch {
      /* the session may already be gone; the token is dropped anyway */
    }
    this.signedOut();
  }

  /** After a 999 or a logout: forget the operator and the token. */
  signedOut(): void {
    adminToken.set(null);
    this.operator = null;
    this.checked = true;
  }

  private accept(answer: LoginAnswer): void {
    const { token, ...operator } = answer;
    adminToken.set(token);
    this.operator = operator;
    this.checked = true;
  }

  private async run(action: () => Promise<void>): Promise<SessionState> {
    this.busy = true;
    this.error = '';
    try {
      await action();
    } catch (error) {
      runInAction(() => {
        this.error = error instanceof Error ? error.message : String(error);
        this.checked = true;
      });
    } finally {
      runInAction(() => (this.busy = false));
    }
    return this.state;
  }
}
