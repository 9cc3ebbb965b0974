import { makeAutoObservable, runInAction } from 'mobx';

import type { AdminTransport } from '../api/admin-client';
import type { AdminProduct, ProductField, ProductKind, ProductKindFields } from '../api/types';
import { messageOf, Resource } from './resource';

/** What the form does: a new product of the tab's kind, or one product's changed fields. */
export type ProductForm = { mode: 'create' } | { mode: 'edit'; id: number };

/** What became of the last change, for the form's or the row's message. */
export type ProductChange = 'idle' | 'sending' | 'saved' | 'failed';

/**
 * The products role's earn products, a tab per kind (lock savings, mining, token sales, listings):
 * listed as the server shows them, created and edited from the kind's fields (the server's table,
 * `admin/products/kinds`), opened and closed, each with a reason. Values stay the texts the operator
 * typed (money is never a number here); the server checks them and its answer replaces the row.
 */
export class ProductsStore {
  kind: ProductKind = 'lock';
  readonly kinds: Resource<ProductKindFields[]>;
  readonly list: Resource<AdminProduct[]>;
  form: ProductForm | null = null;
  draft: Record<string, string> = {};
  formState: ProductChange = 'idle';
  formError = '';
  /** The product the last save made or changed, for the saved message. */
  savedId: number | null = null;
  states = new Map<number, ProductChange>();
  errors = new Map<number, string>();

  constructor(private readonly api: AdminTransport) {
    this.kinds = new Resource(() => this.api.get<ProductKindFields[]>('products/kinds'));
    this.list = new Resource(() => this.api.get<AdminProduct[]>('products', { kind: this.kind }));
    makeAutoObservable(this, {}, { autoBind: true });
  }

  /** The kinds' fields (once) and the tab's products. */
  async load(): Promise<void> {
    await Promise.all([this.kinds.data ? Promise.resolve() : this.kinds.load(), this.list.load()]);
  }

  setKind(kind: ProductKind): void {
    if (kind === this.kind) return;
    this.kind = kind;
    this.list.data = null;
    this.close();
    this.states.clear();
    this.errors.clear();
    void this.list.load();
  }

  /** The tab's fields, in the server's order. */
  get fields(): ProductField[] {
    return this.kinds.data?.find((k) => k.kind === this.kind)?.fields ?? [];
  }

  get editing(): AdminProduct | null {
    const form = this.form;
    return form?.mode === 'edit' ? (this.list.data?.find((p) => p.id === form.id) ?? null) : null;
  }

  startCreate(): void {
    this.form = { mode: 'create' };
    this.draft = Object.fromEntries(this.fields.map((f) => [f.name, '']));
    this.formState = 'idle';
    this.formError = '';
  }

  startEdit(product: AdminProduct): void {
    this.form = { mode: 'edit', id: product.id };
    this.draft = { ...product.values };
    this.formState = 'idle';
    this.formError = '';
  }

  change(field: string, value: string): void {
    this.draft = { ...this.draft, [field]: value };
  }

  close(): void {
    this.form = null;
    this.draft = {};
    this.formError = '';
  }

  /** Whether a field cannot change: a sale's or listing's term once it has orders. */
  locked(field: ProductField): boolean {
    return Boolean(field.fixed && this.editing && this.editing.orders > 0);
  }

  /** What is sent: a create's filled fields, or an edit's fields that differ from the row as read. */
  get values(): Record<string, string> {
    const sent: Record<string, string> = {};
    const before = this.editing?.values;
    for (const field of this.fields) {
      const text = (this.draft[field.name] ?? '').trim();
      if (before ? text === (before[field.name] ?? '') : text === '') continue;
      sent[field.name] = text;
    }
    return sent;
  }

  /** A create's required fields left empty (the server would refuse them). */
  get missing(): string[] {
    if (this.form?.mode !== 'create') return [];
    return this.fields.filter((f) => f.required && !(this.draft[f.name] ?? '').trim()).map((f) => f.name);
  }

  get ready(): boolean {
    return this.form !== null && Object.keys(this.values).length > 0 && this.missing.length === 0;
  }

  /** Creates or edits with the reason; on success the answer replaces (or joins) the rows and the form closes. */
  async save(reason: string): Promise<boolean> {
    const form = this.form;
    if (!form || !this.ready || this.formState === 'sending') return false;
    const kind = this.kind;
    const body =
      form.mode === 'create'
        ? { kind, values: this.values, reason }
        : { kind, id: form.id, values: this.values, reason };
    this.formState = 'sending';
    this.formError = '';
    try {
      const answer = await this.api.post<AdminProduct>(`products/${form.mode}`, body);
      runInAction(() => {
        this.replace(answer);
        this.savedId = answer.id;
        this.formState = 'saved';
        this.close();
      });
      return true;
    } catch (error) {
      runInAction(() => {
        this.formError = messageOf(error);
        this.formState = 'failed';
      });
      return false;
    }
  }

  stateOf(id: number): ProductChange {
    return this.states.get(id) ?? 'idle';
  }

  /** Opens or closes product `id` of the tab's kind, with the reason; the answer replaces its row. */
  async setOpen(id: number, open: boolean, reason: string): Promise<boolean> {
    this.states.set(id, 'sending');
    this.errors.delete(id);
    try {
      const answer = await this.api.post<AdminProduct>(`products/${open ? 'open' : 'close'}`, {
        kind: this.kind,
        id,
        reason,
      });
      runInAction(() => {
        this.replace(answer);
        this.states.set(id, 'saved');
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

  private replace(product: AdminProduct): void {
    if (product.kind !== this.kind || !this.list.data) return;
    const rows = this.list.data;
    this.list.data = rows.some((p) => p.id === product.id)
      ? rows.map((p) => (p.id === product.id ? product : p))
      : [...rows, product];
  }
}
