import { apiClient } from '@/lib/api-client';
import type { AccountKind } from '@/lib/validation';

/** Why a code is sent (notify/send_*): 1 register, 2 forgot password, 5 login. */
export const CODE_PURPOSE = { register: 1, forgotPassword: 2, login: 5 } as const;
export type CodePurpose = (typeof CODE_PURPOSE)[keyof typeof CODE_PURPOSE];

export interface SendCodeInput {
  kind: AccountKind;
  to: string;
  purpose: CodePurpose;
  areaId: number | null;
}

/** Sends a verification code by e-mail or SMS; the server's "sent" message is shown. */
export async function sendCode({ kind, to, purpose, areaId }: SendCodeInput): Promise<void> {
  const path = kind === 'email' ? 'notify/send_email' : 'notify/send_sms';
  const body = kind === 'email' ? { to: to.trim(), type: purpose } : { to: to.trim(), type: purpose, area_id: areaId };
  await apiClient.post(path, body, { loading: true, showMsg: true });
}

/** sendCode for the send-code button: true when the code went out (a failure was shown to the user). */
export async function trySendCode(input: SendCodeInput): Promise<boolean> {
  try {
    await sendCode(input);
    return true;
  } catch {
    return false;
  }
}

export interface ResetPasswordInput {
  kind: AccountKind;
  account: string;
  code: string;
  password: string;
  rePassword: string;
  countryCode: string;
}

/** Sets a new login password with a type-2 code (user/forget_password). */
export async function resetPassword(input: ResetPasswordInput): Promise<void> {
  await apiClient.post(
    'user/forget_password',
    {
      type: input.kind,
      account: input.account.trim(),
      new_password: input.password,
      secondary_password: input.rePassword,
      auth_code: input.code.trim(),
      country_code: input.kind === 'mobile' ? input.countryCode : '',
    },
    { loading: true, showMsg: true },
  );
}
