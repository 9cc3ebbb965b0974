import { makeAutoObservable, runInAction } from 'mobx';

import type { AdminTransport } from '../api/admin-client';
import type { SmsCeilings, SmsMessage, SmsState } from '../api/sms-types';
import type { Page } from '../api/types';
import { messageOf, Resource } from './resource';

/** What became of the last ceiling change, for the form's message. */
export type CeilingState = 'idle' | 'sending' | 'saved' | 'failed';

/** The ceiling form as typed: a country (ISO 3166, two letters) and codes a minute (empty: the default). */
export interface CeilingDraft {
  region: string;
  perMinute: string;
}

const EMPTY_CEILING: CeilingDraft = { region: '', perMinute: '' };
const REGION = /^[A-Z]{2}$/;
const WHOLE = /^\d{1,7}$/;
const MOST_PER_MINUTE = 1_000_000; // the server's bound

/** The `admin/sms/messages` query: the state and number when chosen, the number's digits only. */
export function smsQuery(state: SmsState | null, to: string, page: number): Record<string, string | number> {
  const query: Record<string, string | number> = { page };
  if (state) query.state = state;
  const digits = to.replace(/[^\d]/g, '');
  if (digits) query.to = digits;
  return query;
}

/**
 * The SMS outbox (support and risk): every message with its state, provider and error, newest first,
 * by state and number; and for the risk role the per-country ceilings of codes a minute (SMS pumping),
 * set or cleared back to the default (the server audits each change).
 */
export class SmsStore {
  readonly messages: Resource<Page<SmsMessage>>;
  readonly ceilings: Resource<SmsCeilings>;
  state: SmsState | null = null;
  /** The number filter as typed, and as applied. */
  toDraft = '';
  to = '';
  page = 1;
  draft: CeilingDraft = { ...EMPTY_CEILING };
  ceilingState: CeilingState = 'idle';
  ceilingError = '';

  constructor(private readonly api: AdminTransport) {
    this.messages = new Resource(() => this.api.get<Page<SmsMessage>>('sms/messages', smsQuery(this.state, this.to, this.page)));
    this.ceilings = new Resource(() => this.api.get<SmsCeilings>('sms/ceilings'));
    makeAutoObservable(this, {}, { autoBind: true });
  }

  get lastPage(): number {
    const data = this.messages.data;
    return data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;
  }

  setState(state: SmsState | null): void {
    this.state = state;
    this.page = 1;
    void this.messages.load();
  }

  setToDraft(value: string): void {
    this.toDraft = value;
  }

  /** Shows the messages to the number typed (all numbers when empty). */
  applyTo(): void {
    this.to = this.toDraft.trim();
    this.page = 1;
    void this.messages.load();
  }

  setPage(page: number): void {
    this.page = Math.min(Math.max(1, page), this.lastPage);
    void this.messages.load();
  }

  change(field: keyof CeilingDraft, value: string): void {
    this.draft = { ...this.draft, [field]: value };
  }

  /** The ceiling as it is sent: the country in capitals, the figure a whole number or null (the default). */
  get ceilingRequest(): { region: string; per_minute: number | null } | null {
    const region = this.draft.region.trim().toUpperCase();
    const text = this.draft.perMinute.trim();
    if (!REGION.test(region)) return null;
    if (text === '') return { region, per_minute: null };
    if (!WHOLE.test(text) || Number(text) > MOST_PER_MINUTE) return null;
    return { region, per_minute: Number(text) };
  }

  /** Fills the form with a country's ceiling, to change it. */
  edit(region: string, perMinute: number | null): void {
    this.draft = { region, perMinute: perMinute === null ? '' : String(perMinute) };
  }

  /** Sets (or, with an empty figure, clears) a country's ceiling, then reads the ceilings again. */
  async saveCeiling(): Promise<boolean> {
    const request = this.ceilingRequest;
    if (!request || this.ceilingState === 'sending') return false;
    this.ceilingState = 'sending';
    this.ceilingError = '';
    try {
      await this.api.post('sms/ceilings/save', request);
      runInAction(() => {
        this.ceilingState = 'saved';
        this.draft = { ...EMPTY_CEILING };
      });
    } catch (error) {
      runInAction(() => {
        this.ceilingError = messageOf(error);
        this.ceilingState = 'failed';
      });
      return false;
    }
    await this.ceilings.load();
    return true;
  }
}
