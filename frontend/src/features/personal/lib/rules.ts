/** The personal centre's form rules (spec trading §4, §5), free of React and MobX. */
import { checkAccount, isPassword, type AccountKind } from '@/lib/validation';
import type { UserInfo } from '@/types/api';

import type { PayMethodCode, PayRawData } from '../types';

/** Feedback needs at least 10 characters (shell §9). */
export const FEEDBACK_MIN_LENGTH = 10;
/** Change login password: the new one at least 6 characters (spec §9). */
export const PASSWORD_MIN_LENGTH = 6;

export type SecurityRank = 'low' | 'middle' | 'high' | 'strong';

/** 25, +25 for a phone, +25 for an e-mail, +25 for a deal password (spec §4). */
export function securityLevel(user: Pick<UserInfo, 'mobile' | 'email' | 'is_set'> | null): number {
  if (!user) return 25;
  return 25 + (user.mobile ? 25 : 0) + (user.email ? 25 : 0) + (Number(user.is_set) === 1 ? 25 : 0);
}

/** 50 middle, 75 high, 100 strong; 25 low. */
export function securityRank(level: number): SecurityRank {
  if (level >= 100) return 'strong';
  if (level >= 75) return 'high';
  if (level >= 50) return 'middle';
  return 'low';
}

export type PasswordProblem =
  | 'oldEmpty'
  | 'newEmpty'
  | 'newShort'
  | 'newInvalid'
  | 'confirmEmpty'
  | 'differ';

/** Change login password: old required, new required, at least 6, the API's rule, equal confirmation. */
export function checkChangePassword(form: { old: string; next: string; confirm: string }): PasswordProblem | null {
  if (!form.old) return 'oldEmpty';
  if (!form.next) return 'newEmpty';
  if (form.next.length < PASSWORD_MIN_LENGTH) return 'newShort';
  if (!isPassword(form.next)) return 'newInvalid';
  if (!form.confirm) return 'confirmEmpty';
  return form.next === form.confirm ? null : 'differ';
}

export type PayPasswordProblem =
  | 'payEmpty'
  | 'payInvalid'
  | 'payConfirmEmpty'
  | 'differ'
  | 'codeEmpty'
  | 'loginPasswordEmpty';

/** Deal password: both entries required and equal, the code, and the login password confirming it. */
export function checkPayPassword(form: {
  password: string;
  confirm: string;
  code: string;
  loginPassword: string;
}): PayPasswordProblem | null {
  if (!form.password) return 'payEmpty';
  if (!isPassword(form.password)) return 'payInvalid';
  if (!form.confirm) return 'payConfirmEmpty';
  if (form.password !== form.confirm) return 'differ';
  if (!form.code.trim()) return 'codeEmpty';
  return form.loginPassword ? null : 'loginPasswordEmpty';
}

/** Problems of the bind pages that are theirs (`problems.*`); the others are keys of `validation`. */
export const BIND_PROBLEMS = ['codeEmpty', 'loginPasswordEmpty'] as const;

/**
 * Bind pages: account (of its kind), code and, when given, the login password required. Answers a key
 * of `validation` or one of `BIND_PROBLEMS`. Sending the code checks the account only (code 'x', no
 * login password).
 */
export function checkBind(kind: AccountKind, account: string, code: string, loginPassword?: string): string | null {
  const problem = checkAccount(kind, account) ?? (code.trim() ? null : 'codeEmpty');
  return problem ?? (loginPassword === undefined || loginPassword ? null : 'loginPasswordEmpty');
}

/** The fields each payment method needs, in the order their prompts show (spec §5). */
export const PAY_FIELDS: Record<PayMethodCode, (keyof PayRawData)[]> = {
  alipay: ['real_name', 'account', 'qrcode'],
  wxpay: ['real_name', 'account', 'qrcode'],
  bank: ['real_name', 'bank_name', 'bank_address', 'card_no'],
};

/** The first missing field of a payment method, or null. */
export function checkPayMethod(code: PayMethodCode, raw: PayRawData): keyof PayRawData | null {
  return PAY_FIELDS[code].find((field) => !(raw[field] ?? '').trim()) ?? null;
}

export interface RealNameForm {
  name: string;
  card_id: string;
  front_pic: string;
  reverse_pic: string;
  hand_pic: string;
}

/** Real-name: name, ID number, front, back and hand-held images are all required. */
export function checkRealName(form: RealNameForm): keyof RealNameForm | null {
  const order: (keyof RealNameForm)[] = ['name', 'card_id', 'front_pic', 'reverse_pic', 'hand_pic'];
  return order.find((field) => !form[field].trim()) ?? null;
}

export function checkFeedback(content: string): 'feedbackEmpty' | 'feedbackShort' | null {
  const text = content.trim();
  if (!text) return 'feedbackEmpty';
  return text.length < FEEDBACK_MIN_LENGTH ? 'feedbackShort' : null;
}

/** user/addr's vtype (spec §7): TRC20 gives 0; otherwise 1 for USDT, 0 for others. */
export function addressVtype(currencyCode: string, chainCode: string | null | undefined): 0 | 1 {
  if ((chainCode ?? '').toUpperCase() === 'TRC20') return 0;
  return currencyCode.toUpperCase() === 'USDT' ? 1 : 0;
}
