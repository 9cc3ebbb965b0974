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

describe('site settings', () => {
  it("keep a value typed in one row while another row's save reloads the list", async () => {
    const stored: Record<string, string> = { show_code: '', show_auth: '' };
    fake.answer('settings', () => Object.entries(stored).map(([key, value]) => ({ key, value, takes: '0 or 1' })));
    fake.answer('settings/save', (body: unknown) => {
      const { key, value } = body as { key: string; value: string };
      stored[key] = value;
      return { key, value };
    });
    const store = new ContentStore(fake.api);
    await store.settings.load();
    store.setSetting('show_code', '0');
    const saving = store.saveSetting('show_code');
    store.setSetting('show_auth', '0'); // typed while the first save and its reload are under way
    expect(await saving).toBe(true);
    expect(store.settingValues).toEqual({ show_code: '0', show_auth: '0' });
    expect(await store.saveSetting('show_auth')).toBe(true);
    expect(fake.post).toHaveBeenLastCalledWith('settings/save', { key: 'show_auth', value: '0' });
    stored.show_auth = '1'; // another operator's change shows on the next reload: nothing typed is left
    await store.settings.load();
    expect(store.settingValues.show_auth).toBe('1');
  });
});
