import { makeAutoObservable, runInAction } from 'mobx';

import type { AdminTransport } from '../api/admin-client';
import type { MarketPair, MarketPairUpdated } from '../api/types';
import { messageOf, Resource } from './resource';

/** A pair's two trading switches: trading open (`open_change`) and selling refused (`sell_disabled`). */
export type PairSwitch = 'open_change' | 'sell_disabled';

/** What the edit form changes; the amounts are strings as the server sends them. */
export const EDITABLE = [
  'maker_fee', 'taker_fee', 'max_price', 'max_quantity', 'min_notional', 'price_band', 'max_open_orders',
] as const; // prettier-ignore
export type EditableField = (typeof EDITABLE)[number];
export type PairDraft = Record<EditableField, string>;

/** What became of the last change to a pair, for the row's message. */
export type ChangeState = 'idle' | 'sending' | 'saved' | 'saved_later' | 'failed';

/**
 * The markets role's pairs: trading and selling switched on or off, fees and bounds edited, each with
 * a reason; the server applies a change to the running pair at once and answers the pair's new view,
 * which replaces the row.
 */
export class MarketsStore {
  readonly pairs: Resource<MarketPair[]>;
  editingId: number | null = null;
  draft: PairDraft | null = null;
  states = new Map<number, ChangeState>();
  errors = new Map<number, string>();

  constructor(private readonly api: AdminTransport) {
    this.pairs = new Resource(() => this.api.get<MarketPair[]>('pairs'));
    makeAutoObservable(this, {}, { autoBind: true });
  }

  stateOf(id: number): ChangeState {
    return this.states.get(id) ?? 'idle';
  }

  /** Sets one switch of pair `id` (`open_change` false closes trading), with the reason. */
  async toggle(id: number, which: PairSwitch, value: boolean, reason: string): Promise<boolean> {
    return this.update(id, { [which]: value }, reason);
  }

  edit(pair: MarketPair): void {
    this.editingId = pair.id;
    this.draft = Object.fromEntries(EDITABLE.map((k) => [k, String(pair[k])])) as PairDraft;
    this.errors.delete(pair.id);
  }

  change(field: EditableField, value: string): void {
    if (this.draft) this.draft = { ...this.draft, [field]: value };
  }

  close(): void {
    this.editingId = null;
    this.draft = null;
  }

  /** The draft's fields that differ from the pair as last read, as the server takes them. */
  get changes(): Record<string, string | number> {
    const pair = this.pairs.data?.find((p) => p.id === this.editingId);
    if (!pair || !this.draft) return {};
    const changed: Record<string, string | number> = {};
    for (const field of EDITABLE) {
      const text = this.draft[field].trim();
      if (text === String(pair[field])) continue;
      // An integer goes as one; anything else as typed, for the server to refuse with its message.
      changed[field] = field === 'max_open_orders' && /^\d+$/.test(text) ? Number(text) : text;
    }
    return changed;
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
    this.states.set(id, 'sending');
    this.errors.delete(id);
    try {
      const answer = await this.api.post<MarketPairUpdated>('pairs/update', { id, ...changes, reason });
      runInAction(() => {
        const { applied_live: live, ...pair } = answer;
        if (this.pairs.data) this.pairs.data = this.pairs.data.map((p) => (p.id === id ? pair : p));
        this.states.set(id, live ? 'saved' : 'saved_later');
      });
      return true;
    } catch (error) {
      runInAction(() => {
        this.errors.set(id, messageOf(error));
        this.states.set(id, 'failed');
      });
      return false;
    }
  }
}
