// The console's SMS screen: the queue's messages and the per-country ceilings.

/** An SMS queue state (store/models/sms.py SmsState). */
export const SMS_STATES = ['queued', 'sending', 'sent', 'delivered', 'failed'] as const;
export type SmsState = (typeof SMS_STATES)[number];

/** A message of the SMS queue as admin/sms/messages answers it (the code masked in `text`). */
export interface SmsMessage {
  id: number;
  to: string;
  region: string;
  /** The code's send type (notify: 1 register, 2 forgot password, 3 deal password, 5 login, 6 binding). */
  purpose: number;
  state: SmsState;
  provider: string;
  provider_ref: string;
  parts: number;
  rounds: number;
  error: string;
  text: string;
  /** Unix seconds. */
  created_at: number | null;
  sent_at: number | null;
  done_at: number | null;
}

/** admin/sms/ceilings: the default codes a minute per country, and each country's own. */
export interface SmsCeilings {
  default: number;
  list: { region: string; per_minute: number; used: number }[];
}
