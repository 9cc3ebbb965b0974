import { beforeEach, describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';

import type { AdminProduct, ProductKindFields } from '../api/types';
import { menuFor } from '../stores/menu';
import { ProductsStore } from '../stores/products-store';
import { fakeAdmin } from './fake-admin';

let fake: ReturnType<typeof fakeAdmin>;

const KINDS: ProductKindFields[] = [
  {
    kind: 'lock',
    fields: [
      { name: 'name', type: 'text', required: true, fixed: false, max: 64 },
      { name: 'currency', type: 'currency', required: true, fixed: false, max: null },
      { name: 'limit_days', type: 'int', required: true, fixed: false, max: 36500 },
      { name: 'display_rate', type: 'amount', required: true, fixed: false, max: null },
      { name: 'limit_number', type: 'amount', required: true, fixed: false, max: null },
      { name: 'open', type: 'bool', required: false, fixed: false, max: null },
    ],
  },
  {
    kind: 'sale',
    fields: [
      { name: 'title', type: 'text', required: true, fixed: false, max: 128 },
      { name: 'rengou', type: 'amount', required: true, fixed: true, max: null },
      { name: 'etime', type: 'time', required: true, fixed: false, max: null },
    ],
  },
];

const lock = (id: number, extra: Partial<AdminProduct> = {}): AdminProduct => ({
  kind: 'lock', id, state: 'open', can_open: false, can_close: true, orders: 0,
  values: { name: `Lock ${id}`, currency: 'USDT', limit_days: '7', display_rate: '5', limit_number: '100', open: 'true' },
  ...extra,
}); // prettier-ignore

const sale = (id: number, orders: number): AdminProduct => ({
  kind: 'sale', id, state: 'open', can_open: false, can_close: true, orders, subscribed: '10', cishu: 1,
  values: { title: `Sale ${id}`, rengou: '0.5', etime: '2030-01-08T12:00' },
}); // prettier-ignore

beforeEach(() => {
  fake = fakeAdmin();
  fake.answer('products/kinds', KINDS);
  fake.answer('products', (params: unknown) => ((params as { kind: string }).kind === 'lock' ? [lock(1), lock(2)] : [sale(3, 1)]));
});

async function loaded(): Promise<ProductsStore> {
  const store = new ProductsStore(fake.api);
  await store.load();
  return store;
}

describe('ProductsStore', () => {
  it('reads the fields of each kind once and the products of the tab', async () => {
    const store = await loaded();
    expect(fake.get).toHaveBeenCalledWith('products/kinds');
    expect(fake.get).toHaveBeenCalledWith('products', { kind: 'lock' });
    expect(store.fields.map((f) => f.name)).toEqual(['name', 'currency', 'limit_days', 'display_rate', 'limit_number', 'open']);
    expect(store.list.data?.map((p) => p.id)).toEqual([1, 2]);
    store.setKind('sale');
    expect(store.list.data).toBeNull(); // the other tab's rows are not shown as this one's
    await new Promise((r) => setTimeout(r));
    expect(fake.get).toHaveBeenLastCalledWith('products', { kind: 'sale' });
    expect(store.list.data?.map((p) => p.id)).toEqual([3]);
    await store.load();
    expect(fake.get.mock.calls.filter(([path]) => path === 'products/kinds')).toHaveLength(1);
  });

  it('creates a product from the filled fields as texts, with the reason, and adds its row', async () => {
    const made = lock(9, { values: { ...lock(9).values, name: 'New lock', display_rate: '6.5' } });
    fake.answer('products/create', made);
    const store = await loaded();
    store.startCreate();
    expect(store.missing).toEqual(['name', 'currency', 'limit_days', 'display_rate', 'limit_number']);
    expect(store.ready).toBe(false);
    expect(await store.save('new term')).toBe(false);
    expect(fake.post).not.toHaveBeenCalled();
    for (const [field, value] of [['name', ' New lock '], ['currency', 'usdt'], ['limit_days', '7'], ['display_rate', '6.5'],
      ['limit_number', '100']] as const) store.change(field, value); // prettier-ignore
    expect(store.missing).toEqual([]);
    expect(await store.save('new term')).toBe(true);
    expect(fake.post).toHaveBeenCalledWith('products/create', {
      kind: 'lock',
      values: { name: 'New lock', currency: 'usdt', limit_days: '7', display_rate: '6.5', limit_number: '100' },
      reason: 'new term',
    });
    expect(store.list.data?.map((p) => p.id)).toEqual([1, 2, 9]);
    expect([store.form, store.formState, store.savedId]).toEqual([null, 'saved', 9]);
  });

  it('edits only the changed fields and replaces the row with the answer', async () => {
    fake.answer('products/edit', (body: unknown) => lock(2, { values: { ...lock(2).values, ...(body as { values: object }).values } }));
    const store = await loaded();
    store.startEdit(store.list.data![1]!);
    expect(store.values).toEqual({});
    expect(store.ready).toBe(false);
    store.change('display_rate', '7.25 ');
    store.change('open', 'false');
    store.change('name', 'Lock 2'); // as it was
    expect(await store.save('rate up')).toBe(true);
    expect(fake.post).toHaveBeenCalledWith('products/edit', {
      kind: 'lock', id: 2, values: { display_rate: '7.25', open: 'false' }, reason: 'rate up',
    }); // prettier-ignore
    expect(store.list.data?.[1]?.values.display_rate).toBe('7.25');
    expect(store.list.data?.[0]?.values.display_rate).toBe('5');
  });

  it("keeps the form and shows the server's message when it refuses", async () => {
    fake.answer('products/edit', new ApiError('limit_days must be above 0', 'business', { code: 0 }));
    const store = await loaded();
    store.startEdit(store.list.data![0]!);
    store.change('limit_days', '0');
    expect(await store.save('typo')).toBe(false);
    expect([store.formState, store.formError]).toEqual(['failed', 'limit_days must be above 0']);
    expect(store.form).toEqual({ mode: 'edit', id: 1 });
    expect(store.draft.limit_days).toBe('0');
    expect(store.list.data?.[0]?.values.limit_days).toBe('7'); // the row keeps what the server holds
  });

  it("locks a sale's fixed terms once it has orders", async () => {
    const store = await loaded();
    store.setKind('sale');
    await store.list.load();
    store.startEdit(store.list.data![0]!);
    const locked = store.fields.filter((f) => store.locked(f)).map((f) => f.name);
    expect(locked).toEqual(['rengou']);
  });

  it('closes and opens a product with the reason, the answer replacing its row', async () => {
    fake.answer('products/close', lock(1, { state: 'closed', can_open: true, can_close: false }));
    const store = await loaded();
    const sent = store.setOpen(1, false, 'paused');
    expect(store.stateOf(1)).toBe('sending');
    expect(await sent).toBe(true);
    expect(fake.post).toHaveBeenCalledWith('products/close', { kind: 'lock', id: 1, reason: 'paused' });
    expect(store.list.data?.[0]?.state).toBe('closed');
    expect(store.stateOf(1)).toBe('saved');
    fake.answer('products/open', new ApiError('The sale 1 has ended', 'business', { code: 0 }));
    expect(await store.setOpen(1, true, 'again')).toBe(false);
    expect([store.stateOf(1), store.errors.get(1)]).toEqual(['failed', 'The sale 1 has ended']);
    expect(store.list.data?.[0]?.state).toBe('closed');
  });

  it('is in the menu only for the products role', () => {
    expect(menuFor(['products']).map((s) => s.key)).toEqual(['dashboard', 'products']);
    expect(menuFor(['support', 'markets', 'admin']).map((s) => s.key)).not.toContain('products');
  });
});
