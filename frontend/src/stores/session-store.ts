import { makeAutoObservable } from 'mobx';

import type { ApiTransport } from '@/lib/api-client';
import { STORAGE_KEYS, storage } from '@/lib/storage';
import type { AccountKind } from '@/lib/validation';
import type { LoginAnswer, UserInfo } from '@/types/api';

/** After logout the app goes to login one second later (spec §2). */
export const LOGOUT_DELAY_MS = 1000;

export interface LoginInput {
  kind: AccountKind;
  account: string;
  password: string;
  /** Verification code, sent only when the login_use_sms setting is on. */
  code?: string;
  /** Dialling code without "+", for phone logins. */
  countryCode?: string;
}

export interface RegisterInput {
  kind: AccountKind;
  account: string;
  password: string;
  rePassword: string;
  code: string;
  inviteCode: string;
  areaId: number | null;
}

/**
 * Who is logged in. The token is the login state (spec §4: present means logged in); it lives in
 * localStorage with the uid and the account label so a reload keeps the session.
 */
export class SessionStore {
  token: string | null;
  uid: number | null;
  /** E-mail or mobile remembered from the last login, shown until user/info answers. */
  account: string;
  user: UserInfo | null = null;
  /** Between the logout click and the arrival on the login page. */
  signingOut = false;

  constructor(private readonly api: ApiTransport) {
    this.token = storage.get(STORAGE_KEYS.token);
    const uid = Number(storage.get(STORAGE_KEYS.uid));
    this.uid = Number.isInteger(uid) && uid > 0 ? uid : null;
    this.account = storage.get(STORAGE_KEYS.account) ?? '';
    makeAutoObservable<SessionStore, 'api'>(this, { api: false });
  }

  get isLoggedIn(): boolean {
    return Boolean(this.token);
  }

  /** The account dropdown's label: the e-mail, or the mobile when there is no e-mail. */
  get label(): string {
    if (this.user) return this.user.email || this.user.mobile || this.account;
    return this.account;
  }

  /** Logs in; resolves once the token is stored, rejects with the API's error. */
  async login(input: LoginInput): Promise<void> {
    const answer = await this.api.post<LoginAnswer>(
      'user/login',
      {
        account: input.account.trim(),
        password: input.password,
        sms_code: input.code?.trim() ?? '',
        login_type: input.kind,
        country_code: input.kind === 'mobile' ? (input.countryCode ?? '') : '',
      },
      { loading: true, showMsg: true },
    );
    if (!answer?.token) return;
    this.start(answer);
    void this.loadUser();
  }

  /** Creates the account; the caller then sends the user to login (spec §2). */
  async register(input: RegisterInput): Promise<void> {
    await this.api.post(
      'user/register',
      {
        type: input.kind,
        account: input.account.trim(),
        password: input.password,
        re_password: input.rePassword,
        sms_code: input.code.trim(),
        invite_code: input.inviteCode.trim(),
        area_id: input.kind === 'mobile' ? input.areaId : null,
      },
      { loading: true, showMsg: true },
    );
  }

  /**
   * Ends the session on the server (an expired token is as good as logged out), waits `delayMs`
   * while the "Logged out" message shows (spec §2), then forgets it locally. `signingOut` stays
   * true until the shell has reached the login page (`finishSignOut`), so login-only pages do not
   * send the user to login with the "log in and trade" message on the way.
   */
  async logout(delayMs = LOGOUT_DELAY_MS): Promise<void> {
    this.signingOut = true;
    try {
      if (this.token) await this.api.post('user/logout', undefined, { showMsg: true, quiet: true });
    } catch {
      // Nothing to end on the server.
    }
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    this.clear();
  }

  finishSignOut(): void {
    this.signingOut = false;
  }

  /** Reads user/info (id, e-mail, mobile, is_seller) for the shell. */
  async loadUser(): Promise<void> {
    if (!this.token) return;
    const user = await this.api.get<UserInfo>('user/info', { quiet: true }).catch(() => undefined);
    if (user) this.setUser(user);
  }

  setUser(user: UserInfo): void {
    this.user = user;
    this.uid = user.id;
    const label = user.email || user.mobile;
    if (label) {
      this.account = label;
      storage.set(STORAGE_KEYS.account, label);
    }
    storage.set(STORAGE_KEYS.isSeller, String(user.is_seller ?? 0));
  }

  /** Forget the session locally (after logout, or when the API answered 999). */
  clear(): void {
    this.token = null;
    this.uid = null;
    this.user = null;
    this.account = '';
    for (const key of [STORAGE_KEYS.token, STORAGE_KEYS.uid, STORAGE_KEYS.account, STORAGE_KEYS.isSeller]) {
      storage.remove(key);
    }
  }

  private start(answer: LoginAnswer): void {
    this.token = answer.token;
    this.uid = answer.uid;
    this.account = answer.account ?? '';
    storage.set(STORAGE_KEYS.token, answer.token);
    storage.set(STORAGE_KEYS.uid, String(answer.uid));
    storage.set(STORAGE_KEYS.account, this.account);
    storage.set(STORAGE_KEYS.isSeller, String(answer.is_seller ?? 0));
  }
}
