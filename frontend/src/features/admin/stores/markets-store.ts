import { makeAutoObservable } from 'mobx';

import type { AdminTransport } from '../api/admin-client';
import type { MarketPair, MarketPairUpdated } from '../api/types';
import { Resource } from './resource';
import { changedFields, type ChangeState, draftOf, sendChange } from './settings-form';

export type { ChangeState } from './settings-form';

/**
 * A pair's switches: trading open (`open_change`), selling refused (`sell_disabled`), leveraged
 * contracts offered (`open_lever`) and second contracts offered (`open_microtrade`).
 */
export type PairSwitch = 'open_change' | 'sell_disabled' | 'open_lever' | 'open_microtrade';

/**
 * What the fees-and-bounds form changes (with the mark's impact notional); the amounts are strings as
 * the server sends them.
 */
export const EDITABLE = [
  'maker_fee', 'taker_fee', 'max_price', 'max_quantity', 'min_notional', 'price_band', 'impact_notional',
  'max_open_orders',
] as const; // prettier-ignore
/** The lever terms form: new positions take them, open ones keep theirs. */
export const LEVER_FIELDS = [
  'lever_fee_rate', 'lever_point_rate', 'lever_overnight_rate', 'lever_share_num', 'lever_multiples',
  'lever_shares', 'lever_max_hands', 'lever_max_exposure',
] as const; // prettier-ignore
/** The second-contract terms form: new contracts take them, accepted ones keep their ratio and fee. */
export const MICRO_FIELDS = ['micro_seconds', 'micro_fee_rate', 'micro_max_exposure'] as const;

/** The pair's settings in three forms, each saved through its own route. */
export const SECTIONS = {
  limits: { path: 'pairs/update', fields: EDITABLE },
  lever: { path: 'pairs/lever', fields: LEVER_FIELDS },
  micro: { path: 'pairs/micro', fields: MICRO_FIELDS },
} as const;
export type Section = keyof typeof SECTIONS;
const SWITCH_SECTION: Record<PairSwitch, Section> = {
  open_change: 'limits', sell_disabled: 'limits', open_lever: 'lever', open_microtrade: 'micro',
}; // prettier-ignore
/** Fields the server takes as whole numbers (sent as numbers when they are digits). */
const INTEGERS: ReadonlySet<string> = new Set(['max_open_orders', 'lever_max_hands']);

export type EditableField =
  | (typeof EDITABLE)[number]
  | (typeof LEVER_FIELDS)[number]
  | (typeof MICRO_FIELDS)[number];
export type PairDraft = Partial<Record<EditableField, string>>;

/**
 * The markets role's pairs: trading, selling, lever and second contracts switched on or off; fees and
 * bounds, lever terms and second-contract terms edited (one form at a time), each with a reason. The
 * server applies a change to the running actors at once and answers the pair's new view, which
 * replaces the row.
 */
export class MarketsStore {
  readonly pairs: Resource<MarketPair[]>;
  editingId: number | null = null;
  section: Section = 'limits';
  draft: PairDraft | null = null;
  states = new Map<number, ChangeState>();
  /** Which of the pair's settings the last change was to (for its message). */
  lastSection = new Map<number, Section>();
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
    return this.update(id, { [which]: value }, reason, SWITCH_SECTION[which]);
  }

  /** Opens one of the pair's forms (fees and bounds by default) with its current values. */
  edit(pair: MarketPair, section: Section = 'limits'): void {
    this.editingId = pair.id;
    this.section = section;
    this.draft = draftOf<EditableField>(pair, SECTIONS[section].fields);
    this.errors.delete(pair.id);
  }

  /** The open form's fields. */
  get fields(): readonly EditableField[] {
    return SECTIONS[this.section].fields;
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
    return changedFields<EditableField>(pair, this.draft, this.fields, INTEGERS);
  }

  /** Sends only the changed fields with the reason; closes the form when the server took them. */
  async save(reason: string): Promise<boolean> {
    const id = this.editingId;
    const changes = this.changes;
    if (id === null || Object.keys(changes).length === 0) return false;
    const done = await this.update(id, changes, reason, this.section);
    if (done && this.editingId === id) this.close();
    return done;
  }

  private async update(id: number, changes: Record<string, unknown>, reason: string, section: Section): Promise<boolean> {
    this.lastSection.set(id, section);
    const body = { id, ...changes, reason };
    return sendChange(this, this.pairs, id, () => this.api.post<MarketPairUpdated>(SECTIONS[section].path, body));
  }
}
