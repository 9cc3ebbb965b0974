/**
 * The account page (security bar, codes) and the password and binding forms. Each form keeps its
 * fields, its first problem (a translation key) and a busy flag; submit resolves true on success.
 */
import { makeAutoObservable, runInAction } from 'mobx';

import type { AccountKind } from '@/lib/validation';
import type { UserInfo } from '@/types/api';

import { CODE_PURPOSE, type PersonalApi } from '../api/personal-api';
import {
  checkBind,
  checkChangePassword,
  checkPayPassword,
  securityLevel,
  securityRank,
  type PasswordProblem,
  type PayPasswordProblem,
} from '../lib/rules';

export class AccountSettingsStore {
  user: UserInfo | null = null;
  authorizationCode = '';
  failed = false;

  constructor(private readonly api: PersonalApi) {
    makeAutoObservable<AccountSettingsStore, 'api'>(this, { api: false });
  }

  get level(): number {
    return securityLevel(this.user);
  }

  get rank() {
    return securityRank(this.level);
  }

  /** user/info, then the authorization code when the operator shows it (show_auth 1). */
  async load(): Promise<UserInfo | null> {
    try {
      const user = await this.api.userInfo();
      runInAction(() => {
        this.user = user ?? null;
        this.failed = !user;
      });
      if (user && Number(user.show_auth) === 1) {
        const answer = await this.api.authorizationCode().catch(() => undefined);
        runInAction(() => {
          this.authorizationCode = answer?.code ?? '';
        });
      }
      return user ?? null;
    } catch {
      runInAction(() => {
        this.failed = true;
      });
      return null;
    }
  }
}

/** Runs `call` with the busy flag; false when it failed (the request layer showed why). */
async function guarded(form: { busy: boolean }, call: () => Promise<unknown>): Promise<boolean> {
  if (form.busy) return false;
  runInAction(() => {
    form.busy = true;
  });
  try {
    await call();
    return true;
  } catch {
    return false;
  } finally {
    runInAction(() => {
      form.busy = false;
    });
  }
}

export class ChangePasswordStore {
  old = '';
  next = '';
  confirm = '';
  problem: PasswordProblem | null = null;
  busy = false;

  constructor(private readonly api: PersonalApi) {
    makeAutoObservable<ChangePasswordStore, 'api'>(this, { api: false });
  }

  set(field: 'old' | 'next' | 'confirm', value: string): void {
    this[field] = value;
    this.problem = null;
  }

  async submit(): Promise<boolean> {
    this.problem = checkChangePassword(this);
    if (this.problem) return false;
    return guarded(this, () =>
      this.api.amendPassword({ old_password: this.old, new_password: this.next, secondary_password: this.confirm }),
    );
  }
}

export class PayPasswordStore {
  password = '';
  confirm = '';
  code = '';
  loginPassword = '';
  /** Where the type-3 code goes: the user's e-mail when bound, else the phone. */
  via: AccountKind = 'email';
  problem: PayPasswordProblem | null = null;
  busy = false;

  constructor(private readonly api: PersonalApi) {
    makeAutoObservable<PayPasswordStore, 'api'>(this, { api: false });
  }

  set(field: 'password' | 'confirm' | 'code' | 'loginPassword', value: string): void {
    this[field] = value;
    this.problem = null;
  }

  setVia(via: AccountKind): void {
    this.via = via;
  }

  /** Sends the code to the user's own e-mail or phone (the server picks the address). */
  async sendCode(): Promise<boolean> {
    try {
      await this.api.sendCode(this.via, { to: '', type: CODE_PURPOSE.payPassword });
      return true;
    } catch {
      return false;
    }
  }

  async submit(): Promise<boolean> {
    this.problem = checkPayPassword(this);
    if (this.problem) return false;
    return guarded(this, () =>
      this.api.amendPayPassword({
        password: this.password,
        re_password: this.confirm,
        auth_code: this.code.trim(),
        vtype: this.via,
        login_password: this.loginPassword,
      }),
    );
  }
}

/** Binding an e-mail (/bindAccount) or a phone (/bindPhone) with a type-6 code and the login password. */
export class BindStore {
  account = '';
  code = '';
  loginPassword = '';
  areaId: number | null = null;
  problem: string | null = null;
  busy = false;

  constructor(
    private readonly api: PersonalApi,
    readonly kind: AccountKind,
  ) {
    makeAutoObservable<BindStore, 'api'>(this, { api: false, kind: false });
  }

  set(field: 'account' | 'code' | 'loginPassword', value: string): void {
    this[field] = value;
    this.problem = null;
  }

  setPhone(mobile: string, areaId: number | null): void {
    // The country list arriving picks a default country: that alone keeps the shown problem.
    if (mobile !== this.account) this.problem = null;
    this.account = mobile;
    this.areaId = areaId;
  }

  async sendCode(): Promise<boolean> {
    this.problem = checkBind(this.kind, this.account, 'x');
    if (this.problem) return false;
    try {
      const to = this.account.trim();
      await this.api.sendCode(this.kind, this.kind === 'email' ? { to, type: CODE_PURPOSE.bind } : { to, type: CODE_PURPOSE.bind, area_id: this.areaId });
      return true;
    } catch {
      return false;
    }
  }

  async submit(): Promise<boolean> {
    this.problem = checkBind(this.kind, this.account, this.code, this.loginPassword);
    if (this.problem) return false;
    return guarded(this, () =>
      this.api.bindAccount({
        type: this.kind === 'mobile' ? 1 : 2,
        account: this.account.trim(),
        sms_code: this.code.trim(),
        area_id: this.kind === 'mobile' ? this.areaId : null,
        login_password: this.loginPassword,
      }),
    );
  }
}
