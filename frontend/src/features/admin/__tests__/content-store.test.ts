import { beforeEach, describe, expect, it } from 'vitest';

import { ContentStore } from '../stores/content-store';
import { fakeAdmin } from './fake-admin';

let fake: ReturnType<typeof fakeAdmin>;

beforeEach(() => {
  fake = fakeAdmin();
  fake.answer('/api/news/categories', [{ id: 22, name: 'Announcements' }, { id: 23, name: 'Banners' }]);
  fake.answer('news', []);
  fake.answer('news/save', { id: 70 });
});

describe('a new notice', () => {
  it('waits for the categories, then saves into the first of them (never a guessed id)', async () => {
    const store = new ContentStore(fake.api);
    expect(store.canAdd).toBe(false);
    store.edit(null);
    expect(store.draft).toBeNull(); // nothing to save into yet

    await store.categories.load();
    store.edit(null);
    store.change('title', 'Maintenance');
    expect(await store.save()).toBe(true);
    expect(fake.post).toHaveBeenCalledWith('news/save', expect.objectContaining({ category_id: 22, title: 'Maintenance' }));
  });

  it('saves into the category the list shows', async () => {
    const store = new ContentStore(fake.api);
    await store.categories.load();
    store.setCategory(23);
    store.edit(null);
    expect(store.draft?.category_id).toBe(23);
  });
});
