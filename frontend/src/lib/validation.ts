/**
 * Form rules of spec §5 (shell) and §5 (personal), the same patterns the API enforces in
 * serve/api/schemas.py. Each check answers a translation key under `validation.` or null.
 */

/** Mobile: digits only, at least 6 (the API caps it at 20). */
export const MOBILE_RE = /^\d{6,20}$/;
/**
 * E-mail: only the shape (a name, @, a domain with a dot; no spaces, no leading, trailing or doubled
 * dot in the name). The server decides what is valid (serve/emails.py, email-validator): the spec's
 * 2 to 4 letter top-level part refused real addresses (.museum, .travel, .local), issue 27.
 */
export const EMAIL_RE = /^(?!\.)(?!.*\.\.)[^\s@]+(?<!\.)@[^\s@.]+(?:\.[^\s@.]+)+$/;
/** Login password: 6 to 16 letters or digits. */
export const PASSWORD_RE = /^[A-Za-z0-9]{6,16}$/;

export const INPUT_LIMITS = { email: 50, mobile: 20, code: 16, areaCode: 3, password: 16 } as const;

export type AccountKind = 'email' | 'mobile';

export type ValidationKey =
  | 'emailEmpty'
  | 'emailInvalid'
  | 'mobileEmpty'
  | 'mobileInvalid'
  | 'passwordEmpty'
  | 'passwordInvalid'
  | 'confirmEmpty'
  | 'passwordsDiffer'
  | 'codeEmpty'
  | 'privacy';

export function isMobile(value: string): boolean {
  return MOBILE_RE.test(value);
}

export function isEmail(value: string): boolean {
  return value.length <= INPUT_LIMITS.email && EMAIL_RE.test(value);
}

export function isPassword(value: string): boolean {
  return PASSWORD_RE.test(value);
}

/** What the area-prefix field keeps of a typed value: digits only, at most 3. */
export function areaDigits(value: string): string {
  return value.replace(/\D+/g, '').slice(0, INPUT_LIMITS.areaCode);
}

export function checkAccount(kind: AccountKind, account: string): ValidationKey | null {
  const value = account.trim();
  if (kind === 'email') {
    if (!value) return 'emailEmpty';
    return isEmail(value) ? null : 'emailInvalid';
  }
  if (!value) return 'mobileEmpty';
  return isMobile(value) ? null : 'mobileInvalid';
}

export interface LoginForm {
  kind: AccountKind;
  account: string;
  password: string;
  code: string;
}

/** Login: account (a valid phone in phone mode), password, and a code when login_use_sms is on. */
export function validateLogin(form: LoginForm, needsCode: boolean): ValidationKey | null {
  const value = form.account.trim();
  if (!value) return form.kind === 'email' ? 'emailEmpty' : 'mobileEmpty';
  if (form.kind === 'mobile' && !isMobile(value)) return 'mobileInvalid';
  if (!form.password) return 'passwordEmpty';
  if (needsCode && !form.code.trim()) return 'codeEmpty';
  return null;
}

export interface RegisterForm {
  kind: AccountKind;
  account: string;
  code: string;
  password: string;
  rePassword: string;
  agreed: boolean;
}

/** Register: account of the tab's kind, privacy ticked, code, password (6–16), matching repeat. */
export function validateRegister(form: RegisterForm): ValidationKey | null {
  return (
    checkAccount(form.kind, form.account) ??
    (form.agreed ? null : 'privacy') ??
    (form.code.trim() ? null : 'codeEmpty') ??
    checkNewPassword(form.password, form.rePassword)
  );
}

export interface ResetForm {
  kind: AccountKind;
  account: string;
  code: string;
  password: string;
  rePassword: string;
}

/** Forgotten password: account, code, password passing the rule, equal confirmation. */
export function validateReset(form: ResetForm): ValidationKey | null {
  return (
    checkAccount(form.kind, form.account) ??
    (form.code.trim() ? null : 'codeEmpty') ??
    checkNewPassword(form.password, form.rePassword)
  );
}

function checkNewPassword(password: string, rePassword: string): ValidationKey | null {
  if (!password) return 'passwordEmpty';
  if (!isPassword(password)) return 'passwordInvalid';
  if (!rePassword) return 'confirmEmpty';
  return password === rePassword ? null : 'passwordsDiffer';
}
