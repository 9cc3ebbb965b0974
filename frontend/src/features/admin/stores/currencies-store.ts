import { makeAutoObservable } from 'mobx';

import type { AdminTransport } from '../api/admin-client';
import type { AdminCurrency, AdminCurrencyUpdated } from '../api/types';
import { Resource } from './resource';
import { changedFields, type ChangeState, draftOf, sendChange } from './settings-form';

/** A currency's two switches: deposits credited (`open_recharge`) and withdrawals taken (`open_draw`). */
export type CurrencySwitch = 'open_recharge' | 'open_draw';

/** What the edit form changes: withdrawal fee and bounds, deposit minimum, confirmations, stakes. */
export const CURRENCY_FIELDS = [
  'draw_rate', 'draw_min', 'draw_max', 'recharge_min', 'confirmations',
  'micro_numbers', 'micro_min', 'micro_max', 'micro_max_open',
] as const; // prettier-ignore
export type CurrencyField = (typeof CURRENCY_FIELDS)[number];
export type CurrencyDraft = Record<CurrencyField, string>;
const INTEGERS: ReadonlySet<string> = new Set(['confirmations']);

/**
 * The markets role's currencies: deposits and withdrawals switched on or off, fees, bounds,
 * confirmations and second-contract stakes edited, each with a reason. The server answers the
 * currency's new view, which replaces the row.
 */
export class CurrenciesStore {
  readonly currencies: Resource<AdminCurrency[]>;
  editingId: number | null = null;
  draft: CurrencyDraft | null = null;
  states = new Map<number, ChangeState>();
  errors = new Map<number, string>();

  constructor(private readonly api: AdminTransport) {
    this.currencies = new Resource(() => this.api.get<AdminCurrency[]>('currencies'));
    makeAutoObservable(this, {}, { autoBind: true });
  }

  stateOf(id: number): ChangeState {
    return this.states.get(id) ?? 'idle';
  }

  /** Sets one switch of currency `id` (`open_draw` false refuses withdrawals), with the reason. */
  async toggle(id: number, which: CurrencySwitch, value: boolean, reason: string): Promise<boolean> {
    return this.update(id, { [which]: value }, reason);
  }

  edit(currency: AdminCurrency): void {
    this.editingId = currency.id;
    this.draft = draftOf<CurrencyField>(currency, CURRENCY_FIELDS);
    this.errors.delete(currency.id);
  }

  change(field: CurrencyField, value: string): void {
    if (this.draft) this.draft = { ...this.draft, [field]: value };
  }

  close(): void {
    this.editingId = null;
    this.draft = null;
  }

  /** The draft's fields that differ from the currency as last read, as the server takes them. */
  get changes(): Record<string, string | number> {
    const currency = this.currencies.data?.find((c) => c.id === this.editingId);
    if (!currency || !this.draft) return {};
    return changedFields<CurrencyField>(currency, this.draft, CURRENCY_FIELDS, INTEGERS);
  }

  /** Sends only the changed fields with the reason; closes the form when the server took them. */
  async save(reason: string): Promise<boolean> {
    const id = this.editingId;
    const changes = this.changes;
    if (id === null || Object.keys(changes).length === 0) return false;
    const done = await this.update(id, changes, reason);
    if (done && this.editingId === id) this.close();
    return done;
  }

  private async update(id: number, changes: Record<string, unknown>, reason: string): Promise<boolean> {
    const body = { id, ...changes, reason };
    return sendChange(this, this.currencies, id, () => this.api.post<AdminCurrencyUpdated>('currencies/update', body));
  }
}
